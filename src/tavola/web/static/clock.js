// The clocks of a table with a time control: both players' banks beside their names, the running one
// counting down by itself between the server's states (no polling), its delay shown apart; the lobby's
// choice of a time control; what a forfeit says. The server keeps the time: the page only shows the
// state's `clock` ({delay, left, banks, running, since, now, paused, paused_at}), told from the server's
// clock by the difference between the two seen when the state came. Stopped clocks (a tournament paused)
// stand still as they were at `paused_at`, marked paused, and count nothing down.

import { element } from "./api.js";
import { t } from "./i18n.js";

// The time controls the lobby offers: none, a usual one, or the player's own.
export const TIME_CONTROLS = { none: null, usual: { delay: 12, bank: 60 }, custom: null };

let shown = null; // {clock, seats, forfeit, offset}: the clocks on the page now
let ticking = null;

// The clocks of `state` as a bar, `side`'s player (the viewer's) last; null for a table without.
export function clockBar(state, side = 0) {
  const clock = state.clock;
  if (!clock) {
    shown = null;
    return null;
  }
  if (!shown || shown.clock.now !== clock.now || shown.clock.since !== clock.since) {
    shown = { clock, offset: Date.now() / 1000 - clock.now };
  }
  shown.seats = state.seats;
  shown.forfeit = state.forfeit;
  const order = side === 1 ? [0, 1] : [1, 0];
  const bar = element(
    "div",
    { class: "clocks", id: "clocks" },
    order.map((seat) =>
      element(
        "span",
        { class: "clock", id: `clock-${seat}`, dataset: { seat }, title: t("clock.label", { name: state.seats[seat]?.name || "?" }) },
        element("span", { class: "clock-name" }, state.seats[seat]?.name || "?"),
        " ",
        element("span", { class: "clock-bank" }),
        " ",
        element("span", { class: "clock-delay" }),
        " ",
        element("span", { class: "clock-paused" }),
      ),
    ),
  );
  paint(bar);
  if (!ticking) ticking = setInterval(tick, 100);
  return bar;
}

// What the running clock shows `elapsed` seconds into its turn: the delay left, then the bank.
export function timeLeft(clock, seat, elapsed) {
  if (clock.running !== seat || clock.since === null) return { bank: clock.left[seat], delay: null };
  return {
    bank: Math.max(0, clock.banks[seat] - Math.max(0, elapsed - clock.delay)),
    delay: Math.max(0, clock.delay - elapsed),
  };
}

// Seconds as a clock shows them: 1:05, 1:02:09, and tenths under ten seconds (0:07.4).
export function clockText(seconds) {
  const whole = Math.floor(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${rest}`;
  if (seconds < 10) return `0:0${(Math.floor(seconds * 10) / 10).toFixed(1)}`;
  return `${minutes}:${rest}`;
}

function paint(root) {
  if (!shown) return;
  const { clock, offset, forfeit } = shown;
  const at = clock.paused ? clock.paused_at : Date.now() / 1000 - offset; // stopped: the time stands still
  const elapsed = clock.since === null ? 0 : at - clock.since;
  for (const box of root.querySelectorAll(".clock[data-seat]")) {
    const seat = Number(box.dataset.seat);
    const left = timeLeft(clock, seat, elapsed);
    const out = forfeit && forfeit.reason === "time" && forfeit.seat === seat;
    box.classList.toggle("running", clock.running === seat && !out && !clock.paused);
    box.classList.toggle("paused", Boolean(clock.paused));
    box.classList.toggle("low", left.bank < 10);
    box.classList.toggle("out", Boolean(out));
    box.dataset.left = left.bank.toFixed(1);
    box.querySelector(".clock-bank").textContent = out ? t("clock.out") : clockText(left.bank);
    const delay = box.querySelector(".clock-delay");
    delay.textContent = left.delay ? t("clock.delay", { seconds: Math.ceil(left.delay) }) : "";
    delay.hidden = !left.delay;
    const paused = box.querySelector(".clock-paused");
    paused.textContent = clock.paused ? t("clock.paused") : "";
    paused.hidden = !clock.paused;
  }
}

function tick() {
  const bar = document.getElementById("clocks");
  if (!bar || !shown) {
    clearInterval(ticking);
    ticking = null;
    return;
  }
  paint(bar);
}

// A table's time control in a few words, after a separator ("" without one): " · 12 s + 1:00 a point".
export function clockLabel(options) {
  const clock = options?.clock;
  if (!clock) return "";
  const key = options.series === "match" ? "clock.control_point" : "clock.control_game";
  const bank = clock.bank < 60 ? `${clock.bank} s` : clockText(clock.bank);
  return ` · ${t(key, { delay: clock.delay, bank })}`;
}

// What a forfeit says: "Ann lost on time", "Ann did not come", "Ann left the table".
export function forfeitText(state) {
  const forfeit = state.forfeit;
  if (!forfeit) return "";
  return t(`forfeit.${forfeit.reason}`, { name: state.seats[forfeit.seat]?.name || "?" });
}

// The lobby's choice of a time control: none, the usual one, or a delay and a bank of one's own.
export function clockFields() {
  const chosen = element(
    "select",
    { name: "clock" },
    Object.keys(TIME_CONTROLS).map((value) => element("option", { value }, t(`clock.${value}`))),
  );
  const delay = element("input", { type: "number", name: "clock_delay", value: 12, min: 0, max: 600 });
  const bank = element("input", { type: "number", name: "clock_bank", value: 60, min: 1, max: 3600 });
  const own = element(
    "span",
    { class: "clock-own" },
    element("label", { class: "field" }, element("span", { "data-i18n": "form.clock_delay" }), delay),
    element("label", { class: "field" }, element("span", { "data-i18n": "form.clock_bank" }), bank),
  );
  const showOwn = () => {
    own.hidden = chosen.value !== "custom";
  };
  chosen.addEventListener("change", showOwn);
  showOwn();
  return element("div", { class: "clock-choice" }, element("label", { class: "field" }, element("span", { "data-i18n": "form.clock" }), chosen), own);
}

// The time control a lobby's form asks for: null for none, else {delay, bank}.
export function clockOf(form) {
  const chosen = form.elements.clock?.value || "none";
  if (chosen === "custom") return { delay: Number(form.elements.clock_delay.value), bank: Number(form.elements.clock_bank.value) };
  return TIME_CONTROLS[chosen];
}
