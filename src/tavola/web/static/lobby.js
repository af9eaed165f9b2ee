// The lobby: finding an opponent (seeks.js), a game against the bot, a table for a friend (with its invite link), a chouette, joining
// by link, and the tables to watch, live or finished (with their records and dice).

import { api, element, sitDown } from "./api.js";
import { clockFields, clockLabel, clockOf } from "./clock.js";
import { language, t, translate } from "./i18n.js";
import { refreshSeeks, seeksPanel } from "./seeks.js";

export const LEVELS = ["beginner", "casual", "intermediate", "advanced", "expert", "world-class"];
export const VARIANTS = ["standard", "nackgammon", "hypergammon", "dutch", "acey-deucey"];

function field(label, control) {
  return element("label", { class: "field" }, element("span", { "data-i18n": label }), control);
}

function select(name, values, labels = (value) => value, chosen = values[0]) {
  return element(
    "select",
    { name },
    values.map((value) => element("option", { value, selected: value === chosen }, labels(value))),
  );
}

function check(name, checked) {
  return element("input", { type: "checkbox", name, checked });
}

function number(name, value, min, max) {
  return element("input", { type: "number", name, value, min, max });
}

function nameField() {
  return field(
    "form.name",
    element("input", { name: "name", maxlength: 40, required: true, value: localStorage.getItem("tavola.name") || "" }),
  );
}

// How the game is played: single game, money or a match (its length asked only for a match), the
// variant and the rules.
function seriesFields(series = "single") {
  const chosen = select("series", ["single", "money", "match"], (value) => t(`series.${value}`), series);
  const length = field("form.length", number("match_length", 3, 1, 25));
  length.classList.add("match-length");
  const showLength = () => {
    length.hidden = chosen.value !== "match";
  };
  chosen.addEventListener("change", showLength);
  showLength();
  return element(
    "fieldset",
    { class: "series" },
    element("legend", { "data-i18n": "form.play" }),
    field("form.series", chosen),
    length,
    field("form.variant", select("variant", VARIANTS)),
    clockFields(),
    rulesFields(),
  );
}

function rulesFields() {
  return element(
    "details",
    { class: "rules" },
    element("summary", { "data-i18n": "form.rules" }),
    field("rules.cube", check("cube", true)),
    field("rules.crawford", check("crawford", true)),
    field("rules.gammons", check("gammons", true)),
    field("rules.jacoby", check("jacoby", false)),
    field("rules.beavers", number("beavers", 0, 0, 3)),
    field("rules.automatic_doubles", number("automatic_doubles", 0, 0, 3)),
  );
}

function rulesOf(form) {
  const value = (name) => form.elements[name];
  return {
    cube: value("cube").checked,
    crawford: value("crawford").checked,
    gammons: value("gammons").checked,
    jacoby: value("jacoby").checked,
    beavers: Number(value("beavers").value),
    automatic_doubles: Number(value("automatic_doubles").value),
  };
}

function gameOptions(form, seats) {
  return {
    kind: "game",
    series: form.elements.series.value,
    length: Number(form.elements.match_length.value),
    variant: form.elements.variant.value,
    rules: rulesOf(form),
    hints: Boolean(form.elements.hints?.checked),
    rated: Boolean(form.elements.rated?.checked),
    clock: clockOf(form),
    seats,
  };
}

// Create the table, sit down in seat 0 and go to it.
async function createAndSit(form, options) {
  const error = form.querySelector(".error");
  error.textContent = "";
  try {
    const name = form.elements.name.value.trim();
    localStorage.setItem("tavola.name", name);
    const created = await api("/api/tables", { method: "POST", body: options });
    await sitDown(created.id, 0, name);
    location.assign(`/t/${created.id}`);
  } catch (problem) {
    error.textContent = problem.message;
  }
}

function form(id, title, fields, submit, onsubmit) {
  return element(
    "form",
    {
      id,
      class: "panel",
      onsubmit: (event) => {
        event.preventDefault();
        onsubmit(event.target);
      },
    },
    element("h2", { "data-i18n": title }),
    fields,
    element("button", { type: "submit", "data-i18n": submit }),
    element("p", { class: "error" }),
  );
}

function botForm() {
  return form(
    "play-bot",
    "lobby.bot",
    [
      nameField(),
      field("form.level", select("level", LEVELS, (value) => t(`level.${value}`), "intermediate")),
      seriesFields(),
      field("form.hints", check("hints", true)),
      ratedField(),
    ],
    "lobby.start",
    (made) => createAndSit(made, gameOptions(made, [{ name: made.elements.name.value.trim() }, { bot: made.elements.level.value }])),
  );
}

// A rated match counts for the ratings of the accounts playing it (or the bot level's): a match, logged
// in, without hints; ticking it takes the hints away, and the server says what else is missing.
function ratedField() {
  const rated = check("rated", false);
  rated.addEventListener("change", () => {
    const hints = rated.form?.elements.hints;
    if (rated.checked && hints) hints.checked = false;
  });
  return field("form.rated", rated);
}

