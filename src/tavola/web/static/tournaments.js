// Tournaments: the list and a director's form at "/tournaments"; a tournament at "/tournaments/{id}",
// with its bracket (a knockout, drawn round by round) or its rounds and standings (a Swiss), each match
// linked to its table, a player's own match to play, and the director's buttons. Read again every few
// seconds while it runs.

import { api, element, holdSeat } from "./api.js";
import { currentAccount } from "./account.js";
import { t, translate } from "./i18n.js";
import { LEVELS, VARIANTS } from "./lobby.js";

const REFRESH_MS = 3000;

function field(label, control) {
  return element("label", { class: "field" }, element("span", {}, t(label)), control);
}

function options(values, label = (value) => value, chosen = values[0]) {
  return values.map((value) => element("option", { value, selected: value === chosen }, label(value)));
}

function createForm() {
  const error = element("p", { class: "error" });
  const kind = element("select", { name: "kind" }, options(["knockout", "swiss"], (value) => t(`tournament.kind.${value}`)));
  const rounds = field("tournament.rounds", element("input", { type: "number", name: "rounds", value: 3, min: 1, max: 16 }));
  const consolation = field("tournament.consolation", element("input", { type: "checkbox", name: "consolation" }));
  const shown = () => {
    rounds.hidden = kind.value !== "swiss";
    consolation.hidden = kind.value !== "knockout";
  };
  kind.addEventListener("change", shown);
  shown();
  const form = element(
    "form",
    {
      class: "panel tournament-form",
      id: "tournament-form",
      onsubmit: async (event) => {
        event.preventDefault();
        const given = form.elements;
        const lengths = given.lengths.value.split(/[ ,]+/).filter(Boolean).map(Number);
        const settings = {
          name: given.name.value.trim(),
          kind: given.kind.value,
          lengths,
          variant: given.variant.value,
          rated: given.rated.checked,
          start_seconds: Number(given.start_minutes.value) * 60,
        };
        if (settings.kind === "swiss") settings.rounds = Number(given.rounds.value);
        else settings.consolation = given.consolation.checked;
        if (given.closes.value) settings.closes = new Date(given.closes.value).toISOString();
        try {
          const made = await api("/api/tournaments", { method: "POST", body: settings });
          location.assign(`/tournaments/${made.id}`);
        } catch (problem) {
          error.textContent = problem.message;
        }
      },
    },
    element("h2", {}, t("tournament.create")),
    field("tournament.name", element("input", { name: "name", required: true, maxlength: 80 })),
    field("tournament.kind", kind),
    rounds,
    consolation,
    field("tournament.lengths", element("input", { name: "lengths", value: "3", pattern: "[0-9 ,]+", title: t("tournament.lengths_help") })),
    field("form.variant", element("select", { name: "variant" }, options(VARIANTS))),
    field("tournament.rated", element("input", { type: "checkbox", name: "rated", checked: true })),
    field("tournament.start_minutes", element("input", { type: "number", name: "start_minutes", value: 10, min: 1, max: 10080 })),
    field("tournament.closes", element("input", { type: "datetime-local", name: "closes" })),
    element("button", { type: "submit" }, t("tournament.create_button")),
    error,
  );
  return form;
}

function statusWord(status) {
  return t(`tournament.status.${status}`);
}

// The list of tournaments, newest first, and the form to create one (for a person logged in).
export function showTournaments(root) {
  const list = element("ul", { class: "tables", id: "tournaments" });
  const holder = element("div", { class: "tournament-create" });
  root.replaceChildren(
    element(
      "div",
      { class: "tournaments-page" },
      element("section", { class: "panel" }, element("h1", {}, t("tournament.title")), list),
      holder,
    ),
  );
  currentAccount().then((account) => {
    holder.replaceChildren(account ? createForm() : element("p", { class: "none" }, t("tournament.log_in_to_create")));
  });
  const fill = async () => {
    try {
      const { tournaments } = await api("/api/tournaments");
      list.replaceChildren(
        ...(tournaments.length
          ? tournaments.map((row) =>
              element(
                "li",
                {},
                element("a", { href: `/tournaments/${row.id}` }, row.name),
                ` · ${t(`tournament.kind.${row.kind}`)} · ${row.variant} · ${statusWord(row.status)} · ${t("tournament.players", { count: row.players })} · ${t("tournament.director", { name: row.director })}`,
              ),
            )
          : [element("li", { class: "none" }, t("tournament.none"))]),
      );
    } catch (problem) {
      list.replaceChildren(element("li", { class: "error" }, problem.message));
    }
  };
  fill();
  document.title = `${t("tournament.title")} · Tavola`;
  return setInterval(fill, REFRESH_MS * 2);
}

// --- one tournament ---------------------------------------------------------------------------------

