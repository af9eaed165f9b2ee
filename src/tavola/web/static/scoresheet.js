// The score sheet of a two-player table: each game's plays and cube actions as players write them, in
// two columns like a .mat file (player 0 on the left, player 1 on the right, a row a move), the game's
// result and the score, read from the paged record (GET /api/tables/{id}/record) as play goes on. A
// move of the sheet is a button: the page shows the board after it. The record's dice also give the
// game log's lines read back from the log route the dice they lack (withDice).

import { api, element } from "./api.js";
import { t } from "./i18n.js";

const PAGE = 20; // games a page of the record holds at most

export class ScoreSheet {
  constructor(tableId) {
    this.tableId = tableId;
    this.header = null;
    this.games = []; // the record's games as far as the sheet knows them
    this.loading = null;
    this.stale = false; // asked again while a reading was under way: read once more after it
  }

  // Read the record again from the last game known (the one still being played) on.
  refresh() {
    if (this.loading) {
      this.stale = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        let start = Math.max(0, this.games.length - 1);
        for (;;) {
          const page = await api(`/api/tables/${this.tableId}/record?start=${start}&limit=${PAGE}`);
          this.header = page.header;
          this.games.splice(page.start, page.games.length, ...page.games);
          start = page.start + page.games.length;
          if (!page.games.length || start >= page.total) break;
        }
      } finally {
        this.loading = null;
      }
      if (this.stale) {
        this.stale = false;
        await this.refresh();
      }
    })();
    return this.loading;
  }

  // Every move of the sheet in order: {game, at, player, text, dice}, `at` its entry in the game's log.
  moves() {
    return this.games.flatMap((game, number) => cells(game.log).map((cell) => ({ ...cell, game: number })));
  }

  // The sheet: a block per game, its heading, the score before it, its rows and its result; the match's
  // score at the end. `chosen` is the move shown on the board ({game, at}), `pick(move)` shows one.
  panel(names, chosen, pick) {
    if (!this.header) return element("p", { class: "small-print" }, "…");
    const blocks = [];
    const score = [0, 0];
    this.games.forEach((game, number) => {
      const rows = [];
      for (const cell of cells(game.log)) {
        const last = rows[rows.length - 1];
        // a new row for player 0's move, or for player 1's where the row's right is written
        if (!last || last[cell.player] || (cell.player === 0 && last[1])) rows.push([null, null]);
        rows[rows.length - 1][cell.player] = { ...cell, game: number };
      }
      const button = (cell) => {
        if (!cell) return element("td", {});
        const shown = chosen && chosen.game === cell.game && chosen.at === cell.at;
        const label = cell.dice ? `${cell.dice.join("")}: ${cell.text}` : cell.text;
        return element(
          "td",
          {},
          element("button", { class: `sheet-move${shown ? " shown" : ""}`, dataset: { game: cell.game, at: cell.at }, "aria-pressed": shown ? "true" : "false", onclick: () => pick(cell) }, label),
        );
      };
      const body = rows.map((row, index) => element("tr", {}, element("th", { scope: "row" }, `${index + 1})`), button(row[0]), button(row[1])));
      const outcome = game.outcome;
      blocks.push(
        element(
          "section",
          { class: "sheet-game", dataset: { game: number } },
          element("h3", {}, t("game.number", { number: number + 1 }), game.crawford ? ` · ${t("game.crawford")}` : ""),
          element("p", { class: "small-print sheet-score" }, `${names[0]} ${score[0]} · ${names[1]} ${score[1]}`),
          element(
            "table",
            { class: "sheet" },
            element("thead", {}, element("tr", {}, element("th", {}), element("th", { scope: "col" }, names[0]), element("th", { scope: "col" }, names[1]))),
            element("tbody", {}, body),
          ),
          outcome ? element("p", { class: "sheet-result" }, t("turn.outcome", { name: names[outcome.winner], kind: t(`win.${outcome.kind}`), points: outcome.points, count: outcome.points })) : null,
        ),
      );
      if (outcome) score[outcome.winner] += outcome.points;
    });
    const final = this.header.score;
    const length = this.header.type === "match" ? ` (${t("table.match", { length: this.header.length })})` : "";
    blocks.push(element("p", { class: "sheet-total", id: "sheet-total" }, `${t("sheet.score")}: ${names[0]} ${final[0]} · ${names[1]} ${final[1]}${length}`));
    return element("div", { class: "sheet-games" }, blocks);
  }
}

// A game's log as the sheet's moves: {at, player, text, dice}. A roll is written with its play ("64:
// 24/18 13/9"); a roll not yet played shows alone; an opening roll of doubles, rolled again, is left out.
export function cells(log) {
  const written = [];
  let dice = null;
  log.forEach((entry, at) => {
    const word = (key, params) => written.push({ at, player: entry.player, text: t(key, params), dice: null });
    switch (entry.action) {
      case "opening_roll":
      case "roll":
        dice = [...entry.dice].sort((a, b) => b - a);
        if (at === log.length - 1 && entry.action === "roll") written.push({ at, player: entry.player, text: "", dice });
        break;
      case "play":
        written.push({ at, player: entry.player, text: entry.play || t("sheet.no_move"), dice });
        dice = null;
        break;
      case "choose_double":
        word("sheet.choose_double", { number: entry.number });
        break;
      case "resign":
        word("sheet.resign", { kind: t(`stake.${entry.kind}`) });
        break;
      default:
        word(`sheet.${entry.action}`);
    }
  });
  return written;
}

// The table's log with the dice of each roll, where the record holds them, and whether it was the
// game's opening roll: the k-th roll of a game in the log is the k-th roll of that game in the record
// (the log's games are parted by start_game).
export function withDice(log, games) {
  const rollsOf = games.map((recorded) => recorded.log.filter((item) => item.action === "roll" || item.action === "opening_roll"));
  let game = 0;
  let rolls = 0;
  return log.map((entry) => {
    if (entry.action === "start_game") {
      game += 1;
      rolls = 0;
      return entry;
    }
    if (entry.action !== "roll") return entry;
    const rolled = rollsOf[game]?.[rolls];
    rolls += 1;
    if (entry.dice || !rolled) return entry;
    return { ...entry, dice: [...rolled.dice].sort((a, b) => b - a), opening: rolled.action === "opening_roll" };
  });
}
