// The checker moves a seat may make now, read from its legal actions: a `move` entry's "from/to"
// (in the mover's numbering, which is the viewer's own when the viewer is the one to move). The page
// sends back the entry itself, exactly as the server listed it.

// The place on the board a point name stands for: a number, "bar" ("in" too: Acey-Deucey's checkers
// waiting to enter come in from the bar's side) or "off".
function place(name) {
  return name === "in" ? "bar" : name;
}

// Map from a source place to a map from a destination place to the legal `move` action.
export function movesByPlace(legalActions) {
  const sources = new Map();
  for (const action of legalActions) {
    if (action.action !== "move") continue;
    const [from, to] = action.moves.replace(/\*/g, "").split("/");
    const source = place(from);
    if (!sources.has(source)) sources.set(source, new Map());
    const targets = sources.get(source);
    if (!targets.has(place(to))) targets.set(place(to), action);
  }
  return sources;
}
