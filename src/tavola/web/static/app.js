// The page's entry: the language, then the lobby at "/", a table at "/t/{id}", or an analysis to step
// through at "/analysis", "/analysis/{job}" and "/t/{id}/analysis"; a player's page at "/players/{name}",
// the leaderboard at "/leaderboard"; the tournaments at "/tournaments" and "/tournaments/{id}"; and in the header, the account (log in, sign up, log out).

import { showLobby } from "./lobby.js";
import { TablePage } from "./table.js";
import { ReviewPage } from "./review.js";
import { preferredLanguage, translate, useLanguage } from "./i18n.js";
import { showAccount } from "./account.js";
import { showLeaderboard, showPlayer } from "./players.js";
import { showTournament, showTournaments } from "./tournaments.js";

let lobbyTimer = null;
let tournamentTimer = null;

function lobby() {
  clearInterval(lobbyTimer);
  lobbyTimer = showLobby(document.getElementById("main"));
}

async function show() {
  const main = document.getElementById("main");
  const review = location.pathname.match(/^\/(?:analysis(?:\/([A-Za-z0-9_-]+))?|t\/([A-Za-z0-9_-]+)\/analysis)\/?$/);
  const found = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/);
  const player = location.pathname.match(/^\/players\/([^/]+)\/?$/);
  if (player) return showPlayer(main, decodeURIComponent(player[1]));
  const tournament = location.pathname.match(/^\/tournaments(?:\/([0-9a-f]+))?\/?$/);
  if (tournament) {
    clearInterval(tournamentTimer);
    tournamentTimer = tournament[1] ? showTournament(main, tournament[1]) : showTournaments(main);
    return;
  }
  if (/^\/leaderboard\/?$/.test(location.pathname)) {
    return showLeaderboard(main, new URLSearchParams(location.search).get("variant") || "standard");
  }
  if (review) {
    const page = new ReviewPage(main, { job: review[1] || null, table: review[2] || null });
    window.tavolaReview = page;
    await page.start();
  } else if (found) {
    const seat = new URLSearchParams(location.search).get("seat");
    const page = new TablePage(main, found[1], seat === null ? null : Number(seat));
    window.tavolaTable = page;
    await page.start();
  } else {
    lobby();
  }
}

async function start() {
  await useLanguage(preferredLanguage());
  translate();
  const switcher = document.getElementById("language");
  switcher.value = preferredLanguage();
  switcher.addEventListener("change", async () => {
    await useLanguage(switcher.value, true);
    translate();
    if (window.tavolaTable) window.tavolaTable.relanguage();
    else if (window.tavolaReview) window.tavolaReview.relanguage();
    else show();
  });
  showAccount(document.getElementById("account"));
  await show();
}

start();
