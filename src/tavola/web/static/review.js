// The analysis to step through: "/analysis" (a form to upload a record), "/analysis/{job}" (an
// analysis made or being made) and "/t/{table}/analysis" (a finished table's). The server analyses
// (POST /api/analyses, POST /api/tables/{id}/analyses) and this page follows the job (GET
// /api/analyses/{id}) with a progress bar, then shows every decision on the board (drawn by board.js),
// the bot's candidates or the cube's choices, the chart, each player's figures and the errors to jump
// between. It judges nothing itself: every number is the analysis's.

import { ApiError, api, element } from "./api.js";
import { boardSvg, COLOURS } from "./board.js";
import { language, t, translate } from "./i18n.js";

const POLL_MS = 400;
const LEVELS = ["0-ply", "1-ply", "2-ply"];
const MARKS = { doubtful: "?!", bad: "?", "very bad": "??" };
const CHART = { width: 600, height: 150, top: 14, bottom: 6 };

// The words for a key of `review.{group}.{value}`, or the value itself where there are none.
function said(group, value) {
  const key = `review.${group}.${value.replaceAll(" ", "_").replaceAll(",", "")}`;
  const found = t(key);
  return found === key ? value : found;
}

function signed(value, digits = 3) {
  return `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(digits)}`;
}

function percent(value) {
  return `${(100 * value).toFixed(1)}%`;
}

export class ReviewPage {
  // `job`: the analysis to follow; `table`: a finished table to analyse; neither: the upload form.
  constructor(root, { job = null, table = null } = {}) {
    this.root = root;
    this.job = job;
    this.table = table;
    this.level = new URLSearchParams(location.search).get("level");
    this.answer = null;
    this.error = "";
    this.at = 0;
    this.timer = null;
    this.keys = (event) => this.keyed(event);
  }

  async start() {
    document.addEventListener("keydown", this.keys);
    if (this.table) {
      try {
        const level = this.level ? `?level=${encodeURIComponent(this.level)}` : "";
        this.job = (await api(`/api/tables/${this.table}/analyses${level}`, { method: "POST" })).id;
      } catch (failure) {
        this.error = failure.message;
      }
    }
    if (this.job) await this.follow();
    else this.render();
  }

  // Ask for the job until it is made (or failed), showing its progress meanwhile.
  async follow() {
    clearTimeout(this.timer);
    try {
      this.answer = await api(`/api/analyses/${this.job}`);
    } catch (failure) {
      this.error = failure instanceof ApiError ? failure.message : String(failure);
      this.answer = null;
    }
    if (this.answer && this.answer.status === "done") this.made();
    this.render();
    if (this.answer && this.answer.status === "running") this.timer = setTimeout(() => this.follow(), POLL_MS);
  }

  made() {
    const analysis = this.answer.analysis;
    this.decisions = analysis.decisions;
    this.errors = this.decisions.flatMap((decision, index) => (decision.skill === "none" ? [] : [index]));
    this.names = analysis.players.map((player) => player.name);
    this.values = [];
    for (const game of analysis.games) this.values.push(...game.trace);
  }

  relanguage() {
    this.render();
  }

  // --- drawing ------------------------------------------------------------------------------------

  render() {
    this.root.replaceChildren();
    this.root.dataset.status = this.answer ? this.answer.status : this.job ? "missing" : "upload";
    const done = this.answer && this.answer.status === "done";
    if (!done) {
      this.root.append(
        element(
          "section",
          { class: "review-start" },
          element("h1", {}, t("review.title")),
          this.progress(),
          this.error || this.answer?.error ? element("p", { class: "error", role: "alert" }, this.error || t("review.failed", { error: this.answer.error })) : null,
          this.uploadForm(),
        ),
      );
      translate(this.root);
      return;
    }
    const layout = element(
      "div",
      { class: "table-layout review" },
      element(
        "section",
        { class: "play", "aria-labelledby": "review-title" },
        this.headline(),
        element("div", { id: "board", class: "board-box" }),
        element("p", { id: "review-caption", class: "review-caption", "aria-live": "polite" }),
        this.navigation(),
        element("div", { id: "review-decision", class: "panel review-decision" }),
        element("div", { id: "review-chart", class: "panel" }),
      ),
      element(
        "aside",
        { class: "side", "aria-label": t("review.side") },
        this.sheet(),
        this.figures(),
        this.uploadForm(),
      ),
    );
    this.root.append(layout);
    translate(this.root);
    this.show(this.at);
  }

