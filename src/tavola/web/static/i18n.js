// The page's words in English, Italian and Spanish: one small JSON per language (i18n/en.json holds
// every key; the others translate the same keys). The language is the one chosen with the switch,
// else the first of the browser's that Tavola speaks, else English.

export const LANGUAGES = ["en", "it", "es"];
const STORED = "tavola.language";

let words = {};
let english = {};
let current = "en";

export function language() {
  return current;
}

export function preferredLanguage() {
  const chosen = localStorage.getItem(STORED);
  if (LANGUAGES.includes(chosen)) return chosen;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = tag.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

async function fetchWords(code) {
  const response = await fetch(`/static/i18n/${code}.json`);
  if (!response.ok) throw new Error(`no words for ${code}`);
  return response.json();
}

export async function useLanguage(code, remember = false) {
  if (!LANGUAGES.includes(code)) code = "en";
  if (!Object.keys(english).length) english = await fetchWords("en");
  words = code === "en" ? english : await fetchWords(code);
  current = code;
  if (remember) localStorage.setItem(STORED, code);
  document.documentElement.lang = code;
}

// The words for `key`, with {name} replaced by params.name. Where params.count is a number, the form
// for that number when the language has one: "turn.outcome.one" for 1 in English, else "turn.outcome".
export function t(key, params = {}) {
  let form = key;
  if (typeof params.count === "number") {
    const plural = `${key}.${new Intl.PluralRules(current).select(params.count)}`;
    if (plural in words || plural in english) form = plural;
  }
  const text = words[form] ?? english[form] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// Translate the elements of `root` marked with data-i18n (their text) and data-i18n-placeholder.
export function translate(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll("[data-i18n-placeholder]")) {
    element.placeholder = t(element.dataset.i18nPlaceholder);
  }
}
