// Finding an opponent in the lobby: post a seek (the game, rated or not, a time control), or ask to
// play now and let the server pair you with someone close in rating; the open seeks, each to accept.
// A seek's secret is kept in localStorage: it withdraws the seek and, once someone accepts it, is the
// poster's seat token, which the page keeps as a seat's before going to the table.

import { ApiError, api, element, holdSeat } from "./api.js";
import { currentAccount } from "./account.js";
import { clockFields, clockOf } from "./clock.js";
import { t, translate } from "./i18n.js";

const VARIANTS = ["standard", "nackgammon", "hypergammon", "dutch", "acey-deucey"];
const MINE = "tavola.seeks";

let panel = null;
let waiting = null;

function mine() {
  try {
    return JSON.parse(localStorage.getItem(MINE)) || {};
  } catch {
    return {};
  }
}

function keep(id, secret) {
  const all = mine();
  if (secret) all[id] = secret;
  else delete all[id];
  localStorage.setItem(MINE, JSON.stringify(all));
}

export function describeSeek(seek) {
  const parts = [seek.series === "match" ? t("table.match", { length: seek.length }) : t(`series.${seek.series}`), seek.variant];
  if (seek.rated) parts.push(t("seeks.rated"));
  if (seek.clock) parts.push(t("seeks.clock_of", { delay: seek.clock.delay, bank: seek.clock.bank }));
  return parts.join(" · ");
}

function field(label, control) {
  return element("label", { class: "field" }, element("span", { "data-i18n": label }), control);
}

function options(name, values, label) {
  return element("select", { name }, values.map((value) => element("option", { value }, label(value))));
}

function seekForm(account) {
  const form = element(
    "form",
    { id: "seek-form", onsubmit: (event) => {
      event.preventDefault();
      post(form, event.submitter?.value === "auto");
    } },
    account ? null : field("form.name", element("input", { name: "name", maxlength: 40, required: true, value: localStorage.getItem("tavola.name") || "" })),
    field("form.series", options("series", ["match", "single", "money"], (value) => t(`series.${value}`))),
    field("form.length", element("input", { type: "number", name: "match_length", value: 5, min: 1, max: 25 })),
    field("form.variant", options("variant", VARIANTS, (value) => value)),
    clockFields(),
    field("seeks.rated_label", element("input", { type: "checkbox", name: "rated", disabled: !account, title: account ? null : t("seeks.rated_login") })),
    element(
      "div",
      { class: "buttons" },
      element("button", { type: "submit", value: "post", id: "post-seek", "data-i18n": "seeks.post" }),
      element("button", { type: "submit", value: "auto", id: "play-now", class: "secondary", "data-i18n": "seeks.play_now" }),
    ),
  );
  const length = form.elements.match_length.closest("label");
  const series = form.elements.series;
  series.addEventListener("change", () => {
    length.hidden = series.value !== "match";
  });
  return form;
}

function showError(problem) {
  if (panel) panel.querySelector(".error").textContent = problem.message;
}

async function post(form, auto) {
  showError({ message: "" });
  const name = form.elements.name?.value.trim();
  if (name) localStorage.setItem("tavola.name", name);
  const body = {
    series: form.elements.series.value,
    length: Number(form.elements.match_length.value),
    variant: form.elements.variant.value,
    rated: form.elements.rated.checked,
    clock: clockOf(form),
    auto,
    name: name || null,
  };
  try {
    const { seek, secret } = await api("/api/seeks", { method: "POST", body });
    keep(seek.id, secret);
    wait(seek, secret);
  } catch (problem) {
    showError(problem);
  }
}

function goTo(seek) {
  holdSeat(seek.table, seek.seat, seek.token);
  keep(seek.id, null);
  waiting = null;
  location.assign(`/t/${seek.table}`);
}

