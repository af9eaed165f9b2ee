// Checkers sliding from where they were to where they are after a play, anyone's: the page draws the
// new board at once and each checker that moved starts from its old place, one after the other, then
// the checkers it hit go to the bar. Which checkers moved is read from the two boards alone (fewer
// checkers on a place, more on another), never worked out from the rules; the dice of a new roll
// tumble. Nothing moves where the player asked for less motion (prefers-reduced-motion).

const SLIDE = 280; // milliseconds a checker takes from one place to another
const MOST = 8; // a play moves four checkers and hits as many: more means a new game, not a play

export function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// How many checkers each side has on each place of a board view ({board, bar, off, waiting}, from the
// viewer's side: the viewer's checkers positive, "near").
function counts(view) {
  const sides = { near: new Map(), far: new Map() };
  view.board.forEach((count, index) => {
    if (count) sides[count > 0 ? "near" : "far"].set(String(index + 1), Math.abs(count));
  });
  const waiting = view.waiting || [0, 0];
  for (const [name, pair] of [["bar", view.bar], ["off", view.off], ["waiting", waiting]]) {
    sides.near.set(name, pair[0]);
    sides.far.set(name, pair[1]);
  }
  return sides;
}

// How far along its way a place is for a side: the viewer's checkers go from 24 down to 1 and off, the
// other side's from 1 up to 24 (in the viewer's numbering); both come in from the bar.
function along(place, side) {
  if (place === "bar" || place === "waiting") return 0;
  if (place === "off") return 25;
  return side === "near" ? 25 - Number(place) : Number(place);
}

// The checkers that moved between two board views: [{side, from, to}], the side's checkers that left
// places paired in order with those that arrived, the hit checkers (to the bar) last; none where the
// change is no play (a new game: every checker back in place).
//
//   slides({board: [..., 2 on 24], ...}, {board: [..., 1 on 24, 1 on 18], ...})
//   → [{side: "near", from: "24", to: "18"}]
export function slides(before, after) {
  const old = counts(before);
  const now = counts(after);
  const moved = [];
  for (const side of ["near", "far"]) {
    const left = [];
    const arrived = [];
    for (const place of new Set([...old[side].keys(), ...now[side].keys()])) {
      const change = (now[side].get(place) || 0) - (old[side].get(place) || 0);
      for (let i = 0; i < Math.abs(change); i += 1) (change < 0 ? left : arrived).push(place);
    }
    const order = (a, b) => along(a, side) - along(b, side);
    left.sort(order);
    arrived.sort(order);
    left.forEach((from, i) => moved.push({ side, from, to: arrived[i] }));
  }
  if (moved.length > MOST || moved.some((move) => move.to === undefined)) return [];
  return moved.sort((a, b) => Number(a.to === "bar") - Number(b.to === "bar"));
}

// The checkers of `side` drawn on `place` in `svg`, the top of the stack first.
function stackOf(svg, place, side) {
  return [...svg.querySelectorAll(`[data-place="${place}"][data-side="${side}"]`)].sort(
    (a, b) => Number(b.dataset.level) - Number(a.dataset.level),
  );
}

function centre(shape) {
  if (shape.tagName === "circle") return [Number(shape.getAttribute("cx")), Number(shape.getAttribute("cy"))];
  const x = Number(shape.getAttribute("x")) + Number(shape.getAttribute("width")) / 2;
  return [x, Number(shape.getAttribute("y")) + Number(shape.getAttribute("height")) / 2];
}

// Slide the checkers of `moves` in `svg` (the new board) from their places in `old` (the board drawn
// before); `landed()` is called as each one lands (by the clock: a board drawn anew meanwhile cuts its
// slides short, not the sounds). A promise of the end, with how many slid.
export function slide(old, svg, moves, landed = () => {}) {
  const taken = new Map(); // checkers of a stack already used, in either drawing
  const next = (drawing, place, side) => {
    const key = `${drawing === old ? "old" : "new"}:${side}:${place}`;
    const used = taken.get(key) || 0;
    taken.set(key, used + 1);
    const stack = stackOf(drawing, place, side);
    return stack[Math.min(used, stack.length - 1)];
  };
  const animations = [];
  moves.forEach((move, index) => {
    const from = next(old, move.from, move.side);
    const to = next(svg, move.to, move.side);
    if (!from || !to) return;
    const [x0, y0] = centre(from);
    const [x1, y1] = centre(to);
    const delay = index * SLIDE;
    const animation = to.animate(
      [{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "translate(0px, 0px)" }],
      { duration: SLIDE, delay, easing: "ease-in-out", fill: "backwards" },
    );
    setTimeout(landed, delay + SLIDE);
    animations.push(animation);
  });
  if (!animations.length) return Promise.resolve(0);
  svg.classList.add("animating");
  return Promise.allSettled(animations.map((animation) => animation.finished)).then(() => {
    svg.classList.remove("animating");
    return animations.length;
  });
}

// The dice just rolled tumble onto the board.
export function tumble(svg) {
  const dice = svg.querySelector(".dice:not(.done)");
  if (!dice) return false;
  dice.classList.add("rolling");
  dice.addEventListener("animationend", () => dice.classList.remove("rolling"), { once: true });
  return true;
}