function friendForm() {
  return form(
    "play-friend",
    "lobby.friend",
    [nameField(), seriesFields("match"), field("form.hints", check("hints", false)), ratedField()],
    "lobby.create",
    (made) => createAndSit(made, gameOptions(made, [{ name: made.elements.name.value.trim() }, {}])),
  );
}

function chouetteForm() {
  return form(
    "chouette",
    "lobby.chouette",
    [
      nameField(),
      field("form.seats", number("seats", 4, 3, 8)),
      field("form.bots", number("bots", 1, 0, 7)),
      field("form.level", select("level", LEVELS, (value) => t(`level.${value}`), "intermediate")),
      field("form.consultation", select("consultation", ["free", "after-cube", "none"], (value) => t(`consultation.${value}`))),
      field("form.cubes", select("cubes", ["multi", "single"], (value) => t(`cubes.${value}`))),
      field("form.hints", check("hints", false)),
    ],
    "lobby.create",
    (made) => {
      const count = Number(made.elements.seats.value);
      const bots = Math.min(Number(made.elements.bots.value), count - 1);
      const seats = [{ name: made.elements.name.value.trim() }];
      for (let index = 1; index < count; index += 1) seats.push(index >= count - bots ? { bot: made.elements.level.value } : {});
      createAndSit(made, {
        kind: "chouette",
        settings: { consultation: made.elements.consultation.value, cubes: made.elements.cubes.value },
        hints: made.elements.hints.checked,
        seats,
      });
    },
  );
}

function joinForm() {
  const link = element("input", { name: "link", required: true, "data-i18n-placeholder": "lobby.join_placeholder" });
  return form("join", "lobby.join", [link], "lobby.go", () => {
    const text = link.value.trim();
    const found = text.match(/\/t\/([0-9a-f]+)(\?seat=\d+)?/) || text.match(/^([0-9a-f]+)$/);
    if (found) location.assign(`/t/${found[1]}${found[2] || ""}`);
  });
}

function describe(table) {
  const options = table.options;
  if (table.kind === "chouette") return t("table.chouette", { count: table.seats.length });
  if (options.series === "match") return t("table.match", { length: options.length });
  if (options.series === "money") return t("table.money", { stake: options.stake });
  return t("table.single");
}

function tableRow(table) {
  const names = table.seats.map((seat) => seat.name || t("seat.empty")).join(", ");
  const links = [element("a", { href: `/t/${table.id}`, class: "watch" }, table.status === "open" ? t("lobby.open_table") : t("lobby.watch"))];
  if (table.status === "finished") {
    links.push(" · ", element("a", { href: `/api/tables/${table.id}/record.json`, download: true }, t("records.json")));
    if (table.kind === "game") {
      links.push(" · ", element("a", { href: `/api/tables/${table.id}/record.mat`, download: true }, t("records.mat")));
      links.push(" · ", element("a", { href: `/api/tables/${table.id}/analysis.html?lang=${language()}`, target: "_blank" }, t("records.analysis")));
    }
    links.push(" · ", element("a", { href: `/api/tables/${table.id}/dice`, target: "_blank" }, t("dice.link")));
  }
  return element(
    "li",
    { dataset: { table: table.id } },
    element("b", {}, describe(table) + clockLabel(table.options)),
    ` · ${t(`status.${table.status}`)} · ${names} · `,
    links,
  );
}

async function fillTables(holder, status) {
  try {
    const { tables } = await api(`/api/tables?status=${status}`);
    holder.replaceChildren(...(tables.length ? tables.slice(0, 30).map(tableRow) : [element("li", { class: "none" }, t("lobby.none"))]));
  } catch (problem) {
    holder.replaceChildren(element("li", { class: "error" }, problem.message));
  }
}

export function showLobby(root) {
  const live = element("ul", { id: "tables-live", class: "tables" });
  const finished = element("ul", { id: "tables-finished", class: "tables" });
  root.replaceChildren(
    element(
      "div",
      { class: "lobby" },
      element("section", { class: "forms" }, botForm(), friendForm(), chouetteForm(), joinForm()),
      element(
        "section",
        { class: "lists" },
        seeksPanel(),
        element("p", { class: "panel tournaments-link" }, element("a", { href: "/tournaments", "data-i18n": "tournament.lobby_link" })),
        element("div", { class: "panel" }, element("h2", { "data-i18n": "lobby.tables" }), live),
        element("div", { class: "panel" }, element("h2", { "data-i18n": "lobby.finished" }), finished),
      ),
    ),
  );
  translate(root);
  const refresh = () => {
    refreshSeeks();
    fillTables(live, "open,live");
    fillTables(finished, "finished");
  };
  refresh();
  return setInterval(refresh, 5000);
}
