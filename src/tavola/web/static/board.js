// The board as SVG, drawn from the viewer's side, in the look of tavola.render.svg: the viewer's
// checkers at the bottom, their home board on the right or the left, each side's colour. Points, the
// bar and the viewer's tray are targets to click (data-point="13", "bar", "off"). Checkers borne off
// and, in Acey-Deucey, checkers still to enter lie in the trays (class "off" and "waiting"). Every
// checker drawn names its place, its side and its height in the stack (data-place="13",
// data-side="near", data-level="2"), for the animations and the drag to find it.

import { t } from "./i18n.js";

const WIDTH = 17.2;
const HEIGHT = 15.0;
const FRAME = 0.4;
const SIDE = 1.2;
const BAR = 1.2;
const BOARD_X = FRAME + SIDE + FRAME;
const TOP = 2.0;
const BOTTOM = 13.0;
const MIDDLE = 7.5;
const RADIUS = 0.45;
const STACK = 5;
const SLICE = 0.3;
const BACKGROUND = "#faf6ee";
const WOOD = "#6b4226";
const FELT = "#2f6b45";
const TRAY = "#24573a";
const INK = "#333333";
const TRIANGLES = ["#e9dcc0", "#b5432f"];
const OUTLINE = 'stroke="#000000" stroke-width="0.03"';
export const COLOURS = ["#f6f1e3", "#262626"];
const DIE_PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function n(value) {
  return String(Math.round(value * 1000) / 1000);
}