  progress() {
    if (!this.answer || this.answer.status !== "running") return null;
    const { done, total } = this.answer;
    const words = total ? t("review.progress", { done, total }) : t("review.waiting");
    return element(
      "div",
      { class: "review-progress" },
      element("progress", { id: "review-progress", max: total || 1, value: done, "aria-label": words }),
      element("p", { role: "status" }, words),
    );
  }

  uploadForm() {
    const levels = element("select", { name: "level", id: "upload-level" }, ...LEVELS.map((level) => element("option", { value: level }, level)));
    levels.value = this.level && LEVELS.includes(this.level) ? this.level : "1-ply";
    const form = element(
      "form",
      { id: "upload", class: "panel upload", onsubmit: (event) => this.upload(event) },
      element("h2", { "data-i18n": "review.upload.title" }),
      element("p", { class: "small-print", "data-i18n": "review.upload.what" }),
      element("div", { class: "field" }, element("label", { for: "upload-file", "data-i18n": "review.upload.file" }), element("input", { type: "file", id: "upload-file", name: "file", accept: ".mat,.sgf,.json", required: true })),
      element("div", { class: "field" }, element("label", { for: "upload-level", "data-i18n": "review.upload.level" }), levels),
      element("button", { type: "submit", "data-i18n": "review.upload.submit" }),
      element("p", { id: "upload-error", class: "error", role: "alert" }),
    );
    return form;
  }

