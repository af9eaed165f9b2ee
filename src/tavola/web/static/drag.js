// Dragging a checker on the board, with a mouse, a pen or a finger (pointer events): a checker picked
// up from a place with a legal move follows the pointer, the places it may go are outlined, and a drop on
// one of them makes that move; dropped anywhere else it slides back. A press that does not move stays
// a click, so choosing a checker and then its place by clicks works as before; the pointer is held by
// the board only once the checker moves, so the click a drag ends with falls on no place.

import { reducedMotion } from "./animate.js";

const START = 0.25; // board units the pointer travels before a press becomes a drag
const BACK = 180; // milliseconds a checker takes to slide back from a refused drop

// Let the viewer's checkers on `svg` be dragged. `targetsOf(place)` is the set of places a checker on
// `place` may go to now (empty: it cannot move); `drop(from, to)` makes the move.
export function allowDrag(svg, { targetsOf, drop }) {
  let drag = null;

  const at = (event) => {
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [point.x, point.y];
  };

  svg.addEventListener("pointerdown", (event) => {
    if (drag || event.button > 0) return;
    const place = event.target.closest("[data-point]")?.dataset.point;
    if (!place || !targetsOf(place).size) return;
    drag = { place, pointer: event.pointerId, start: at(event), ghost: null, lifted: null, shift: null };
    event.preventDefault(); // no text selected on the way, and no selection dragged instead of the checker
  });

  svg.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const [x, y] = at(event);
    const [x0, y0] = drag.start;
    if (!drag.ghost) {
      if (Math.hypot(x - x0, y - y0) < START) return;
      svg.setPointerCapture(event.pointerId); // a press that stays a click keeps its target
      lift(drag);
    }
    drag.shift = [x - drag.home[0], y - drag.home[1]];
    drag.ghost.setAttribute("transform", `translate(${drag.shift[0]} ${drag.shift[1]})`);
    event.preventDefault();
  });

  const end = (event, cancelled) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const held = drag;
    drag = null;
    if (!held.ghost) return; // a click: the click handler chooses the checker
    svg.classList.remove("dragging");
    svg.querySelectorAll(".drop-target").forEach((shape) => shape.classList.remove("drop-target"));
    const under = cancelled ? null : placeUnder(event);
    if (under && targetsOf(held.place).has(under)) {
      drop(held.place, under);
      return;
    }
    slideBack(held);
  };
  svg.addEventListener("pointerup", (event) => end(event, false));
  svg.addEventListener("pointercancel", (event) => end(event, true));

  // The checker on top of the dragged place leaves its stack: a copy follows the pointer.
  function lift(held) {
    const stack = [...svg.querySelectorAll(`circle[data-place="${held.place}"][data-side="near"]`)];
    const top = stack.sort((a, b) => Number(b.dataset.level) - Number(a.dataset.level))[0];
    const ghost = top ? top.cloneNode() : spare(held.place);
    ghost.classList.add("dragged");
    ghost.removeAttribute("data-place");
    svg.append(ghost);
    held.home = [Number(ghost.getAttribute("cx")), Number(ghost.getAttribute("cy"))];
    held.lifted = top || null;
    if (top) top.style.visibility = "hidden";
    held.ghost = ghost;
    svg.classList.add("dragging");
    for (const target of targetsOf(held.place)) svg.querySelector(`.place[data-point="${target}"]`)?.classList.add("drop-target");
  }

  // A checker to drag from a place that shows none (Acey-Deucey's checkers waiting to enter): one of
  // the viewer's colour, in the middle of the place.
  function spare(place) {
    const box = svg.querySelector(`.place[data-point="${place}"]`).getBBox();
    const colour = svg.querySelector('[data-side="near"]')?.getAttribute("fill") || "#ffffff";
    const ghost = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    for (const [name, value] of Object.entries({ cx: box.x + box.width / 2, cy: box.y + box.height / 2, r: 0.43, fill: colour, stroke: "#000000", "stroke-width": 0.03 })) {
      ghost.setAttribute(name, value);
    }
    return ghost;
  }

  function slideBack(held) {
    const { ghost, lifted, shift } = held;
    const done = () => {
      ghost.remove();
      if (lifted) lifted.style.visibility = "";
    };
    if (!shift || reducedMotion()) {
      done();
      return;
    }
    ghost.removeAttribute("transform");
    const back = [{ transform: `translate(${shift[0]}px, ${shift[1]}px)` }, { transform: "translate(0px, 0px)" }];
    ghost.animate(back, { duration: BACK, easing: "ease-out" }).finished.then(done, done);
  }

  function placeUnder(event) {
    const found = document.elementsFromPoint(event.clientX, event.clientY).find((shape) => shape.dataset && shape.dataset.point);
    return found ? found.dataset.point : null;
  }
}
