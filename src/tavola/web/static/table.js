// A table: the board from the viewer's side, what the viewer may do (exactly the server's legal
// actions), chat, the dice check and the records. The WebSocket brings every state; when it closes,
// the page connects again with growing pauses and says hello with the seat's token again.

import { api, element, heldSeat, liveUrl, sitDown } from "./api.js";
import { boardSvg, COLOURS } from "./board.js";
import { language, t, translate } from "./i18n.js";
import { movesByPlace } from "./moves.js";

const PREFERENCES = "tavola.board";

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
    this.preferences = readPreferences();
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
    this.connect();
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
    if (message.type === "state") this.accept(message.state);
    else if (message.type === "chat") {
      this.chat.push(message.message);
      this.renderChat();
    } else if (message.type === "error") {
      this.error = message.error;
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
    if (this.send({ type: "act", action })) return;
    try {
      this.accept(await api(`/api/tables/${this.tableId}/actions`, { method: "POST", body: action, token: this.held?.token }));
    } catch (error) {
      this.error = error.message;
      this.renderError();
    }
  }

  accept(state) {
    const before = this.state;
    if (before && state.version < before.version && state.you === before.you) return;
    this.state = state;
    if (!before || before.version !== state.version) {
      this.selected = null;
      this.hint = null;
      this.error = "";
    }
    if (state.status === "finished" && !this.verifiedDice) this.loadDice();
    this.render();
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

  boardView() {
    const { state } = this;
    const game = state.game;
    const position = game.position;
    const side = this.side();
    const flip = side === 1;
    const board = flip ? position.points.map((_, i) => -position.points[23 - i]) : position.points.slice();
    const pair = (values) => (flip ? [values[1], values[0]] : values.slice());
    const onRoll = state.kind === "game" ? game.player_on_roll : game.side_on_roll;
    let cube = null;
    if (state.kind === "game") {
      const owner = game.cube.owner;
      cube = { value: game.cube.value, at: owner === null ? "center" : owner === side ? "near" : "far" };
    } else if (state.you !== null && game.bets) {
      const name = state.seats[state.you].name;
      const bet = game.bets.find((item) => item.team_side === name);
      if (bet) {
        const owner = bet.cube.owner;
        cube = { value: bet.cube.value, at: owner === null ? "center" : owner === side ? "near" : "far" };
      }
    }
    const moves = movesByPlace(state.legal_actions);
    const sources = new Set(moves.keys());
    const targets = this.selected && moves.has(this.selected) ? new Set(moves.get(this.selected).keys()) : new Set();
    const colours = this.preferences.swap ? [COLOURS[1], COLOURS[0]] : COLOURS.slice();
    return {
      board,
      bar: pair(position.bar),
      off: pair(position.off),
      waiting: pair(position.waiting),
      pips: pair(position.pips),
      names: [this.sideNames(side), this.sideNames(1 - side)],
      home: this.preferences.home,
      colours: flip ? [colours[1], colours[0]] : colours,
      dice: game.dice,
      diceSide: onRoll === side ? "near" : "far",
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

  // --- drawing ------------------------------------------------------------------------------------

  render() {
    const { state } = this;
    const typed = keptInputs(this.root);
    this.root.replaceChildren();
    this.root.dataset.version = state.version;
    this.root.dataset.status = state.status;
    this.root.dataset.you = state.you === null ? "" : state.you;
    this.root.dataset.phase = state.game?.phase || "";
    const layout = element(
      "div",
      { class: "table-layout" },
      element("section", { class: "play" }, this.headline(), this.turnInfo(), this.actions(), element("div", { id: "board" })),
      element(
        "aside",
        { class: "side" },
        this.seatsPanel(),
        this.chouettePanel(),
        element("div", { id: "chat" }),
        this.dicePanel(),
        this.recordsPanel(),
        this.settingsPanel(),
      ),
    );
    this.root.append(layout);
    this.renderBoard();
    this.renderChat();
    this.renderError();
    translate(this.root);
    restoreInputs(typed);
  }

  renderBoard() {
    const holder = this.root.querySelector("#board");
    if (!holder) return;
    if (!this.state.game || !this.state.game.position) {
      holder.replaceChildren(element("p", { class: "waiting" }, this.state.status === "open" ? t("table.waiting") : ""));
      return;
    }
    holder.innerHTML = boardSvg(this.boardView());
    holder.querySelector("svg").addEventListener("click", (event) => {
      const target = event.target.closest("[data-point]");
      if (target) this.picked(target.dataset.point);
    });
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
      element("h1", {}, title + variant),
      element("p", { class: "status" }, element("span", { id: "status" }, status), " · ", element("span", { id: "you" }, you)),
      element("p", { class: "score", id: "score" }, this.scoreText()),
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
        lines.push(element("p", { class: "offer" }, t("turn.resignation", { name, kind: t(`resign.${game.resignation.kind}`) })));
      }
      if (game.outcome) {
        const winner = state.seats[game.outcome.winner]?.name;
        lines.push(
          element("p", { id: "outcome", class: "outcome" }, t("turn.outcome", { name: winner, kind: t(`win.${game.outcome.kind}`), points: game.outcome.points })),
        );
      }
      if (state.kind === "chouette" && game.is_over) lines.push(element("p", { id: "outcome", class: "outcome" }, t("chouette.over")));
    }
    if (state.status === "live") {
      const names = state.to_act.map((seat) => state.seats[seat].name);
      const mine = state.you !== null && state.to_act.includes(state.you);
      lines.push(element("p", { id: "to-act", class: mine ? "mine" : "" }, mine ? t("turn.yours") : names.length ? t("turn.waiting", { names: names.join(", ") }) : ""));
    }
    if (state.status === "finished") lines.push(element("p", { id: "finished", class: "outcome" }, t("table.finished")));
    lines.push(element("p", { id: "error", class: "error", hidden: true }));
    return element("div", { class: "turn" }, lines);
  }

  actions() {
    const { state } = this;
    const legal = state.legal_actions;
    const buttons = [];
    const resignations = [];
    const plays = [];
    for (const action of legal) {
      if (action.action === "move") continue;
      if (action.action === "play") {
        plays.push(
          element("li", {}, element("button", { class: "play-choice", dataset: { play: action.play }, onclick: () => this.act(action) }, action.play || t("action.no_move"))),
        );
        continue;
      }
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
    const parts = [element("div", { class: "buttons", id: "actions" }, buttons)];
    if (this.mayAskHint()) {
      parts.push(element("button", { class: "hint-button", id: "hint-button", onclick: () => this.askHint() }, t("hint.ask")));
    }
    if (this.hint) parts.push(this.hintPanel());
    if (plays.length) {
      parts.push(element("details", { class: "plays", open: true }, element("summary", {}, t("plays.title", { count: plays.length })), element("ol", { id: "plays" }, plays)));
    }
    if (resignations.length) {
      parts.push(element("details", { class: "resign" }, element("summary", { "data-i18n": "resign.title" }), element("div", { class: "buttons" }, resignations)));
    }
    return element("div", { class: "actions" }, parts);
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
    return element("div", { class: "hint", id: "hint" }, element("h2", { "data-i18n": "hint.title" }), element("ol", {}, rows));
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
      { class: "hint", id: "hint" },
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
      return element("li", { dataset: { seat: seat.index } }, parts);
    });
    return element("div", { class: "panel seats" }, element("h2", { "data-i18n": "seats.title" }), element("ul", {}, rows));
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

  inviteLink(index) {
    const link = `${location.origin}/t/${this.tableId}?seat=${index}`;
    const field = element("input", { class: "invite", readonly: true, value: link, id: `invite-${index}` });
    return element(
      "span",
      { class: "invite-row" },
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
    );
  }
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

function readPreferences() {
  try {
    return { home: "right", swap: false, ...JSON.parse(localStorage.getItem(PREFERENCES)) };
  } catch {
    return { home: "right", swap: false };
  }
}

function savePreferences(preferences) {
  localStorage.setItem(PREFERENCES, JSON.stringify(preferences));
}

export function setBanner(words) {
  const banner = document.getElementById("banner");
  banner.textContent = words;
  banner.hidden = !words;
}
