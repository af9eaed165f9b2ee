// The table's log told in the page's language: each entry of GET /api/tables/{id}/log (and of the
// WebSocket's "log") as a short sentence. A roll is told with the play after it (the opening roll too,
// with the play of whoever won it); checkers moved one by one are told once the turn is done. The dice
// and the cube's value come with an entry where the page saw them arrive (`dice`, `value`), or from the
// record for the entries read back later (the score sheet's withDice); an entry without is told without.

import { t } from "./i18n.js";

const CHECKER_ACTIONS = new Set(["roll", "play", "move", "undo", "commit", "choose_double"]);

// Whether an entry is a checker play or a roll (told in the log; to its own player, not announced).
export function isCheckerAction(entry) {
  return CHECKER_ACTIONS.has(entry.action);
}

function played(name, play, dice) {
  if (!play) return dice ? t("log.roll_pass", { name, dice }) : t("log.pass", { name });
  return dice ? t("log.roll_play", { name, dice, play }) : t("log.play", { name, play });
}

// [{at, seat, action, text}] for `entries` (each with `at`, its place in the table's log);
// `nameOf(seat)` names a seat, `label(entry)` words any other action as its button does.
export function sentences(entries, nameOf, label) {
  const lines = [];
  let moved = [];
  let rolled = null; // the dice of the last roll, for the play that follows it
  entries.forEach((entry, index) => {
    const table = entry.seat === null || entry.seat === undefined;
    const name = table ? t("log.table") : nameOf(entry.seat);
    const dice = entry.dice ? entry.dice.join("-") : null;
    let text = null;
    switch (entry.action) {
      case "roll": {
        const next = entries[index + 1];
        const told = next && ["play", "move", "choose_double"].includes(next.action);
        if (!told && dice) text = entry.opening ? t("log.opening_again", { dice }) : t("log.roll", { name, dice });
        rolled = dice;
        break;
      }
      case "play":
        text = played(name, entry.play, dice || rolled);
        moved = [];
        rolled = null;
        break;
      case "move":
        moved.push(entry.moves);
        break;
      case "undo":
        moved.pop();
        break;
      case "commit":
        text = played(name, entry.play ?? moved.join(" "), dice || rolled);
        moved = [];
        rolled = null;
        break;
      case "double":
        if (entry.against && entry.against.length) text = t("log.double_against", { name, names: entry.against.join(", ") });
        else text = entry.value ? t("log.double_to", { name, value: entry.value }) : t("log.double", { name });
        break;
      case "take":
      case "drop":
      case "beaver":
      case "accept":
      case "decline":
        text = t(`log.${entry.action}`, { name });
        if (entry.against && entry.against.length) text += ` (${entry.against.join(", ")})`;
        break;
      case "resign":
        text = t("turn.resignation", { name, kind: t(`stake.${entry.kind}`) });
        break;
      case "start_game":
        text = t("log.start_game");
        break;
      case "end_session":
        text = t("log.end_session", { name });
        break;
      case "choose_double":
        text = t("log.choose_double", { name, number: entry.number });
        break;
      case "forfeit":
        text = t(`forfeit.${entry.reason}`, { name: nameOf(entry.player) });
        break;
      case "suggest":
        text = t("log.suggest", { name, play: entry.play || t("action.no_move") });
        break;
      default:
        text = t("log.other", { name, action: label(entry) });
    }
    if (text) lines.push({ at: entry.at, seat: table ? null : entry.seat, action: entry.action, text });
  });
  return lines;
}