function roundName(number, total) {
  if (total && number === total) return t("tournament.final");
  if (total && number === total - 1) return t("tournament.semi_finals");
  return t("tournament.round", { number });
}

function playerLine(name, match) {
  if (name === null) return element("div", { class: "player bye" }, t("tournament.bye"));
  const won = match.winner === name;
  return element("div", { class: `player${won ? " won" : ""}${match.winner && !won ? " lost" : ""}` }, name);
}

// When a match's players must have taken their seats, while one of them has not.
function startBy(match) {
  if (match.decided || !match.deadline || match.present.every(Boolean)) return null;
  const time = new Date(match.deadline).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return element("span", { class: "start-by" }, t("tournament.start_by", { time }));
}

function matchLabel(match) {
  const [first, second] = match.players;
  if (second === null) return t("tournament.bye_label", { name: first });
  const label = t("tournament.match_label", { first, second });
  return match.winner ? `${label}: ${t("tournament.won_label", { name: match.winner })}` : label;
}

function matchBox(match, view, act) {
  const how = match.decided && match.decided !== "table" ? element("span", { class: "how" }, t(`tournament.decided.${match.decided}`)) : startBy(match);
  const links = [];
  if (match.table) links.push(element("a", { href: `/t/${match.table}`, class: "watch" }, t("lobby.watch")));
  if (view.you && view.you.matches.includes(match.id)) {
    links.push(element("button", { type: "button", class: "play", onclick: () => act.play(match) }, t("tournament.play")));
  }
  if (view.you && view.you.director && !match.decided && match.players[1] !== null && view.status !== "finished") {
    const give = match.players.map((name) => element("button", { type: "button", class: "small secondary", onclick: () => act.award(match, name) }, t("tournament.award", { name })));
    const toggled = (event) => (event.target.open ? act.openAwards.add(match.id) : act.openAwards.delete(match.id));
    links.push(element("details", { class: "award", open: act.openAwards.has(match.id), ontoggle: toggled }, element("summary", {}, t("tournament.award_menu")), give));
  }
  return element(
    "div",
    { class: "match", role: "group", "aria-label": matchLabel(match), dataset: { match: match.id } },
    playerLine(match.players[0], match),
    playerLine(match.players[1], match),
    element("div", { class: "match-foot" }, how, ...links),
  );
}

function bracketView(view, bracket, act) {
  const matches = view.matches.filter((match) => match.bracket === bracket);
  if (!matches.length) return null;
  const paired = Math.max(...matches.map((match) => match.round));
  const total = bracket === "main" && view.rounds ? view.rounds : paired;
  const first = matches.filter((match) => match.round === 1).length;
  const columns = [];
  for (let number = 1; number <= total; number += 1) {
    const here = matches.filter((match) => match.round === number);
    const boxes = here.map((match) => matchBox(match, view, act));
    const expected = Math.max(1, first >> (number - 1));
    for (let missing = here.length; missing < expected; missing += 1) {
      boxes.push(element("div", { class: "match waiting" }, element("div", { class: "player" }, "…"), element("div", { class: "player" }, "…")));
    }
    columns.push(element("div", { class: "bracket-round" }, element("h3", {}, roundName(number, bracket === "main" ? total : 0)), element("div", { class: "bracket-matches" }, boxes)));
  }
  return element(
    "section",
    { class: "panel" },
    element("h2", {}, t(bracket === "main" ? "tournament.bracket" : "tournament.consolation_bracket")),
    element("div", { class: "bracket", id: `bracket-${bracket}` }, columns),
  );
}

function swissView(view, act) {
  const rounds = [...new Set(view.matches.map((match) => match.round))].sort((a, b) => a - b);
  return element(
    "section",
    { class: "panel" },
    element("h2", {}, t("tournament.rounds_title")),
    rounds.map((number) =>
      element(
        "div",
        { class: "swiss-round" },
        element("h3", {}, t("tournament.round", { number })),
        element("div", { class: "bracket-matches" }, view.matches.filter((match) => match.round === number).map((match) => matchBox(match, view, act))),
      ),
    ),
  );
}

function standingsView(view) {
  if (!view.standings.length) return null;
  const swiss = view.settings.kind === "swiss";
  const heads = swiss ? ["tournament.place", "tournament.player", "tournament.points", "tournament.buchholz", "player.wins", "player.rating"] : ["tournament.place", "tournament.player"];
  return element(
    "section",
    { class: "panel" },
    element("h2", {}, t(view.status === "finished" ? "tournament.final_standings" : "tournament.standings")),
    element(
      "table",
      { class: "ratings standings", id: "standings" },
      element("thead", {}, element("tr", {}, heads.map((key) => element("th", {}, t(key))))),
      element(
        "tbody",
        {},
        view.standings.map((line) =>
          element(
            "tr",
            {},
            element("td", {}, line.place),
            element("td", {}, element("a", { href: `/players/${encodeURIComponent(line.name)}` }, line.name)),
            swiss ? [element("td", {}, line.points), element("td", {}, line.buchholz), element("td", {}, line.wins), element("td", {}, Math.round(line.rating))] : [],
          ),
        ),
      ),
    ),
  );
}