// Wait for the seek to be accepted (or paired): the server holds each look up to 20 s, and the seek
// stays open as long as the page keeps looking.
async function wait(seek, secret) {
  const mineNow = { seek, secret };
  waiting = mineNow;
  showWaiting();
  while (waiting === mineNow) {
    if (seek.status === "accepted") {
      goTo(seek);
      return;
    }
    try {
      ({ seek } = await api(`/api/seeks/${seek.id}?wait=20`, { token: secret }));
      mineNow.seek = seek;
    } catch (problem) {
      if (waiting !== mineNow) return;
      if (problem instanceof ApiError && problem.status === 404) {
        keep(seek.id, null);
        waiting = null;
        showWaiting();
        showError({ message: t("seeks.ended") });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

async function withdraw(id, secret) {
  if (waiting && waiting.seek.id === id) waiting = null;
  try {
    await api(`/api/seeks/${id}`, { method: "DELETE", token: secret });
  } catch (problem) {
    if (!(problem instanceof ApiError && problem.status === 404)) showError(problem);
  }
  keep(id, null);
  showWaiting();
  refreshSeeks();
}

function showWaiting() {
  if (!panel) return;
  const line = panel.querySelector(".seek-waiting");
  if (!waiting) {
    line.replaceChildren();
    line.hidden = true;
    return;
  }
  const { seek, secret } = waiting;
  line.hidden = false;
  line.replaceChildren(
    element("span", {}, t(seek.auto ? "seeks.pairing" : "seeks.waiting", { game: describeSeek(seek) })),
    " ",
    element("button", { type: "button", class: "small", id: "withdraw-seek", onclick: () => withdraw(seek.id, secret) }, t("seeks.withdraw")),
  );
}

async function accept(seek) {
  showError({ message: "" });
  const name = panel?.querySelector("[name=name]")?.value.trim() || localStorage.getItem("tavola.name") || null;
  try {
    const taken = await api(`/api/seeks/${seek.id}/accept`, { method: "POST", body: { name } });
    holdSeat(taken.table, taken.seat, taken.token);
    location.assign(`/t/${taken.table}`);
  } catch (problem) {
    showError(problem);
    refreshSeeks();
  }
}

function seekRow(seek) {
  const secret = mine()[seek.id];
  const who = seek.rating === null ? seek.name : `${seek.name} (${Math.round(seek.rating)})`;
  const button = secret
    ? element("button", { type: "button", class: "small", onclick: () => withdraw(seek.id, secret) }, t("seeks.withdraw"))
    : element("button", { type: "button", class: "small accept-seek", onclick: () => accept(seek) }, t("seeks.accept"));
  return element("li", { dataset: { seek: seek.id } }, element("b", {}, who), ` · ${describeSeek(seek)} `, button);
}

// Read the open seeks again (the lobby calls it every few seconds).
export async function refreshSeeks() {
  if (!panel) return;
  const list = panel.querySelector(".seeks");
  try {
    const { seeks } = await api("/api/seeks");
    list.replaceChildren(...(seeks.length ? seeks.map(seekRow) : [element("li", { class: "none" }, t("seeks.none"))]));
  } catch (problem) {
    list.replaceChildren(element("li", { class: "error" }, problem.message));
  }
}

// The lobby's play-now panel: the form, the seek this page waits on, the open seeks.
export function seeksPanel() {
  panel = element(
    "div",
    { class: "panel", id: "seeks" },
    element("h2", { "data-i18n": "seeks.title" }),
    element("p", { class: "seek-waiting", hidden: true }),
    element("ul", { class: "seeks tables" }),
    element("details", { class: "seek-new" }, element("summary", { "data-i18n": "seeks.new" })),
    element("p", { class: "error" }),
  );
  const holder = panel;
  currentAccount().then((account) => {
    if (holder !== panel) return;
    holder.querySelector(".seek-new").append(seekForm(account));
    translate(holder);
  });
  showWaiting();
  if (!waiting) {
    const [pending] = Object.entries(mine());
    if (pending) {
      const [id, secret] = pending;
      api(`/api/seeks/${id}`, { token: secret })
        .then(({ seek }) => wait(seek, secret))
        .catch(() => keep(id, null));
    }
  }
  refreshSeeks();
  return panel;
}