function escapeText(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function text(words, x, y, size, fill, extra = "") {
  return `<text x="${n(x)}" y="${n(y)}" font-size="${n(size)}" fill="${fill}" text-anchor="middle" dominant-baseline="central" ${extra}>${escapeText(words)}</text>`;
}

// The points along the top and the bottom, left to right, numbered from the viewer's side.
function screenPoints(home) {
  const top = Array.from({ length: 12 }, (_, i) => 13 + i);
  const bottom = Array.from({ length: 12 }, (_, i) => 12 - i);
  return home === "right" ? [top, bottom] : [top.reverse(), bottom.reverse()];
}

function columnX(column) {
  return BOARD_X + column + 0.5 + (column >= 6 ? BAR : 0);
}

// The data attributes of a checker drawn at `place` ("13", "bar", "off", "waiting") for `side`.
function named(place, side, level) {
  return `data-place="${place}" data-side="${side}" data-level="${level}"`;
}

function stack(count, x, base, direction, fill, ink, where) {
  const parts = [];
  const shown = Math.min(count, STACK);
  let last = base;
  for (let level = 0; level < shown; level += 1) {
    last = base + direction * (RADIUS + 2 * RADIUS * level);
    parts.push(`<circle class="checker" cx="${n(x)}" cy="${n(last)}" r="${n(RADIUS - 0.02)}" fill="${fill}" ${OUTLINE} ${named(...where, level)}/>`);
  }
  if (count > STACK) parts.push(text(count, x, last, 0.45, ink, 'font-weight="bold"'));
  return parts;
}

function die(x, y, value, fill, ink) {
  const parts = [`<rect class="die" x="${n(x - 0.4)}" y="${n(y - 0.4)}" width="0.8" height="0.8" rx="0.12" fill="${fill}" ${OUTLINE}/>`];
  for (const [dx, dy] of DIE_PIPS[value] || []) {
    parts.push(`<circle class="pip" cx="${n(x + 0.22 * dx)}" cy="${n(y + 0.22 * dy)}" r="0.08" fill="${ink}"/>`);
  }
  return parts.join("");
}

// The board as an SVG document. `view` is seen from the viewer's side:
//   board: 24 counts, index p-1 for the viewer's point p, the viewer's checkers positive;
//   bar, off, waiting, pips: [viewer's, other side's]; names: [viewer's side, other side];
//   home: "right" or "left"; colours: [viewer's, other side's];
//   dice: [high, low] or null, rolled by diceSide ("near" or "far"); diceDone: the dice of a play made
//   (drawn paler), not a roll to play;
//   cube: {value, at: "center" | "near" | "far"} or null;
//   sources, targets: sets of clickable places ("13", "bar", "off"); selected: the chosen source.
export function boardSvg(view) {
  const home = view.home === "left" ? "left" : "right";
  const [nearColour, farColour] = view.colours;
  const paint = { near: [nearColour, farColour], far: [farColour, nearColour] };
  const traysX = home === "right" ? BOARD_X + 12 + BAR + FRAME : FRAME;
  const sources = view.sources || new Set();
  const targets = view.targets || new Set();
  const parts = [
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${BACKGROUND}"/>`,
    `<rect y="${n(TOP - FRAME)}" width="${WIDTH}" height="${n(BOTTOM - TOP + 2 * FRAME)}" rx="0.2" fill="${WOOD}"/>`,
    `<rect x="${n(BOARD_X)}" y="${TOP}" width="6" height="${BOTTOM - TOP}" fill="${FELT}"/>`,
    `<rect x="${n(BOARD_X + 6 + BAR)}" y="${TOP}" width="6" height="${BOTTOM - TOP}" fill="${FELT}"/>`,
  ];
  const hits = [];
  const rows = screenPoints(home);
  [[TOP, 1, rows[0]], [BOTTOM, -1, rows[1]]].forEach(([edge, direction, points]) => {
    points.forEach((point, column) => {
      const x = columnX(column);
      const tip = edge + direction * (MIDDLE - TOP - 0.9);
      const colour = TRIANGLES[(column + (direction < 0 ? 1 : 0)) % 2];
      const name = String(point);
      parts.push(`<polygon points="${n(x - 0.5)},${n(edge)} ${n(x + 0.5)},${n(edge)} ${n(x)},${n(tip)}" fill="${colour}"/>`);
      // A place to click is lit beneath its checkers, never over them: the triangle, and a band at the edge.
      const lit = glow(name, sources, targets, view.selected);
      if (lit) {
        parts.push(`<polygon class="lit" points="${n(x - 0.5)},${n(edge)} ${n(x + 0.5)},${n(edge)} ${n(x)},${n(tip)}" fill="${lit}" fill-opacity="0.8"/>`);
        const band = direction > 0 ? edge - 0.16 : edge;
        parts.push(`<rect class="lit" x="${n(x - 0.46)}" y="${n(band)}" width="0.92" height="0.16" fill="${lit}"/>`);
      }
      parts.push(text(point, x, edge - direction * (FRAME + 0.35), 0.42, INK, 'class="number"'));
      const count = view.board[point - 1];
      const side = count > 0 ? "near" : "far";
      parts.push(...stack(Math.abs(count), x, edge, direction, ...paint[side], [name, side]));
      if (view.selected === name && count) parts.push(ring(x, edge + direction * (RADIUS + 2 * RADIUS * (Math.min(Math.abs(count), STACK) - 1))));
      if (targets.has(name)) parts.push(landing(x, edge + direction * (RADIUS + 2 * RADIUS * Math.min(Math.max(count, 0), STACK - 1))));
      const top = direction > 0 ? edge : MIDDLE;
      hits.push(place(String(point), x - 0.5, top, 1, BOTTOM - MIDDLE, sources, targets, view.selected));
    });
  });
  const barX = BOARD_X + 6 + BAR / 2;
  const barLit = glow("bar", sources, targets, view.selected);
  if (barLit) parts.push(`<rect class="lit" x="${n(barX - BAR / 2 + 0.1)}" y="${MIDDLE}" width="${n(BAR - 0.2)}" height="${n(BOTTOM - MIDDLE)}" rx="0.1" fill="${barLit}" fill-opacity="0.8"/>`);
  parts.push(...stack(view.bar[0], barX, MIDDLE + 0.05, 1, ...paint.near, ["bar", "near"]));
  if (view.selected === "bar" && view.bar[0]) parts.push(ring(barX, MIDDLE + 0.05 + RADIUS + 2 * RADIUS * (Math.min(view.bar[0], STACK) - 1)));
  parts.push(...stack(view.bar[1], barX, MIDDLE - 0.05, -1, ...paint.far, ["bar", "far"]));
  hits.push(place("bar", barX - BAR / 2, MIDDLE, BAR, BOTTOM - MIDDLE, sources, targets, view.selected));
  const waiting = view.waiting || [0, 0];
  [[BOTTOM, -1, view.off[0], waiting[0], "near"], [TOP, 1, view.off[1], waiting[1], "far"]].forEach(([edge, direction, count, toEnter, side]) => {
    const top = Math.min(edge, edge + direction * (MIDDLE - TOP - 0.2));
    const trayLit = side === "near" ? glow("off", sources, targets, view.selected) : null;
    parts.push(`<rect x="${n(traysX)}" y="${n(top)}" width="${SIDE}" height="${n(MIDDLE - TOP - 0.2)}" fill="${TRAY}"/>`);
    if (trayLit) parts.push(`<rect class="lit" x="${n(traysX + 0.06)}" y="${n(top + 0.06)}" width="${n(SIDE - 0.12)}" height="${n(MIDDLE - TOP - 0.32)}" fill="${trayLit}" fill-opacity="0.8"/>`);
    for (let level = 0; level < count; level += 1) {
      const y = Math.min(edge + direction * SLICE * level, edge + direction * SLICE * (level + 1)) + 0.02;
      parts.push(`<rect class="off" x="${n(traysX + 0.15)}" y="${n(y)}" width="${n(SIDE - 0.3)}" height="${n(SLICE - 0.04)}" rx="0.05" fill="${paint[side][0]}" ${OUTLINE} ${named("off", side, level)}/>`);
    }
    if (count) parts.push(text(count, traysX + SIDE / 2, edge + direction * (SLICE * count + 0.4), 0.4, "#ffffff"));
    // Checkers still to enter (Acey-Deucey) wait in the same tray, paler, stacked from its inner end:
    // a side bears off only once all its checkers have entered, so the two never fill it together.
    const inner = edge + direction * (MIDDLE - TOP - 0.2);
    for (let level = 0; level < toEnter; level += 1) {
      const y = Math.min(inner - direction * SLICE * level, inner - direction * SLICE * (level + 1)) + 0.02;
      parts.push(`<rect class="waiting" x="${n(traysX + 0.15)}" y="${n(y)}" width="${n(SIDE - 0.3)}" height="${n(SLICE - 0.04)}" rx="0.05" fill="${paint[side][0]}" fill-opacity="0.55" stroke-dasharray="0.08 0.05" ${OUTLINE} ${named("waiting", side, level)}/>`);
    }
    if (toEnter) parts.push(text(toEnter, traysX + SIDE / 2, inner - direction * (SLICE * toEnter + 0.4), 0.4, "#ffffff"));
    if (side === "near") hits.push(place("off", traysX, top, SIDE, MIDDLE - TOP - 0.2, sources, targets, view.selected));
  });
  [[HEIGHT - 0.45, 0, "near"], [0.45, 1, "far"]].forEach(([y, index, side]) => {
    parts.push(`<circle cx="${n(BOARD_X + 0.2)}" cy="${n(y)}" r="0.22" fill="${paint[side][0]}" ${OUTLINE}/>`);
    const caption = `${view.names[index]} · ${view.pips[index]}`;
    parts.push(`<text class="caption" x="${n(BOARD_X + 0.6)}" y="${n(y)}" font-size="0.42" fill="${INK}" dominant-baseline="central">${escapeText(caption)}</text>`);
  });
  if (view.cube) {
    const x = WIDTH - traysX - SIDE + SIDE / 2;
    const y = { center: MIDDLE, far: TOP + 0.6, near: BOTTOM - 0.6 }[view.cube.at];
    const face = view.cube.value === 1 ? "64" : String(view.cube.value);
    parts.push(`<g class="cube" data-owner="${view.cube.at}"><rect x="${n(x - 0.45)}" y="${n(y - 0.45)}" width="0.9" height="0.9" rx="0.1" fill="#fffdf5" ${OUTLINE}/>${text(face, x, y, 0.45, INK, 'font-weight="bold"')}</g>`);
  }
  if (view.dice) {
    const near = view.diceSide !== "far";
    const start = near ? BOARD_X + 6 + BAR + 2.5 : BOARD_X + 2.5;
    const [fill, ink] = paint[near ? "near" : "far"];
    const classes = view.diceDone ? "dice done" : "dice";
    parts.push(`<g class="${classes}" data-side="${near ? "near" : "far"}">${view.dice.map((value, i) => die(start + i, MIDDLE, value, fill, ink)).join("")}</g>`);
  }
  return (
    `<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" ` +
    `font-family="sans-serif" role="img">${parts.join("")}${hits.join("")}</svg>`
  );
}

// The colour a place to click is lit with: the chosen checker's place, its destinations, the other
// checkers that may move; null for a place not to click. Drawn beneath the checkers, so neither colour
// of checker is muddied by it.
const LIT = { selected: "#ffb300", target: "#7be08f", source: "#ffe27a" };

function glow(name, sources, targets, selected) {
  if (selected === name) return LIT.selected;
  if (targets.has(name)) return LIT.target;
  if (sources.has(name) && !selected) return LIT.source;
  return null;
}

// A ring around the chosen checker, dark then light, seen on a light checker and on a dark one alike.
function ring(x, y) {
  return (
    `<circle class="ring" cx="${n(x)}" cy="${n(y)}" r="${n(RADIUS + 0.02)}" fill="none" stroke="#000000" stroke-width="0.12"/>` +
    `<circle class="ring" cx="${n(x)}" cy="${n(y)}" r="${n(RADIUS + 0.02)}" fill="none" stroke="${LIT.selected}" stroke-width="0.06"/>`
  );
}

// Where the chosen checker would land: a dashed outline, dark and light.
function landing(x, y) {
  return (
    `<circle class="landing" cx="${n(x)}" cy="${n(y)}" r="${n(RADIUS - 0.05)}" fill="none" stroke="#000000" stroke-width="0.1"/>` +
    `<circle class="landing" cx="${n(x)}" cy="${n(y)}" r="${n(RADIUS - 0.05)}" fill="none" stroke="${LIT.target}" stroke-width="0.06" stroke-dasharray="0.15 0.1"/>`
  );
}

function place(name, x, y, width, height, sources, targets, selected) {
  const classes = ["place"];
  if (sources.has(name)) classes.push("source");
  if (targets.has(name)) classes.push("target");
  if (selected === name) classes.push("selected");
  const active = sources.has(name) || targets.has(name);
  const label = t(/^\d+$/.test(name) ? "board.point" : `board.${name}`, { number: name });
  return `<rect class="${classes.join(" ")}" data-point="${name}" x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}"${active ? ` role="button" aria-label="${escapeText(label)}"` : ""}/>`;
}