function entriesView(view) {
  return element(
    "section",
    { class: "panel" },
    element("h2", {}, t("tournament.players", { count: view.entries.length })),
    element(
      "ol",
      { class: "entries" },
      [...view.entries].sort((a, b) => (a.seed ?? 0) - (b.seed ?? 0)).map((entry) =>
        element("li", {}, entry.name, entry.bot ? element("span", { class: "tag" }, t("player.bot")) : null, entry.rating !== null ? ` · ${Math.round(entry.rating)}` : ""),
      ),
    ),
  );
}

function controls(view, act) {
  const you = view.you;
  const buttons = [];
  if (!you) return element("p", { class: "none" }, t("tournament.log_in_to_enter"));
  if (view.status === "entry") {
    buttons.push(you.entered
      ? element("button", { type: "button", class: "secondary", onclick: () => act.post("entries", "DELETE") }, t("tournament.withdraw"))
      : element("button", { type: "button", id: "enter", onclick: () => act.post("entries") }, t("tournament.enter")));
  }
  if (you.director) {
    if (view.status === "entry") {
      const level = element("select", { name: "bot-level", onchange: () => { act.botLevel = level.value; } }, options(LEVELS, (value) => t(`level.${value}`), act.botLevel));
      buttons.push(element("span", { class: "add-bot" }, level, element("button", { type: "button", class: "secondary", onclick: () => act.post("bots", "POST", { level: level.value }) }, t("tournament.add_bot"))));
      buttons.push(element("button", { type: "button", id: "start", onclick: () => act.post("start") }, t("tournament.start")));
    }
    if (view.status === "running") buttons.push(element("button", { type: "button", id: "pause", class: "secondary", onclick: () => act.post("pause") }, t("tournament.pause")));
    if (view.status === "paused") buttons.push(element("button", { type: "button", id: "resume", onclick: () => act.post("resume") }, t("tournament.resume")));
  }
  return buttons.length ? element("div", { class: "tournament-controls" }, buttons) : null;
}

function settingsLine(view) {
  const settings = view.settings;
  const parts = [t(`tournament.kind.${settings.kind}`), settings.variant, t("tournament.lengths_shown", { lengths: settings.lengths.join(", ") })];
  if (settings.kind === "swiss") parts.push(t("tournament.rounds_shown", { count: settings.rounds }));
  if (settings.consolation) parts.push(t("tournament.consolation"));
  parts.push(t(settings.rated ? "tournament.rated" : "tournament.unrated"));
  return parts.join(" · ");
}

// A tournament's page, read again every few seconds while it is not over: the returned timer.
export function showTournament(root, id) {
  const error = element("p", { class: "error", role: "alert" });
  let timer = null;
  const act = {
    botLevel: LEVELS[0], // kept across the page's redraws, as are the award menus open
    openAwards: new Set(),
    async post(path, method = "POST", body = undefined) {
      error.textContent = "";
      try {
        draw(await api(`/api/tournaments/${id}/${path}`, { method, body }));
      } catch (problem) {
        error.textContent = problem.message;
      }
    },
    award(match, name) {
      act.post(`matches/${match.id}/award`, "POST", { winner: name });
    },
    async play(match) {
      error.textContent = "";
      try {
        const taken = await api(`/api/tournaments/${id}/matches/${match.id}/seat`, { method: "POST" });
        holdSeat(taken.table, taken.seat, taken.token);
        location.assign(`/t/${taken.table}`);
      } catch (problem) {
        error.textContent = problem.message;
      }
    },
  };
  function draw(view) {
    document.title = `${view.name} · Tavola`;
    const play = view.settings.kind === "knockout"
      ? [bracketView(view, "main", act), bracketView(view, "consolation", act)]
      : [swissView(view, act)];
    root.replaceChildren(
      element(
        "div",
        { class: "tournament-page", dataset: { status: view.status } },
        element("h1", {}, view.name, element("span", { class: "tag", id: "tournament-status" }, statusWord(view.status))),
        element("p", { class: "small-print" }, settingsLine(view), " · ", t("tournament.director", { name: view.director })),
        controls(view, act),
        error,
        standingsView(view),
        play,
        entriesView(view),
      ),
    );
    translate(root);
    if (view.status === "finished" || view.status === "cancelled") clearInterval(timer);
  }
  const fill = async () => {
    try {
      draw(await api(`/api/tournaments/${id}`));
    } catch (problem) {
      error.textContent = problem.message;
      if (!root.contains(error)) root.replaceChildren(error);
    }
  };
  fill();
  timer = setInterval(fill, REFRESH_MS);
  return timer;
}