  async upload(event) {
    event.preventDefault();
    const form = event.target;
    const file = form.querySelector("#upload-file").files[0];
    if (!file) return;
    const level = form.querySelector("#upload-level").value;
    const query = new URLSearchParams({ name: file.name, level, lang: language() });
    const refused = form.querySelector("#upload-error");
    let response;
    try {
      response = await fetch(`/api/analyses?${query}`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: file });
    } catch (failure) {
      refused.textContent = String(failure);
      return;
    }
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      refused.textContent = data.error || response.statusText;
      return;
    }
    location.assign(`${data.page}?level=${encodeURIComponent(level)}`);
  }

  headline() {
    const analysis = this.answer.analysis;
    const kind = analysis.length ? t("review.match", { length: analysis.length }) : t("review.money");
    const report = `/api/analyses/${this.job}/report.html?lang=${language()}`;
    return element(
      "div",
      { class: "table-head" },
      element("h1", { id: "review-title" }, `${this.names[0]} – ${this.names[1]}`),
      element("span", { class: "status" }, `${kind} · ${analysis.level}`),
      element("a", { class: "score", id: "review-report", href: report, download: "analysis.html", "data-i18n": "review.report" }),
    );
  }

  navigation() {
    const button = (id, key, step) => element("button", { type: "button", id, class: "small", "data-i18n": key, onclick: () => this.show(step()) });
    return element(
      "div",
      { class: "buttons review-nav" },
      button("review-first", "review.first", () => 0),
      button("review-back", "review.back", () => this.at - 1),
      button("review-forward", "review.forward", () => this.at + 1),
      button("review-last", "review.last", () => this.decisions.length - 1),
      button("review-previous-error", "review.previous_error", () => this.errorFrom(-1)),
      button("review-next-error", "review.next_error", () => this.errorFrom(1)),
    );
  }

  // The index of the nearest error before (-1) or after (+1) the decision shown; the same one if none.
  errorFrom(direction) {
    const found = direction > 0 ? this.errors.find((index) => index > this.at) : this.errors.findLast((index) => index < this.at);
    return found === undefined ? this.at : found;
  }

  keyed(event) {
    if (!this.decisions || event.target.closest?.("input, select, textarea")) return;
    const steps = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.decisions.length - 1 };
    if (!(event.key in steps) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    this.show(steps[event.key]);
  }

  // Show decision `index`: the board, the caption, the decision's table, the chart's mark, the sheet's.
  show(index) {
    if (!this.decisions || !this.decisions.length) return;
    this.at = Math.max(0, Math.min(this.decisions.length - 1, index));
    this.root.dataset.at = this.at;
    const decision = this.decisions[this.at];
    const view = this.boardView(decision);
    const holder = this.root.querySelector("#board");
    holder.innerHTML = boardSvg(view);
    holder.querySelector("svg").setAttribute(
      "aria-label",
      `${t("board.title")}: ${view.names[0]} ${view.pips[0]}, ${view.names[1]} ${view.pips[1]} · ${decision.position_id || decision.position}`,
    );
    this.root.querySelector("#review-caption").textContent = this.caption(decision);
    this.root.querySelector("#review-decision").replaceChildren(...(decision.kind === "move" ? this.candidates(decision) : this.cubeTable(decision)));
    this.root.querySelector("#review-chart").replaceChildren(...this.chart());
    for (const item of this.root.querySelectorAll(".review-moves button[aria-current]")) item.removeAttribute("aria-current");
    const current = this.root.querySelector(`.review-moves button[data-at="${this.at}"]`);
    if (current) {
      current.setAttribute("aria-current", "step");
      this.inSight(current);
    }
    this.root.querySelector("#review-back").disabled = this.at === 0;
    this.root.querySelector("#review-forward").disabled = this.at === this.decisions.length - 1;
    this.root.querySelector("#review-previous-error").disabled = this.errorFrom(-1) === this.at;
    this.root.querySelector("#review-next-error").disabled = this.errorFrom(1) === this.at;
  }

  // Scroll the sheet (not the window: the board stays where it is) to show its `button`.
  inSight(button) {
    const box = button.closest(".review-moves-scroll");
    const [inner, outer] = [button.getBoundingClientRect(), box.getBoundingClientRect()];
    if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top;
    else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom;
  }

  boardView(decision) {
    const board = decision.board;
    const near = decision.player === 0;
    const cube = decision.offer
      ? { value: decision.offer.value, at: near ? "far" : "near" } // offered by the other side
      : { value: decision.cube.value, at: decision.cube.owner === null ? "center" : decision.cube.owner === 0 ? "near" : "far" };
    return {
      board: board.points,
      bar: board.bar,
      off: board.off,
      waiting: board.waiting,
      pips: board.pips,
      names: this.names,
      home: "right",
      colours: COLOURS.slice(),
      dice: decision.dice,
      diceSide: near ? "near" : "far",
      cube,
    };
  }

  // What a decision did, as the sheet writes it: "31: 8/5 6/5", "Double, take".
  choiceText(decision) {
    if (decision.kind === "cube") return said("choice", decision.played);
    const play = decision.played || t("action.no_move");
    return `${decision.dice.join("")}: ${play}`;
  }

  caption(decision) {
    const parts = [t("game.number", { number: decision.game }), t("review.move", { number: decision.move }), `${this.names[decision.player]}: ${this.choiceText(decision)}`];
    if (decision.skill !== "none") parts.push(`${said("skill", decision.skill)} (${signed(-decision.equity_loss)})`);
    if (decision.forced) parts.push(t("review.forced"));
    if (decision.luck_class !== "none") parts.push(`${said("luck_class", decision.luck_class)} (${signed(decision.luck)})`);
    return parts.join(" · ");
  }

  candidates(decision) {
    const best = decision.alternatives[0];
    const head = ["review.rank", "review.play", "review.equity", "review.loss", "review.win", "review.win_gammon", "review.win_backgammon", "review.lose_gammon", "review.lose_backgammon"];
    const rows = decision.alternatives.map((alternative, rank) => {
      const chances = alternative.probabilities || [];
      const played = alternative.text === decision.played;
      return element(
        "tr",
        { class: played ? "played" : "" },
        element("td", {}, String(rank + 1)),
        element("th", { scope: "row" }, alternative.text || t("action.no_move"), played ? element("span", { class: "tag" }, ` ${t("review.played")}`) : null),
        element("td", { class: "equity" }, this.equity(alternative)),
        element("td", { class: "loss" }, rank === 0 ? "" : signed(alternative.equity - best.equity)),
        ...chances.map((chance) => element("td", { class: "equity" }, percent(chance))),
      );
    });
    return [
      element("h2", { id: "candidates-title" }, t("review.candidates")),
      element("div", { class: "scroll", role: "region", tabindex: 0, "aria-labelledby": "candidates-title" }, element("table", { class: "review-table", id: "candidates" }, element("thead", {}, element("tr", {}, ...head.map((key) => element("th", { scope: "col" }, t(key))))), element("tbody", {}, ...rows))),
      element("p", { class: "small-print" }, t("review.equity_note")),
    ];
  }

  cubeTable(decision) {
    const best = decision.alternatives[0];
    const rows = decision.alternatives.map((alternative, rank) => {
      const played = alternative.text === decision.played;
      const tags = [
        played ? element("span", { class: "tag" }, ` ${t("review.played")}`) : null,
        rank === 0 ? element("span", { class: "tag right" }, ` ${t("review.right")}`) : null,
        alternative.reference ? element("span", { class: "tag" }, ` ${t("review.reference")}`) : null,
      ];
      return element(
        "tr",
        { class: `${played ? "played" : ""} ${alternative.reference ? "reference" : ""}`.trim() },
        element("th", { scope: "row" }, said("choice", alternative.text), ...tags),
        element("td", { class: "equity" }, this.equity(alternative)),
        element("td", { class: "loss" }, rank === 0 || alternative.reference ? "" : signed(alternative.equity - best.equity)),
      );
    });
    return [
      element("h2", {}, t("review.cube")),
      element("p", {}, t("review.right_action", { action: said("choice", decision.best) }), decision.cube_error ? ` · ${said("cube_error", decision.cube_error)}` : ""),
      element("table", { class: "review-table", id: "cube-table" }, element("thead", {}, element("tr", {}, ...["review.action", "review.equity", "review.loss"].map((key) => element("th", { scope: "col" }, t(key))))), element("tbody", {}, ...rows)),
      element("p", { class: "small-print" }, t("review.equity_note")),
    ];
  }

  equity(alternative) {
    const equity = signed(alternative.equity);
    return alternative.mwc === null || alternative.mwc === undefined ? equity : `${equity} (${percent(alternative.mwc)})`;
  }

  // --- the chart: player 0's match winning chances (a match) or equity (money) before each decision --

  chart() {
    const match = this.answer.analysis.length > 0;
    const values = this.values;
    const count = Math.max(values.length, 2);
    const reach = match ? 1 : Math.min(3, Math.max(1, ...values.map((value) => Math.abs(value))));
    const x = (index) => (CHART.width * (index + 0.5)) / count;
    const y = (value) => {
      const share = match ? 1 - value : (reach - Math.max(-reach, Math.min(reach, value))) / (2 * reach);
      return CHART.top + share * (CHART.height - CHART.top - CHART.bottom);
    };
    const parts = [`<rect width="${CHART.width}" height="${CHART.height}" fill="#fffdf5"/>`];
    parts.push(`<line x1="0" x2="${CHART.width}" y1="${y(match ? 0.5 : 0)}" y2="${y(match ? 0.5 : 0)}" stroke="#8a7a5c" stroke-dasharray="3 3"/>`);
    let index = 0;
    for (const game of this.answer.analysis.games) {
      if (index > 0) parts.push(`<line x1="${x(index - 0.5)}" x2="${x(index - 0.5)}" y1="0" y2="${CHART.height}" stroke="#8a7a5c" stroke-dasharray="2 4"/>`);
      parts.push(`<text x="${x(index) + 2}" y="10" font-size="10" fill="#333333">${game.number}</text>`);
      const points = game.trace.map((value, step) => `${x(index + step).toFixed(1)},${y(value).toFixed(1)}`);
      if (points.length) parts.push(`<polyline points="${points.join(" ")}" fill="none" stroke="#2f6b45" stroke-width="1.5"/>`);
      index += game.trace.length;
    }
    for (const at of this.errors) {
      const decision = this.decisions[at];
      const [cx, cy] = [x(at), y(values[at])];
      const fill = { doubtful: "#c9a227", bad: "#d2691e", "very bad": "#b5432f" }[decision.skill];
      const title = `<title>${this.escape(this.caption(decision))}</title>`;
      parts.push(
        decision.player === 0
          ? `<circle class="mark" data-at="${at}" cx="${cx}" cy="${cy}" r="4" fill="${fill}" stroke="#000">${title}</circle>`
          : `<rect class="mark" data-at="${at}" x="${cx - 3.5}" y="${cy - 3.5}" width="7" height="7" transform="rotate(45 ${cx} ${cy})" fill="${fill}" stroke="#000">${title}</rect>`,
      );
    }
    parts.push(`<line class="now" x1="${x(this.at)}" x2="${x(this.at)}" y1="0" y2="${CHART.height}" stroke="#000" stroke-width="1"/>`);
    const label = t(match ? "review.chart_match" : "review.chart_money", { name: this.names[0] });
    const holder = element("div", { class: "review-chart-box" });
    holder.innerHTML = `<svg id="chart" viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-label="${this.escape(label)}" font-family="sans-serif">${parts.join("")}</svg>`;
    holder.querySelector("svg").addEventListener("click", (event) => {
      const mark = event.target.closest(".mark");
      if (mark) return this.show(Number(mark.dataset.at));
      const box = event.currentTarget.getBoundingClientRect();
      this.show(Math.floor(((event.clientX - box.left) / box.width) * count));
    });
    return [element("h2", {}, t("review.chart")), element("p", { class: "small-print" }, label), holder];
  }

  escape(text) {
    return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  }

  // --- the side: the score sheet and the figures ------------------------------------------------------

  sheet() {
    const games = new Map();
    this.decisions.forEach((decision, index) => {
      if (!games.has(decision.game)) games.set(decision.game, new Map());
      const rows = games.get(decision.game);
      const row = Math.ceil(decision.move / 2);
      if (!rows.has(row)) rows.set(row, [[], []]);
      rows.get(row)[decision.player].push(element("button", this.sheetButton(decision, index), this.choiceText(decision), decision.skill !== "none" ? ` ${MARKS[decision.skill]}` : ""));
    });
    const won = (number) => {
      const game = this.answer.analysis.games[number - 1];
      if (!game || game.winner === null) return null;
      return element("p", { class: "small-print" }, t("review.game_won", { name: this.names[game.winner], count: game.points }));
    };
    const tables = [...games].flatMap(([number, rows]) => [
      element(
        "table",
        { class: "review-moves" },
        element("caption", {}, t("game.number", { number })),
        element("thead", {}, element("tr", {}, element("th", { scope: "col" }, "#"), ...this.names.map((name) => element("th", { scope: "col" }, name)))),
        element("tbody", {}, ...[...rows].map(([row, cells]) => element("tr", {}, element("th", { scope: "row" }, String(row)), ...cells.map((buttons) => element("td", {}, ...buttons))))),
      ),
      won(number),
    ]);
    return element("section", { class: "panel review-sheet", "aria-labelledby": "sheet-title" }, element("h2", { id: "sheet-title" }, t("review.sheet")), element("div", { class: "review-moves-scroll" }, ...tables));
  }

  sheetButton(decision, index) {
    const label = decision.skill === "none" ? null : `${this.choiceText(decision)}, ${said("skill", decision.skill)}`;
    return { type: "button", class: `step ${decision.skill.replace(" ", "-")}`, "data-at": index, "aria-label": label, onclick: () => this.show(index) };
  }

  figures() {
    const players = this.answer.analysis.players;
    const match = this.answer.analysis.length > 0;
    const errors = (counts) => `${counts.doubtful} / ${counts.bad} / ${counts["very bad"]}`;
    const result = (value) => (match ? signed(100 * value, 1) + "%" : signed(value, 2));
    const rows = [
      ["review.error_rate", (p) => p.error_rate_memg.toFixed(1)],
      ["review.pr", (p) => p.pr.toFixed(2)],
      ["review.rating", (p) => said("rating", p.rating)],
      ["review.moves_count", (p) => `${p.moves} (${p.unforced_moves})`],
      ["review.cube_count", (p) => String(p.cube_decisions)],
      ["review.checker_errors", (p) => errors(p.move_errors)],
      ["review.cube_errors", (p) => errors(p.cube_errors_by_skill)],
      ["review.luck_per_move", (p) => signed(1000 * p.luck_per_move, 1)],
      ["review.luck", (p) => signed(p.luck, 3)],
      ["review.result", (p) => result(p.result)],
      ["review.adjusted", (p) => result(p.luck_adjusted_result)],
    ];
    return element(
      "section",
      { class: "panel review-figures", "aria-labelledby": "figures-title" },
      element("h2", { id: "figures-title" }, t("review.figures")),
      element(
        "table",
        { class: "review-table", id: "figures" },
        element("thead", {}, element("tr", {}, element("td", {}), ...players.map((player) => element("th", { scope: "col" }, player.name)))),
        element("tbody", {}, ...rows.map(([key, value]) => element("tr", {}, element("th", { scope: "row" }, t(key)), ...players.map((player) => element("td", {}, value(player)))))),
      ),
    );
  }
}
