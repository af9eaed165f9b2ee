// The page's entry: the language, then the lobby at "/" or a table at "/t/{id}".

import { showLobby } from "./lobby.js";
import { TablePage } from "./table.js";
import { preferredLanguage, translate, useLanguage } from "./i18n.js";

let lobbyTimer = null;

function lobby() {
  clearInterval(lobbyTimer);
  lobbyTimer = showLobby(document.getElementById("main"));
}

async function show() {
  const main = document.getElementById("main");
  const found = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/);
  if (found) {
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
    else lobby();
  });
  await show();
}

start();
