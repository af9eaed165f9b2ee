// Talking to Tavola's server: its JSON API (errors come back in the page's language) and the seats'
// tokens, kept in localStorage per table.

import { language } from "./i18n.js";

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

function withLanguage(path) {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${language()}`;
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(withLanguage(path), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(data.error || response.statusText, response.status);
  return data;
}

export function liveUrl(tableId) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${withLanguage(`/api/tables/${tableId}/live`)}`;
}

const SEATS = "tavola.seats";

function seats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS)) || {};
  } catch {
    return {};
  }
}

// The seat this browser holds at a table: {seat, token}, or null.
export function heldSeat(tableId) {
  return seats()[tableId] || null;
}

export function holdSeat(tableId, seat, token) {
  const all = seats();
  all[tableId] = { seat, token };
  localStorage.setItem(SEATS, JSON.stringify(all));
}

export async function sitDown(tableId, seat, name) {
  const taken = await api(`/api/tables/${tableId}/seats/${seat}`, { method: "POST", body: { name } });
  holdSeat(tableId, taken.seat, taken.token);
  return taken;
}

export function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) made.addEventListener(name.slice(2), value);
    else if (name === "dataset") {
      for (const [key, item] of Object.entries(value)) if (item !== undefined && item !== null) made.dataset[key] = item;
    }
    else made.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    made.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return made;
}
