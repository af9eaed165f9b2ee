// A table: the board from the viewer's side, the largest thing on the screen, with the score, whose
// turn it is, what was just done and what the viewer may do (exactly the server's legal actions) next
// to it; the hint, the game's log, the legal plays, the players, chat, the dice check and the records
// in a side column (below the board on a phone). The WebSocket brings every state with the actions
// done since the last one, which the page tells (a message, the log, and a live region for screen
// readers); when it closes, the page connects again with growing pauses and says hello again. A
// finished table shows its result, a rematch with the same options and the way back to the lobby.
// Checkers move by a click on a checker and one on its place, by dragging them, or by typing the play
// ("24/18 13/10", read by the server); every play slides on the board, with sounds if the player
// wants them. The score sheet shows the match as it goes, and any move of it on the board.

import { api, element, heldSeat, liveUrl, sitDown } from "./api.js";
import { currentAccount } from "./account.js";
import { reducedMotion, slide, slides, tumble } from "./animate.js";
import { boardSvg, COLOURS } from "./board.js";
import { clockBar, clockLabel, forfeitText } from "./clock.js";
import { allowDrag } from "./drag.js";
import { language, t, translate } from "./i18n.js";
import { movesByPlace } from "./moves.js";
import { isCheckerAction, sentences } from "./narration.js";
import { ScoreSheet, withDice } from "./scoresheet.js";
import * as sounds from "./sounds.js";

const LOG_PAGE = 500; // entries a GET of the log brings at most

const PREFERENCES = "tavola.board";

const ANALYSIS_POLL = 700; // milliseconds between two looks at an analysis being made
const SLIDES_AT_MOST = 3000; // milliseconds a state waits at most for the slides before it
const ANALYSED = "tavola.analysed";
const ANALYSED_KEPT = 50; // tables remembered as analysed

export class TablePage {
  constructor(root, tableId, invitedSeat) {
    this.root = root;
    this.tableId = tableId;
    this.invitedSeat = invitedSeat;
    this.state = null;
    this.selected = null;
    this.hint = null;
    this.chat = [];
    this.error = "";
    this.socket = null;
    this.retries = 0;
    this.closed = false;
    this.verifiedDice = null;
    this.sheetRead = Promise.resolve(); // the score sheet's first reading of the record
    this.preferences = readPreferences();
    this.log = []; // the table's log as far as the page knows it, each entry with `at`, its place
    this.logLoading = null;
    this.outcomes = []; // {at, outcome, game}: each game's end as the page saw it, after log entry `at`
    this.announcement = "";
    this.playsOpen = false;
    this.rematching = false;
    this.sheet = new ScoreSheet(tableId);
    this.sheetOpen = window.innerWidth > 900; // the score sheet, open beside the board, folded below it
    this.viewing = null; // a move of the score sheet shown on the board instead of the game
    this.drawn = null; // the board last drawn: {view, game}, where the next play slides from
    this.dropped = null; // the move a drag just made ({from, to}): its checker is already there
    this.typedSent = false; // a typed play went to the server: its field empties when the state moves
    this.clearTyped = false;
    this.positions = new Map(); // the positions of each game read (GET .../positions), by game
    this.animated = 0; // plays slid on the board
    this.sliding = Promise.resolve(); // the end of the slides on the board
    this.queue = Promise.resolve(); // the states heard, drawn one after the other's slides
    this.analysis = null; // the finished table's analysis asked for: {status, done, total, players, page}
    this.account = null; // the account logged in, whose seat here may be taken up from this device
  }

  get held() {
    return heldSeat(this.tableId);
  }

  async start() {
    try {
      this.accept(await api(`/api/tables/${this.tableId}`, { token: this.held?.token }));
    } catch (error) {
      this.root.replaceChildren(element("p", { class: "error" }, error.message));
      return;
    }
    // the score sheet, whose record gives the log's lines read back their dice: read before they are told
    const { state } = this;
    this.sheetRead = state.kind === "game" && state.game ? this.sheet.refresh().catch(() => {}) : Promise.resolve();
    this.loadLog();
    this.connect();
    currentAccount().then((account) => {
      this.account = account;
      if (account && this.state) this.render();
    });
    this.sheetRead.then(() => this.renderSheet());
    document.addEventListener("keydown", (event) => this.keyed(event));
  }

  // While a move of the score sheet is shown: the arrows step through the moves, Escape goes back.
  keyed(event) {
    if (!this.viewing || event.target.closest?.("input, textarea, select")) return;
    if (event.key === "Escape") this.backToGame();
    else if (event.key === "ArrowLeft") this.stepSheet(-1);
    else if (event.key === "ArrowRight") this.stepSheet(1);
    else return;
    event.preventDefault();
  }

  // --- the log ------------------------------------------------------------------------------------

  // The whole log, a page at a time, from where the page's copy ends.
  loadLog() {
    if (this.logLoading) return this.logLoading;
    this.logLoading = (async () => {
      try {
        for (;;) {
          const page = await api(`/api/tables/${this.tableId}/log?start=${this.log.length}&limit=${LOG_PAGE}`);
          if (page.start !== this.log.length) break;
          page.entries.forEach((entry, index) => this.log.push({ ...entry, at: page.start + index }));
          if (!page.entries.length || this.log.length >= page.version) {
            if (this.log.length === this.state.version && this.log.length) this.seen(this.log.slice(-4), this.state);
            break;
          }
        }
      } catch {
        /* told again with the next state */
      } finally {
        this.logLoading = null;
      }
      await this.sheetRead;
      this.renderLog();
    })();
    return this.logLoading;
  }

  // The actions done since the last state (the WebSocket's "log"), kept and told.
  heard(log, state) {
    if (!log || !log.entries || !log.entries.length) {
      if (log && log.start > this.log.length && !this.logLoading) this.loadLog();
      return;
    }
    const entries = log.entries.map((entry, index) => ({ ...entry, at: log.start + index }));
    this.seen(entries, state);
    const told = sentences(entries, (seat) => this.nameOf(seat, state), actionLabel).filter(
      (line) => !(line.seat === state.you && state.you !== null && isCheckerAction(line)),
    );
    if (told.length) this.announce(told.map((line) => line.text).join(". "));
    if (this.logLoading || log.start > this.log.length) {
      this.loadLog();
      return;
    }
    for (const entry of entries) if (entry.at === this.log.length) this.log.push(entry);
  }

