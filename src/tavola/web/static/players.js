// A player's page at "/players/{name}" (ratings per variant, the rating's history as a chart, the rated
// matches with their results and, where analysed, both sides' error rates, the last tables) and the
// leaderboard at "/leaderboard", per variant.

import { api, element } from "./api.js";
import { language, t, translate } from "./i18n.js";

const VARIANTS = ["standard", "nackgammon", "hypergammon", "dutch", "acey-deucey"];
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, ...children) {
  const made = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  for (const child of children) made.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return made;
}

function rating(value) {
  return value.toFixed(1);
}

function when(text) {
  return new Date(text).toLocaleDateString(language(), { year: "numeric", month: "short", day: "numeric" });
}

function playerLink(name) {
  return element("a", { href: `/players/${encodeURIComponent(name)}` }, name);
}

// The rating after each rated match of one variant, oldest first, from the rating before the first:
// a line with a dot per match (its title says against whom, and the rating after), the highest and
// lowest ratings marked on the left.
export function ratingChart(matches) {
  const width = 640;
  const height = 220;
  const left = 52;
  const right = 12;
  const top = 12;
  const bottom = 24;
  const oldest = [...matches].reverse();
  const values = [oldest[0].before, ...oldest.map((match) => match.after)];
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 10) {
    low -= 5;
    high += 5;
  }
  const x = (index) => left + (index * (width - left - right)) / Math.max(1, values.length - 1);
  const y = (value) => top + ((high - value) * (height - top - bottom)) / (high - low);
  const points = values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img", "aria-label": t("player.chart_label", { count: oldest.length }) },
    svg("rect", { x: left, y: top, width: width - left - right, height: height - top - bottom, class: "chart-area" }),
    svg("text", { x: left - 6, y: y(high) + 4, class: "chart-label", "text-anchor": "end" }, Math.round(high)),
    svg("text", { x: left - 6, y: y(low) + 4, class: "chart-label", "text-anchor": "end" }, Math.round(low)),
    svg("text", { x: left, y: height - 6, class: "chart-label" }, when(oldest[0].time)),
    svg("text", { x: width - right, y: height - 6, class: "chart-label", "text-anchor": "end" }, when(oldest[oldest.length - 1].time)),
    svg("polyline", { points, class: "chart-line" }),
  );
  oldest.forEach((match, index) => {
    const dot = svg("circle", { cx: x(index + 1), cy: y(match.after), r: 3.5, class: match.won ? "chart-won" : "chart-lost" });
    dot.append(svg("title", {}, `${t(match.won ? "player.won_against" : "player.lost_against", { name: match.opponent })}: ${rating(match.after)}`));
    chart.append(dot);
  });
  return chart;
}

// A table in a box of its own that scrolls sideways where the screen is narrower than the table.
function scrolled(...made) {
  return element("div", { class: "scroll" }, element(...made));
}

function ratingsTable(ratings) {
  if (!ratings.length) return element("p", { class: "none" }, t("player.unrated"));
  return scrolled(
    "table",
    { class: "ratings" },
    element("thead", {}, element("tr", {}, ["form.variant", "player.rating", "player.matches", "player.wins", "player.experience"].map((key) => element("th", {}, t(key))))),
    element("tbody", {}, ratings.map((row) => element("tr", {}, element("td", {}, row.variant), element("td", {}, rating(row.rating)), element("td", {}, row.matches), element("td", {}, row.wins), element("td", {}, row.experience)))),
  );
}

// Both sides' error rates of an analysed match, the player's first (its title: both PRs and the level
// analysed); a link to analyse the table where it never was.
function errorsCell(match) {
  const errors = match.errors;
  if (!errors) return element("td", { class: "errors" }, element("a", { href: `/t/${match.table}/analysis` }, t("player.analyse")));
  const title = t("player.errors_title", { mine: errors.mine_pr.toFixed(1), theirs: errors.theirs_pr.toFixed(1), level: errors.level });
  return element("td", { class: "errors", title }, `${errors.mine.toFixed(1)} / ${errors.theirs.toFixed(1)}`);
}