  // What the state shows of the last entries: the dice of the last roll and play, the double's value.
  seen(entries, state) {
    const game = state.game;
    if (!game) return;
    const last = entries[entries.length - 1];
    if (last.action === "roll" && game.dice && game.phase === "move") last.dice = game.dice;
    if (last.action === "double" && game.offer) last.value = game.offer.value;
    const doubles = entries.filter((entry) => entry.action === "double");
    const double = doubles[doubles.length - 1];
    const answer = double && entries[entries.indexOf(double) + 1];
    if (state.kind === "game" && answer && answer.action === "take") double.value = game.cube.value;
    const play = [...entries].reverse().find((entry) => entry.action === "play" || entry.action === "commit");
    if (play && game.last_play && game.last_play.name === this.nameOf(play.seat, state)) {
      if (play.action === "commit" || (game.last_play.play || "") === (play.play || "")) play.dice = game.last_play.dice;
    }
  }

  nameOf(seat, state = this.state) {
    return state.seats[seat]?.name || "?";
  }

  // Say `words`: beside the board, and to a screen reader through the page's live region.
  announce(words) {
    this.announcement = words;
    const live = document.getElementById("live-region");
    if (live) live.textContent = words;
  }

  // --- the connection ---------------------------------------------------------------------------

  connect() {
    const socket = new WebSocket(liveUrl(this.tableId));
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retries = 0;
      setBanner("");
      const held = this.held;
      if (held) socket.send(JSON.stringify({ type: "hello", token: held.token }));
      this.loadChat();
    });
    socket.addEventListener("message", (event) => this.received(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (this.closed || this.socket !== socket) return;
      const pause = Math.min(8000, 250 * 2 ** this.retries);
      this.retries += 1;
      setBanner(t("connection.lost"));
      setTimeout(() => this.connect(), pause);
    });
  }

  // The page's words changed language: draw again, and reconnect for the server's words.
  relanguage() {
    this.render();
    if (this.socket) this.socket.close();
  }

  received(message) {
    if (message.type === "state") {
      // each state waits for the play before it to finish sliding on the board: every play is seen
      this.queue = this.queue
        .then(() => {
          this.heard(message.log, message.state);
          // a new connection's first state is a spectator's until its hello is heard: the seat's comes next
          const beforeHello = message.state.you === null && this.state && this.state.you !== null;
          if (!beforeHello) this.accept(message.state);
          return Promise.race([this.sliding, new Promise((resolve) => setTimeout(resolve, SLIDES_AT_MOST))]);
        })
        .catch((error) => queueMicrotask(() => {
          throw error;
        }));
    }
    else if (message.type === "chat") {
      this.chat.push(message.message);
      this.renderChat();
    } else if (message.type === "error") {
      this.error = message.error;
      this.typedSent = false; // a refused typed play stays in its field, to be put right
      if (this.dropped) {
        this.dropped = null;
        this.renderBoard(); // the dragged checker back in its place
      }
      this.renderError();
    }
  }

  async loadChat() {
    try {
      const { messages } = await api(`/api/tables/${this.tableId}/chat`);
      const team = this.chat.filter((message) => message.scope === "team");
      this.chat = [...messages, ...team];
      this.renderChat();
    } catch {
      /* the chat comes with the next message */
    }
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  async act(action) {
    this.error = "";
    this.hint = null;
    this.revealBoard();
    if (this.send({ type: "act", action })) return;
    try {
      this.accept(await api(`/api/tables/${this.tableId}/actions`, { method: "POST", body: action, token: this.held?.token }));
    } catch (error) {
      this.error = error.message;
      this.typedSent = false;
      this.renderError();
    }
  }

  // After a play chosen below the board (a phone's list of plays, a hint): the board back in view, with
  // the table's title, score and players above it where the window holds both.
  revealBoard() {
    const board = this.root.querySelector("#board");
    if (!board) return;
    const box = board.getBoundingClientRect();
    const head = this.root.querySelector(".table-head")?.getBoundingClientRect();
    const top = head && box.bottom - head.top <= window.innerHeight - 8 ? head.top : box.top;
    if (top < 0 || box.bottom > window.innerHeight) window.scrollBy({ top: top - 4 });
  }

  accept(state) {
    const before = this.state;
    if (before && state.version < before.version && state.you === before.you) return;
    // the same state again (a connection's hello): nothing to draw, and a checker being dragged stays held
    if (before && JSON.stringify(before) === JSON.stringify(state)) return;
    this.state = state;
    this.noteOutcome(before, state);
    if (!before || before.version !== state.version) {
      this.selected = null;
      this.hint = null;
      this.error = "";
      this.clearTyped = this.typedSent;
      this.typedSent = false;
      if (before && this.sheetOpen) this.refreshSheet();
    }
    if (state.status === "finished" && !this.verifiedDice) this.loadDice();
    if (state.status === "finished" && state.kind === "game" && !this.analysis && analysedHere(this.tableId)) this.analyse();
    this.render();
  }

  // A game that ended since the last state: its result told, and kept in the log after the last entry.
  noteOutcome(before, state) {
    const outcome = state.game?.outcome;
    if (!outcome || state.kind !== "game") return;
    const game = state.game.number;
    if (this.outcomes.some((seen) => seen.game === game)) return;
    this.outcomes.push({ at: state.version - 0.5, outcome, game });
    if (before) this.announce([this.announcement, outcomeText(state, outcome)].filter(Boolean).join(". "));
  }

  async loadDice() {
    this.verifiedDice = "loading";
    try {
      this.verifiedDice = await api(`/api/tables/${this.tableId}/dice`);
    } catch {
      this.verifiedDice = null;
    }
    this.render();
  }

  // --- who sees what ------------------------------------------------------------------------------

  // The side of the board the viewer plays on: 0 seat 0's (a chouette's box), 1 the other.
  side() {
    const { state } = this;
    if (state.you === null || state.you === undefined || !state.game) return 0;
    if (state.kind === "game") return state.you;
    const name = state.seats[state.you].name;
    if (state.game.team && state.game.team.includes(name)) return 1;
    return 0;
  }

  sideNames(side) {
    const { state } = this;
    const game = state.game;
    if (state.kind === "game") return state.seats[side].name || "?";
    if (!game || !game.box) return side === 0 ? t("chouette.box") : t("chouette.team");
    if (side === 0) return game.partner ? `${game.box} + ${game.partner}` : game.box;
    return `${game.captain} (${t("chouette.captain")})`;
  }

  // The board as the viewer sees it: the game now, or the move of the score sheet being shown.
  boardView() {
    const { state, viewing } = this;
    const game = state.game;
    const position = viewing ? viewing.step.position : game.position;
    const side = this.side();
    const flip = side === 1;
    const board = flip ? position.points.map((_, i) => -position.points[23 - i]) : position.points.slice();
    const pair = (values) => (flip ? [values[1], values[0]] : values.slice());
    const onRoll = state.kind === "game" ? game.player_on_roll : game.side_on_roll;
    let cube = null;
    if (state.kind === "game") {
      const { value, owner } = viewing ? viewing.step.cube : game.cube;
      cube = { value, at: owner === null ? "center" : owner === side ? "near" : "far" };
    } else if (state.you !== null && game.bets) {
      const name = state.seats[state.you].name;
      const bet = game.bets.find((item) => item.team_side === name);
      if (bet) {
        const owner = bet.cube.owner;
        cube = { value: bet.cube.value, at: owner === null ? "center" : owner === side ? "near" : "far" };
      }
    }
    const moves = movesByPlace(viewing ? [] : state.legal_actions);
    const sources = new Set(moves.keys());
    const targets = this.selected && moves.has(this.selected) ? new Set(moves.get(this.selected).keys()) : new Set();
    const colours = this.preferences.swap ? [COLOURS[1], COLOURS[0]] : COLOURS.slice();
    // The dice: of the roll to play, of the move shown, else of the last play made (paler).
    let dice = game.dice;
    let diceSide = onRoll === side ? "near" : "far";
    let diceDone = false;
    const last = game.last_play;
    const mover = state.kind === "game" && last ? state.seats.findIndex((seat) => seat.name === last.name) : -1;
    if (viewing) {
      dice = viewing.move.dice;
      diceSide = viewing.move.player === side ? "near" : "far";
    } else if (!dice && mover >= 0 && last.dice) {
      dice = last.dice;
      diceSide = mover === side ? "near" : "far";
      diceDone = true;
    }
    return {
      board,
      bar: pair(position.bar),
      off: pair(position.off),
      waiting: pair(position.waiting),
      pips: pair(position.pips),
      names: [this.sideNames(side), this.sideNames(1 - side)],
      home: this.preferences.home,
      colours: flip ? [colours[1], colours[0]] : colours,
      dice,
      diceSide,
      diceDone,
      cube,
      sources,
      targets,
      selected: this.selected,
    };
  }

  picked(place) {
    const moves = movesByPlace(this.state.legal_actions);
    if (this.selected && moves.get(this.selected)?.has(place)) {
      const action = moves.get(this.selected).get(place);
      this.selected = null;
      this.act(action);
      return;
    }
    this.selected = moves.has(place) && this.selected !== place ? place : null;
    this.renderBoard();
  }

  // A checker dragged from `from` and dropped on `to`, a legal place for it: the move made.
  dropOn(from, to) {
    const action = movesByPlace(this.state.legal_actions).get(from)?.get(to);
    if (!action) return;
    this.selected = null;
    this.dropped = { from, to };
    if (this.preferences.sounds) sounds.checker();
    this.act(action);
  }

  // --- drawing ------------------------------------------------------------------------------------

  render() {
    const { state } = this;
    const typed = keptInputs(this.root);
    const logScroll = this.root.querySelector("#game-log");
    const followLog = !logScroll || logScroll.scrollTop + logScroll.clientHeight >= logScroll.scrollHeight - 4;
    const board = this.root.querySelector("#board svg"); // where a play slides from
    this.root.replaceChildren();
    this.root.dataset.version = state.version;
    this.root.dataset.status = state.status;
    this.root.dataset.you = state.you === null ? "" : state.you;
    this.root.dataset.phase = state.game?.phase || "";
    const layout = element(
      "div",
      { class: "table-layout" },
      element(
        "section",
        { class: "play" },
        this.headline(),
        state.status === "open" ? this.seatsPanel() : null, // the seats to fill (and their links) first
        element(
          "div",
          { class: "board-area" },
          element("div", { id: "board", class: this.viewing ? "board-box viewing" : "board-box" }),
          state.status === "finished" && !this.viewing ? this.summary() : null,
        ),
        element("div", { class: "controls" }, this.turnInfo(), this.viewing ? this.viewingBar() : state.status === "finished" ? null : this.actions()),
      ),
      element(
        "aside",
        { class: "side" },
        this.hint ? this.hintPanel() : null,
        this.logPanel(),
        this.sheetPanel(),
        this.playsPanel(),
        state.status === "open" ? null : this.seatsPanel(),
        this.chouettePanel(),
        element("div", { id: "chat" }),
        this.dicePanel(),
        this.recordsPanel(),
        this.settingsPanel(),
      ),
    );
    this.root.append(layout);
    this.renderBoard(board);
    this.renderLog(followLog);
    this.renderSheet();
    this.renderChat();
    this.renderError();
    translate(this.root);
    restoreInputs(typed);
    if (this.clearTyped) {
      const field = document.getElementById("play-text");
      if (field) field.value = "";
      this.clearTyped = false;
    }
  }

  // The board; `old`, the board drawn before (this one's by default), is where a play slides from.
  renderBoard(old = this.root.querySelector("#board svg")) {
    const holder = this.root.querySelector("#board");
    if (!holder) return;
    if (!this.state.game || !this.state.game.position) {
      holder.replaceChildren(element("p", { class: "waiting" }, this.state.status === "open" ? t("table.waiting") : ""));
      this.drawn = null;
      return;
    }
    const view = this.boardView();
    holder.innerHTML = boardSvg(view);
    const svg = holder.querySelector("svg");
    const position = this.viewing ? this.viewing.step.position : this.state.game.position;
    svg.setAttribute(
      "aria-label",
      `${t("board.title")}: ${view.names[0]} ${view.pips[0]}, ${view.names[1]} ${view.pips[1]} · ${position.position_id || ""}`,
    );
    if (!this.viewing) {
      svg.addEventListener("click", (event) => {
        const target = event.target.closest("[data-point]");
        if (target) this.picked(target.dataset.point);
      });
      if (view.sources.size) {
        svg.classList.add("movable");
        allowDrag(svg, {
          targetsOf: (place) => new Set(movesByPlace(this.state.legal_actions).get(place)?.keys() || []),
          drop: (from, to) => this.dropOn(from, to),
        });
      }
    }
    this.motion(old, svg, view);
  }

  // What changed on the board since it was last drawn, in motion: the checkers of the plays made slide
  // from their old places (not the one the player just dropped, already there), the dice just rolled
  // tumble; with a sound for each where the player turned sounds on. Still where motion is reduced.
  motion(old, svg, view) {
    const before = this.drawn;
    const game = this.viewing ? null : this.state.game.number;
    const rolled = !view.diceDone && view.dice ? view.dice : null;
    this.drawn = { view, game, rolled };
    if (!before || !old || game === null || before.game !== game) return;
    const moves = slides(before.view, view);
    if (this.dropped && moves.length) {
      const { from, to } = this.dropped;
      const dropped = moves.findIndex((move) => move.side === "near" && move.from === from && move.to === to);
      if (dropped >= 0) moves.splice(dropped, 1);
      this.dropped = null;
    }
    const sound = this.preferences.sounds;
    if (rolled && !before.rolled) {
      if (sound) sounds.dice();
      if (!reducedMotion()) tumble(svg);
    }
    if (!moves.length) return;
    if (reducedMotion() || document.hidden) {
      if (sound) sounds.checker();
      return;
    }
    this.animated += 1;
    this.root.dataset.animated = this.animated;
    this.sliding = slide(old, svg, moves, () => sound && sounds.checker());
  }

  renderError() {
    let box = this.root.querySelector("#error");
    if (!box) return;
    box.textContent = this.error;
    box.hidden = !this.error;
  }

  headline() {
    const { state } = this;
    const options = state.options;
    let title;
    if (state.kind === "chouette") title = t("table.chouette", { count: state.seats.length });
    else if (options.series === "match") title = t("table.match", { length: options.length });
    else if (options.series === "money") title = t("table.money", { stake: options.stake });
    else title = t("table.single");
    const variant = options.variant && options.variant !== "standard" ? ` · ${options.variant}` : "";
    const status = t(`status.${state.status}`);
    const you = state.you === null ? t("table.watching") : t("table.you", { name: state.seats[state.you].name });
    return element(
      "header",
      { class: "table-head" },
      element("h1", {}, title + variant + clockLabel(options)),
      element("span", { class: "status" }, element("span", { id: "status" }, status), " · ", element("span", { id: "you" }, you)),
      element("span", { class: "score", id: "score" }, this.scoreText()),
      clockBar(state, this.side()),
    );
  }

  scoreText() {
    const { state } = this;
    const game = state.game;
    if (!game) return "";
    if (state.kind === "chouette") {
      const totals = Object.entries(game.totals || {}).map(([name, points]) => `${name} ${signed(points)}`);
      const number = game.number ? t("game.number", { number: game.number }) : "";
      return [number, totals.join(" · ")].filter(Boolean).join(" — ");
    }
    const names = state.seats.map((seat) => seat.name);
    const score = game.score;
    const number = t("game.number", { number: game.number });
    if (score.length !== undefined) {
      const crawford = score.crawford ? ` · ${t("game.crawford")}` : "";
      return `${number} — ${names[0]} ${score.points[0]}, ${names[1]} ${score.points[1]} (${t("table.match", { length: score.length })})${crawford}`;
    }
    return `${number} — ${names[0]} ${signed(score.points[0])}, ${names[1]} ${signed(score.points[1])}`;
  }

  turnInfo() {
    const { state } = this;
    const game = state.game;
    const lines = [];
    if (state.status === "live") {
      const names = state.to_act.map((seat) => state.seats[seat].name);
      const mine = state.you !== null && state.to_act.includes(state.you);
      lines.push(element("p", { id: "to-act", class: mine ? "mine" : "" }, mine ? t("turn.yours") : names.length ? t("turn.waiting", { names: names.join(", ") }) : ""));
    }
    const told = state.status === "finished" ? "" : this.announcement; // the summary tells the end
    lines.push(element("p", { id: "announce", class: "announce", hidden: !told }, told));
    if (game) {
      const last = lastPlay(state);
      lines.push(element("p", { id: "last-play", class: "last-play" }, last ? t("turn.last", last) : ""));
      if (game.moves && game.moves.length) lines.push(element("p", { id: "moves" }, t("turn.moves", { moves: game.moves.join(" ") })));
      if (game.offer) {
        const answering = state.seats[game.offer.answering]?.name;
        lines.push(element("p", { class: "offer" }, t("turn.offer", { value: game.offer.value, name: answering })));
      }
      if (game.resignation) {
        const name = state.seats[game.resignation.seat]?.name;
        lines.push(element("p", { class: "offer", id: "resignation" }, t("turn.resignation", { name, kind: t(`stake.${game.resignation.kind}`) })));
      }
      if (game.outcome) lines.push(element("p", { id: "outcome", class: "outcome" }, outcomeText(state, game.outcome)));
      if (state.kind === "chouette" && game.is_over) lines.push(element("p", { id: "outcome", class: "outcome" }, t("chouette.over")));
    }
    lines.push(element("p", { id: "error", class: "error", hidden: true }));
    return element("div", { class: "turn" }, lines);
  }

  actions() {
    const { state } = this;
    const buttons = [];
    const resignations = [];
    for (const action of state.legal_actions) {
      if (action.action === "move" || action.action === "play") continue;
      const button = element(
        "button",
        {
          class: `action action-${action.action}`,
          dataset: { action: action.action, kind: action.kind, against: action.against ? action.against.join(",") : undefined },
          onclick: () => this.act(action),
        },
        actionLabel(action),
      );
      (action.action === "resign" ? resignations : buttons).push(button);
    }
    if (this.mayAskHint()) {
      buttons.push(element("button", { class: "hint-button", id: "hint-button", onclick: () => this.askHint() }, t("hint.ask")));
    }
    const parts = [element("div", { class: "buttons", id: "actions" }, buttons)];
    if (state.legal_actions.some((action) => action.action === "play" || action.action === "move")) parts.push(this.typedPlay());
    if (resignations.length) {
      // Drawn again with every state: a resignation menu the player opened stays open.
      const open = Boolean(this.root.querySelector("details.resign")?.open);
      parts.push(element("details", { class: "resign", open }, element("summary", { "data-i18n": "resign.title" }), element("div", { class: "buttons" }, resignations)));
    }
    return element("div", { class: "actions" }, parts);
  }

  // A play typed as the terminal takes it ("24/18 13/10", "bar/22", "6/off"), sent as it is: the
  // server reads it against the turn, and its refusal says why.
  typedPlay() {
    const field = element("input", {
      id: "play-text",
      name: "play",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      maxlength: 80,
      placeholder: "24/18 13/10",
      "aria-describedby": "play-text-help",
    });
    return element(
      "form",
      {
        class: "typed-play",
        id: "typed-play",
        onsubmit: (event) => {
          event.preventDefault();
          const play = field.value.trim();
          if (!play) return;
          this.typedSent = true;
          this.act({ action: "play", play });
        },
      },
      element("label", { for: "play-text" }, t("typed.label")),
      field,
      element("button", { type: "submit", id: "play-typed" }, t("typed.play")),
      element("span", { id: "play-text-help", class: "visually-hidden" }, t("typed.help")),
    );
  }

  // Every whole play the roll allows, one click each, folded away unless the viewer opens it.
  playsPanel() {
    const plays = this.state.legal_actions
      .filter((action) => action.action === "play")
      .map((action) => element("li", {}, element("button", { class: "play-choice", dataset: { play: action.play }, onclick: () => this.act(action) }, action.play || t("action.no_move"))));
    if (!plays.length) return null;
    const panel = element(
      "details",
      { class: "panel plays", id: "plays-panel", open: this.playsOpen },
      element("summary", {}, t("plays.title", { count: plays.length })),
      element("ol", { id: "plays" }, plays),
    );
    panel.addEventListener("toggle", () => {
      this.playsOpen = panel.open;
    });
    return panel;
  }

  // The game's log: every action told, the games' results among them, the newest last.
  logPanel() {
    return element(
      "div",
      { class: "panel log", id: "log-panel" },
      element("h2", { "data-i18n": "log.title" }),
      element("ol", { id: "game-log", class: "game-log" }),
    );
  }

  renderLog(follow = true) {
    const list = this.root.querySelector("#game-log");
    if (!list) return;
    const log = this.state.kind === "game" ? withDice(this.log, this.sheet.games) : this.log;
    const lines = sentences(log, (seat) => this.nameOf(seat), actionLabel);
    for (const seen of this.outcomes) lines.push({ at: seen.at, text: outcomeText(this.state, seen.outcome), outcome: true });
    lines.sort((a, b) => a.at - b.at);
    const items = lines.map((line) =>
      element("li", { class: line.outcome ? "outcome" : line.seat === null ? "table-line" : "", dataset: { at: Math.floor(line.at) } }, line.text),
    );
    list.replaceChildren(...(items.length ? items : [element("li", { class: "none" }, t("log.empty"))]));
    if (follow) list.scrollTop = list.scrollHeight;
  }

  // --- the score sheet ----------------------------------------------------------------------------

  sheetPanel() {
    const { state } = this;
    if (state.kind !== "game" || !state.game) return null;
    const panel = element(
      "details",
      { class: "panel score-sheet", id: "score-sheet", open: this.sheetOpen },
      element("summary", {}, t("sheet.title")),
      element("div", { id: "sheet-body", class: "sheet-body" }),
    );
    panel.addEventListener("toggle", () => {
      if (panel.open === this.sheetOpen) return; // drawn open: told as a toggle too
      this.sheetOpen = panel.open;
      if (panel.open) this.refreshSheet();
    });
    return panel;
  }

  renderSheet() {
    const body = this.root.querySelector("#sheet-body");
    if (!body) return;
    const follow = body.scrollTop + body.clientHeight >= body.scrollHeight - 4;
    const names = this.state.seats.map((seat) => seat.name || "?");
    body.replaceChildren(this.sheet.panel(names, this.viewing?.move, (move) => this.showMove(move)));
    const shown = body.querySelector(".sheet-move.shown");
    if (shown) shown.scrollIntoView({ block: "nearest" });
    else if (follow) body.scrollTop = body.scrollHeight;
  }

  // The record read again a moment after the state moves (one read for a burst of states); the sheet
  // and the log's dice drawn again.
  refreshSheet() {
    const { state } = this;
    if (state.kind !== "game" || !state.game) return;
    clearTimeout(this.sheetTimer);
    this.sheetTimer = setTimeout(async () => {
      try {
        await this.sheet.refresh();
      } catch {
        return; // read again with the next state
      }
      this.renderSheet();
      this.renderLog(false);
    }, 120);
  }

  // The board after a move of the score sheet (read-only), with the way back to the game.
  async showMove(move) {
    try {
      const steps = await this.positionsOf(move.game);
      if (!steps[move.at]) return;
      this.viewing = { move, step: steps[move.at] };
    } catch (error) {
      this.error = error.message;
      this.renderError();
      return;
    }
    this.selected = null;
    this.render();
    this.revealBoard();
  }

  // The positions of a game (GET /api/tables/{id}/positions), kept: a finished game's for good, the
  // game in play's until the table moves on.
  async positionsOf(game) {
    const known = this.positions.get(game);
    const over = game < this.sheet.games.length - 1 || this.sheet.games[game]?.outcome;
    if (known && (over || known.version === this.state.version)) return known.steps;
    const read = await api(`/api/tables/${this.tableId}/positions?game=${game}`);
    this.positions.set(game, read);
    return read.steps;
  }

  // The move before or after the one shown (`by` -1 or 1), across the games.
  stepSheet(by) {
    if (!this.viewing) return;
    const moves = this.sheet.moves();
    const { game, at } = this.viewing.move;
    const next = moves[moves.findIndex((move) => move.game === game && move.at === at) + by];
    if (next) this.showMove(next);
  }

  backToGame() {
    this.viewing = null;
    this.render();
  }

  viewingBar() {
    const { move } = this.viewing;
    const name = this.nameOf(move.player);
    const what = move.dice ? `${move.dice.join("")}: ${move.text}` : move.text;
    const moves = this.sheet.moves();
    const index = moves.findIndex((item) => item.game === move.game && item.at === move.at);
    return element(
      "div",
      { class: "viewing-bar", id: "viewing" },
      element("p", { id: "viewing-label", role: "status" }, t("sheet.viewing", { number: move.game + 1, name, move: what })),
      element(
        "div",
        { class: "buttons" },
        element("button", { id: "sheet-previous", disabled: index <= 0, onclick: () => this.stepSheet(-1) }, `◀ ${t("sheet.previous")}`),
        element("button", { id: "sheet-next", disabled: index < 0 || index >= moves.length - 1, onclick: () => this.stepSheet(1) }, `${t("sheet.next")} ▶`),
        element("button", { id: "back-to-game", class: "action-roll", onclick: () => this.backToGame() }, t("sheet.back")),
      ),
    );
  }

  // The end of the table: its result, and a rematch (a new table with the same options) or the lobby.
  summary() {
    const { state } = this;
    const parts = [element("h2", {}, t("table.finished")), element("p", { id: "result", class: "outcome" }, resultText(state))];
    if (state.forfeit) parts.splice(1, 0, element("p", { id: "forfeit", class: "outcome forfeit" }, forfeitText(state)));
    const buttons = [];
    if (state.you !== null) {
      buttons.push(element("button", { id: "rematch", class: "action-roll", disabled: this.rematching, onclick: () => this.rematch() }, t("end.rematch")));
    }
    buttons.push(element("a", { id: "to-lobby", class: "button", href: "/" }, t("end.lobby")));
    if (state.kind === "game") parts.push(element("div", { id: "analysis-part" }, this.analysisPart()));
    parts.push(element("div", { class: "buttons" }, buttons));
    return element("div", { class: "summary", id: "summary" }, parts);
  }

  // The players' error rates from the table's analysis (the server's, POST /api/tables/{id}/analyses),
  // asked for with a button, its progress shown while it is made; then the way to step through it.
  analysisPart() {
    const analysis = this.analysis;
    if (!analysis) return element("button", { id: "analyse", onclick: () => this.analyse() }, t("end.analyse"));
    if (analysis.status === "failed") return element("p", { class: "error", id: "analysis-failed" }, t("review.failed", { error: analysis.error || "" }));
    if (analysis.status !== "done") {
      const known = analysis.total > 0;
      return element(
        "p",
        { id: "analysing" },
        element("progress", { id: "analysis-progress", max: known ? analysis.total : undefined, value: known ? analysis.done : undefined }),
        " ",
        known ? t("review.progress", { done: analysis.done, total: analysis.total }) : t("end.analysing"),
      );
    }
    const rows = analysis.players.map((player) =>
      element(
        "tr",
        {},
        element("th", { scope: "row" }, player.name),
        element("td", { class: "equity" }, player.error_rate_memg.toFixed(1)),
        element("td", { class: "equity" }, player.pr.toFixed(1)),
        element("td", {}, t(`review.rating.${String(player.rating).replaceAll(" ", "_")}`)),
      ),
    );
    return element(
      "div",
      {},
      element(
        "table",
        { class: "error-rates", id: "error-rates" },
        element("thead", {}, element("tr", {}, element("th", {}), element("th", {}, t("review.error_rate")), element("th", {}, t("review.pr")), element("th", {}, t("review.rating")))),
        element("tbody", {}, rows),
      ),
      analysis.page ? element("a", { id: "step-through", href: analysis.page }, t("end.step_through")) : null,
    );
  }

  async analyse() {
    const shown = (job) => {
      this.analysis = { ...this.analysis, status: job.status, done: job.done, total: job.total, error: job.error };
      if (job.analysis) this.analysis.players = job.analysis.players;
      this.root.querySelector("#analysis-part")?.replaceChildren(this.analysisPart());
    };
    this.analysis = { status: "running", done: 0, total: 0 };
    rememberAnalysed(this.tableId);
    try {
      const started = await api(`/api/tables/${this.tableId}/analyses`, { method: "POST" });
      this.analysis.page = started.page;
      let job = await api(started.url); // the analysis itself, made already or still being made
      while (job.status === "running") {
        shown(job);
        await new Promise((resolve) => setTimeout(resolve, ANALYSIS_POLL));
        job = await api(started.url);
      }
      shown(job);
    } catch (error) {
      shown({ status: "failed", done: 0, total: 0, error: error.message });
    }
  }

  async rematch() {
    const { state } = this;
    this.rematching = true;
    this.render();
    try {
      const created = await api("/api/tables", { method: "POST", body: state.options });
      await sitDown(created.id, state.you, this.nameOf(state.you));
      clearTimeout(this.sheetTimer);
      await this.sheet.loading; // no reading of the record cut short by leaving
      location.assign(`/t/${created.id}`);
    } catch (error) {
      this.rematching = false;
      this.error = error.message;
      this.render();
    }
  }

  mayAskHint() {
    return Boolean(this.state.may_hint);
  }

  async askHint() {
    try {
      this.hint = await api(`/api/tables/${this.tableId}/hint`, { token: this.held?.token });
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  hintPanel() {
    if (this.hint.cube) return this.cubeHintPanel();
    const legal = this.state.legal_actions;
    // While an Acey-Deucey double is chosen, the hint ranks the six doubles, each by its best play.
    const choices = this.hint.doubles ?? this.hint.plays;
    const rows = choices.map((choice) => {
      const action = choice.double
        ? legal.find((item) => item.action === "choose_double" && item.number === choice.double)
        : legal.find((item) => item.action === "play" && item.play === choice.play);
      return element(
        "li",
        {},
        choice.double ? element("span", { class: "hint-double" }, `${choice.double}-${choice.double} `) : null,
        element("span", { class: "hint-play" }, choice.play || t("action.no_move")),
        " ",
        element("span", { class: "equity" }, signed(choice.equity.toFixed(3))),
        " ",
        // Every row's loss against the first (the best), in the order ranked; -0.000 shows as 0.000.
        element("span", { class: "loss", title: t("hint.loss") }, signed((Math.round(choice.loss * 1000) / 1000).toFixed(3))),
        action ? element("button", { class: "small", onclick: () => this.act(action) }, choice.double ? actionLabel(action) : t("hint.play")) : null,
      );
    });
    return element("div", { class: "panel hint", id: "hint" }, element("h2", { "data-i18n": "hint.title" }), element("ol", {}, rows));
  }

  // The cube advice: before the roll, the decision of the player on roll with its equities; to a double
  // (or a beaver or a raccoon), the answer the bot gives the seat answering, each answer valued for it.
  cubeHintPanel() {
    const { cube, answer } = this.hint;
    const figure = (value) => (cube.match ? `${(100 * value).toFixed(1)}%` : signed(value.toFixed(3)));
    const raccoon = this.hint.redoubles > 0;
    let advice;
    let rows;
    if (this.hint.kind === "answer") {
      const word = (name) => (name === "beaver" && raccoon ? t("hint.raccoon") : t(`action.${name}`));
      advice = t("hint.answer", { answer: word(answer) });
      rows = Object.entries(this.hint.answers).map(([name, value]) => [word(name), value]);
    } else {
      advice = cube.reason ? t("hint.no_double_reason", { reason: cube.reason }) : t(`hint.${cube.action.replaceAll(" ", "_")}`);
      rows = [
        ["no_double", cube.no_double],
        ["double_take", cube.double_take],
        ["double_drop", cube.double_pass],
        ["double_beaver", cube.double_beaver],
      ]
        .filter(([, value]) => value !== null)
        .map(([name, value]) => [t(`hint.eq_${name}`), value]);
    }
    const items = rows.map(([label, value]) => element("li", {}, element("span", {}, label), " ", element("span", { class: "equity" }, figure(value))));
    return element(
      "div",
      { class: "panel hint", id: "hint" },
      element("h2", { "data-i18n": "hint.cube_title" }),
      element("p", { class: "hint-advice" }, advice),
      items.length ? element("p", { class: "small" }, t("hint.seen_by_you")) : null,
      element("ul", {}, items),
    );
  }

  seatsPanel() {
    const { state } = this;
    const held = this.held;
    const rows = state.seats.map((seat) => {
      const acting = state.to_act.includes(seat.index);
      const parts = [element("span", { class: "seat-name" }, seat.name || t("seat.empty"))];
      if (seat.bot) parts.push(" ", element("span", { class: "tag" }, t("seat.bot", { level: seat.bot })));
      if (acting) parts.push(" ", element("span", { class: "tag acting" }, "●"));
      if (!seat.taken && !held) parts.push(this.sitForm(seat.index));
      if (!seat.taken && held) parts.push(this.inviteLink(seat.index));
      if (seat.taken && !seat.bot && state.you === null && this.account?.name === seat.name) {
        parts.push(" ", this.comeBackButton(seat.index));
      }
      return element("li", { dataset: { seat: seat.index } }, parts);
    });
    return element("div", { class: "panel seats" }, element("h2", { "data-i18n": "seats.title" }), element("ul", {}, rows));
  }

  // The account's own seat, taken on another device: play it from this one (the other device's token
  // no longer counts then).
  comeBackButton(index) {
    return element("button", {
      type: "button",
      class: "secondary",
      id: `come-back-${index}`,
      "data-i18n": "seat.come_back",
      onclick: async () => {
        try {
          const taken = await sitDown(this.tableId, index, null);
          this.accept(taken.state);
          this.send({ type: "hello", token: taken.token });
        } catch (error) {
          this.error = error.message;
          this.renderError();
        }
      },
    });
  }

  sitForm(index) {
    const invited = this.invitedSeat === null || this.invitedSeat === index;
    if (!invited) return element("span", { class: "tag" }, t("seat.open"));
    const name = element("input", { name: "name", id: `sit-name-${index}`, maxlength: 40, value: localStorage.getItem("tavola.name") || "", "data-i18n-placeholder": "form.name", required: true });
    const form = element(
      "form",
      {
        class: "sit",
        id: `sit-${index}`,
        onsubmit: async (event) => {
          event.preventDefault();
          try {
            localStorage.setItem("tavola.name", name.value.trim());
            const taken = await sitDown(this.tableId, index, name.value.trim());
            this.accept(taken.state);
            this.send({ type: "hello", token: taken.token });
          } catch (error) {
            this.error = error.message;
            this.renderError();
          }
        },
      },
      name,
      element("button", { type: "submit", "data-i18n": "seat.sit" }),
    );
    return form;
  }

  // The link for a free seat, whole (its ?seat=N at the end shown too), to copy and send.
  inviteLink(index) {
    const link = `${location.origin}/t/${this.tableId}?seat=${index}`;
    const field = element("textarea", { class: "invite", readonly: true, rows: 2, id: `invite-${index}`, "aria-label": t("invite.seat", { number: index + 1 }) }, link);
    return element(
      "span",
      { class: "invite-row" },
      element("span", { class: "invite-label" }, t("invite.seat", { number: index + 1 })),
      field,
      element("button", { class: "small", "data-i18n": "invite.copy", onclick: () => copy(field) }),
    );
  }

  chouettePanel() {
    const { state } = this;
    const game = state.game;
    if (state.kind !== "chouette" || !game || !game.box) return null;
    const bets = (game.bets || []).map((bet) => {
      const owner = bet.cube.owner === null ? t("cube.centre") : bet.cube.owner === 0 ? bet.box_side : bet.team_side;
      return element("li", { class: bet.live ? "" : "dropped" }, `${bet.box_side} – ${bet.team_side}: ${bet.cube.value} (${owner})${bet.live ? "" : ` · ${t("chouette.dropped")}`}`);
    });
    return element(
      "div",
      { class: "panel chouette", id: "chouette" },
      element("h2", { "data-i18n": "chouette.title" }),
      element("p", {}, `${t("chouette.box")}: ${game.box}${game.partner ? ` + ${game.partner}` : ""}`),
      element("p", {}, `${t("chouette.captain")}: ${game.captain} · ${t("chouette.team")}: ${(game.team || []).join(", ")}`),
      element("ul", { id: "bets" }, bets),
    );
  }

  mayTalkToTeam() {
    const { state } = this;
    const game = state.game;
    if (state.kind !== "chouette" || state.you === null || !game || !game.box || game.is_over) return false;
    const name = state.seats[state.you].name;
    return name === game.box || name === game.partner || (game.team || []).includes(name);
  }

  renderChat() {
    const holder = this.root.querySelector("#chat");
    if (!holder) return;
    const typing = document.getElementById("chat-text");
    const kept = typing ? { value: typing.value, focused: document.activeElement === typing } : null;
    const scopeBefore = document.getElementById("chat-scope")?.value;
    const list = element(
      "ul",
      { class: "messages", id: "messages" },
      this.chat.map((message) =>
        element(
          "li",
          { class: message.scope === "team" ? "team" : "" },
          message.scope === "team" ? element("span", { class: "tag" }, t("chat.team")) : null,
          element("b", {}, message.name),
          ": ",
          message.text,
        ),
      ),
    );
    const parts = [element("h2", {}, t("chat.title")), list];
    if (this.state.you !== null) {
      const text = element("input", { name: "text", maxlength: 500, placeholder: t("chat.placeholder"), id: "chat-text" });
      const scope = this.mayTalkToTeam()
        ? element("select", { name: "scope", id: "chat-scope" }, element("option", { value: "table" }, t("chat.everyone")), element("option", { value: "team" }, t("chat.team")))
        : null;
      parts.push(
        element(
          "form",
          {
            class: "chat-form",
            onsubmit: (event) => {
              event.preventDefault();
              const words = text.value.trim();
              if (!words) return;
              const message = { type: "chat", text: words };
              if (scope && scope.value === "team") message.scope = "team";
              if (this.send(message)) text.value = "";
            },
          },
          text,
          scope,
          element("button", { type: "submit" }, t("chat.send")),
        ),
      );
    }
    holder.replaceChildren(element("div", { class: "panel" }, parts));
    list.scrollTop = list.scrollHeight;
    const text = document.getElementById("chat-text");
    if (text && kept) {
      text.value = kept.value;
      if (kept.focused) text.focus();
    }
    const scope = document.getElementById("chat-scope");
    if (scope && scopeBefore) scope.value = scopeBefore;
  }

  dicePanel() {
    const { state } = this;
    const checked = this.verifiedDice && this.verifiedDice !== "loading" ? this.verifiedDice : null;
    const parts = [
      element("h2", { "data-i18n": "dice.title" }),
      element("p", { class: "small-print" }, t("dice.commitment"), " ", element("code", { id: "commitment" }, state.dice.commitment)),
      element("p", { class: "small-print" }, t("dice.used", { count: state.dice.used })),
    ];
    if (state.dice.secret) {
      parts.push(element("p", { class: "small-print" }, t("dice.secret"), " ", element("code", { id: "secret" }, state.dice.secret)));
    } else {
      parts.push(element("p", { class: "small-print" }, t("dice.later")));
    }
    if (checked) {
      parts.push(element("p", { id: "verified", class: checked.verified ? "ok" : "error" }, checked.verified ? t("dice.verified") : t("dice.failed")));
    }
    parts.push(element("a", { href: `/api/tables/${this.tableId}/dice`, target: "_blank", "data-i18n": "dice.link" }));
    return element("div", { class: "panel dice-check" }, parts);
  }

  recordsPanel() {
    const { state } = this;
    if (!state.game) return null; // the records exist once the table is played
    const links = [element("a", { href: `/api/tables/${this.tableId}/record.json`, download: true, id: "download-json", "data-i18n": "records.json" })];
    if (state.kind === "game") {
      links.push(" · ", element("a", { href: `/api/tables/${this.tableId}/record.mat`, download: true, id: "download-mat", "data-i18n": "records.mat" }));
      if (state.status === "finished") {
        const report = `/api/tables/${this.tableId}/analysis.html?lang=${language()}`;
        links.push(" · ", element("a", { href: report, target: "_blank", id: "analysis-report", "data-i18n": "records.analysis" }));
        links.push(" · ", element("a", { href: `/t/${this.tableId}/analysis`, id: "analysis-steps", "data-i18n": "records.steps" }));
      }
    }
    return element("div", { class: "panel" }, element("h2", { "data-i18n": "records.title" }), element("p", {}, links));
  }

  settingsPanel() {
    const home = element(
      "select",
      {
        id: "home",
        onchange: () => {
          this.preferences.home = home.value;
          savePreferences(this.preferences);
          this.renderBoard();
        },
      },
      element("option", { value: "right", selected: this.preferences.home === "right" }, t("board.home_right")),
      element("option", { value: "left", selected: this.preferences.home === "left" }, t("board.home_left")),
    );
    const sound = element("input", {
      type: "checkbox",
      id: "sounds",
      checked: this.preferences.sounds,
      onchange: () => {
        this.preferences.sounds = sound.checked;
        savePreferences(this.preferences);
        if (sound.checked) {
          sounds.wake();
          sounds.checker();
        }
      },
    });
    const swap = element("input", {
      type: "checkbox",
      id: "swap",
      checked: this.preferences.swap,
      onchange: () => {
        this.preferences.swap = swap.checked;
        savePreferences(this.preferences);
        this.renderBoard();
      },
    });
    return element(
      "div",
      { class: "panel settings" },
      element("h2", { "data-i18n": "board.title" }),
      element("label", {}, t("board.home"), " ", home),
      element("label", {}, swap, " ", t("board.swap")),
      element("label", {}, sound, " ", t("board.sounds")),
    );
  }
}

// "Ann wins a gammon: 2 points", in the page's language.
export function outcomeText(state, outcome) {
  const name = state.seats[outcome.winner]?.name;
  return t("turn.outcome", { name, kind: t(`win.${outcome.kind}`), points: outcome.points, count: outcome.points });
}

// A finished table's result: the match's winner and score, a session's final score, a single game's
// result, a chouette's totals.
export function resultText(state) {
  const game = state.game;
  if (!game) return "";
  const names = state.seats.map((seat) => seat.name);
  if (state.kind === "chouette") {
    const totals = Object.entries(game.totals || {}).map(([name, points]) => `${name} ${signed(points)}`);
    return t("end.score", { score: totals.join(", ") });
  }
  const points = game.score.points;
  if (game.score.length !== undefined) {
    const winner = points[0] > points[1] ? 0 : 1;
    return t("end.match", { name: names[winner], score: `${points[winner]}–${points[1 - winner]}` });
  }
  const score = t("end.score", { score: `${names[0]} ${signed(points[0])}, ${names[1]} ${signed(points[1])}` });
  if (state.options.series === "single" && game.outcome) return `${outcomeText(state, game.outcome)}. ${score}`;
  return score;
}

// The last play made in the game shown, as the server gives it: {name, dice, play}.
export function lastPlay(state) {
  const last = state.game?.last_play;
  if (!last) return null;
  return { name: last.name, dice: last.dice.join("-"), play: last.play || t("action.no_move") };
}

export function actionLabel(action) {
  switch (action.action) {
    case "resign":
      return t(`resign.${action.kind}`);
    case "choose_double":
      return t("action.choose_double", { number: action.number });
    default: {
      const label = t(`action.${action.action}`);
      return action.against && action.against.length ? `${label} (${action.against.join(", ")})` : label;
    }
  }
}

// What is typed in the page's fields (by id) and which has the focus, to keep across a new drawing.
function keptInputs(root) {
  const fields = [...root.querySelectorAll("input[id]:not([type=checkbox]):not([readonly])")];
  return {
    values: Object.fromEntries(fields.map((field) => [field.id, field.value])),
    focused: fields.includes(document.activeElement) ? document.activeElement.id : null,
  };
}

function restoreInputs(typed) {
  for (const [id, value] of Object.entries(typed.values)) {
    const field = document.getElementById(id);
    if (field && value) field.value = value;
  }
  if (typed.focused) document.getElementById(typed.focused)?.focus();
}

function signed(value) {
  return Number(value) > 0 ? `+${value}` : String(value);
}

function copy(field) {
  field.select();
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).catch(() => document.execCommand("copy"));
  else document.execCommand("copy");
}

// The board's settings the player chose, kept in localStorage: the home board's side, the colours,
// the sounds (off unless turned on).
function readPreferences() {
  const chosen = { home: "right", swap: false, sounds: false };
  try {
    return { ...chosen, ...JSON.parse(localStorage.getItem(PREFERENCES)) };
  } catch {
    return chosen;
  }
}

function savePreferences(preferences) {
  localStorage.setItem(PREFERENCES, JSON.stringify(preferences));
}

// The tables this browser had analysed (the newest last, a few): their end card shows the error rates
// again at once, the server's analysis being kept.
function analysedTables() {
  try {
    const tables = JSON.parse(localStorage.getItem(ANALYSED));
    return Array.isArray(tables) ? tables : [];
  } catch {
    return [];
  }
}

function analysedHere(tableId) {
  return analysedTables().includes(tableId);
}

function rememberAnalysed(tableId) {
  const tables = analysedTables().filter((table) => table !== tableId);
  localStorage.setItem(ANALYSED, JSON.stringify([...tables, tableId].slice(-ANALYSED_KEPT)));
}

export function setBanner(words) {
  const banner = document.getElementById("banner");
  banner.textContent = words;
  banner.hidden = !words;
}