function matchesTable(history, name) {
  if (!history.length) return element("p", { class: "none" }, t("player.no_matches"));
  const headers = ["player.date", "player.opponent", "form.variant", "form.length", "player.result", "player.change"].map((key) => t(key));
  return scrolled(
    "table",
    { class: "matches" },
    element("thead", {}, element("tr", {}, [...headers, t("player.errors", { name }), t("player.table")].map((text) => element("th", {}, text)))),
    element(
      "tbody",
      {},
      history.map((match) => {
        const change = match.after - match.before;
        return element(
          "tr",
          { class: match.won ? "won" : "lost" },
          element("td", {}, when(match.time)),
          element("td", {}, playerLink(match.opponent)),
          element("td", {}, match.variant),
          element("td", {}, match.length),
          element("td", {}, t(match.won ? "player.won" : "player.lost")),
          element("td", { class: "change" }, `${change >= 0 ? "+" : ""}${change.toFixed(1)}`),
          errorsCell(match),
          element(
            "td",
            {},
            element("a", { href: `/t/${match.table}` }, t("lobby.watch")),
            " · ",
            element("a", { href: `/api/tables/${match.table}/analysis.html?lang=${language()}`, target: "_blank" }, t("records.analysis")),
          ),
        );
      }),
    ),
  );
}

function chartSection(history, ratings) {
  const variants = ratings.map((row) => row.variant);
  if (!variants.length) return null;
  const holder = element("div", { class: "chart-box" });
  const choose = element("select", { name: "chart-variant", "aria-label": t("form.variant") }, variants.map((variant) => element("option", { value: variant }, variant)));
  const draw = () => {
    const matches = history.filter((match) => match.variant === choose.value);
    holder.replaceChildren(matches.length ? ratingChart(matches) : element("p", { class: "none" }, t("player.no_matches")));
  };
  choose.addEventListener("change", draw);
  draw();
  return element("section", { class: "panel" }, element("h2", {}, t("player.history")), variants.length > 1 ? choose : null, holder);
}

export async function showPlayer(root, name) {
  root.replaceChildren(element("p", { class: "loading" }, "…"));
  let player;
  try {
    player = await api(`/api/players/${encodeURIComponent(name)}?limit=200`);
  } catch (problem) {
    root.replaceChildren(element("p", { class: "error" }, problem.message));
    return;
  }
  document.title = `${player.name} · Tavola`;
  root.replaceChildren(
    element(
      "div",
      { class: "player-page" },
      element("h1", {}, player.name, player.bot ? element("span", { class: "tag" }, t("player.bot")) : null),
      element("p", { class: "small-print" }, t("player.since", { date: when(player.since) })),
      element("section", { class: "panel" }, element("h2", {}, t("player.ratings")), ratingsTable(player.ratings)),
      chartSection(player.history, player.ratings),
      element("section", { class: "panel" }, element("h2", {}, t("player.matches")), matchesTable(player.history, player.name)),
      element(
        "section",
        { class: "panel" },
        element("h2", {}, t("player.tables")),
        element("ul", { class: "tables" }, player.tables.map((table) => element("li", {}, element("a", { href: `/t/${table.table}` }, table.table), ` · ${t(`status.${table.status}`)}`))),
      ),
    ),
  );
  translate(root);
}

export async function showLeaderboard(root, variant = "standard") {
  const choose = element("select", { name: "variant", id: "leaderboard-variant" }, VARIANTS.map((value) => element("option", { value, selected: value === variant }, value)));
  const body = element("tbody");
  choose.addEventListener("change", () => {
    history.replaceState(null, "", `/leaderboard?variant=${choose.value}`);
    fill();
  });
  async function fill() {
    try {
      const { players } = await api(`/api/leaderboard?variant=${choose.value}&limit=100`);
      body.replaceChildren(
        ...(players.length
          ? players.map((row) => element("tr", {}, element("td", {}, row.place), element("td", {}, playerLink(row.name)), element("td", {}, rating(row.rating)), element("td", {}, row.matches), element("td", {}, row.wins)))
          : [element("tr", {}, element("td", { colspan: 5, class: "none" }, t("player.nobody")))]),
      );
    } catch (problem) {
      body.replaceChildren(element("tr", {}, element("td", { colspan: 5, class: "error" }, problem.message)));
    }
  }
  document.title = `${t("leaderboard.title")} · Tavola`;
  root.replaceChildren(
    element(
      "section",
      { class: "panel leaderboard" },
      element("h1", {}, t("leaderboard.title")),
      element("label", { class: "field" }, element("span", {}, t("form.variant")), choose),
      scrolled(
        "table",
        { class: "ratings" },
        element("thead", {}, element("tr", {}, ["leaderboard.place", "leaderboard.player", "player.rating", "player.matches", "player.wins"].map((key) => element("th", {}, t(key))))),
        body,
      ),
    ),
  );
  await fill();
}
