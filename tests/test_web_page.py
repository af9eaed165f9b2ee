"""The page in a real browser (headless Chromium through Playwright), against ``tavola serve`` in its own
process: two people play a game to the end by clicking, a chouette's team answers a double two ways, a
spectator sees each play, a page closed and opened again resumes, and a server killed with kill -9 and
started again loses nothing while the page reconnects by itself.

Screenshots of the board go to the test's folder, and to $TAVOLA_ARTEFACTS where it is set.

Every wait is bounded: each page waits at most ``WAIT`` for anything (Playwright's default timeout, set on
every context), a click at most ``CLICK``, and a test player that gets nowhere for ``STALLED`` seconds
or plays past ``PLAY_LIMIT`` fails, saying what it saw. (Reading a page's state has no timeout of its
own: the suite's limit for every test, in pyproject.toml, is there for a page that stops answering.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")

from web_helpers import Server, screenshot  # noqa: E402 (after the skips)

WAIT = 30_000  # milliseconds a page may take to show what the server sent
CLICK = 3_000  # milliseconds a click may wait for its element
PLAY_LIMIT = 180.0  # seconds a test's game may last (15 to 30 s, alone or on a loaded machine)
STALLED = 60.0  # seconds a test player may act without the table moving on

Page = Any


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "server.sqlite3")
    yield running
    running.kill()


def _context(browser: Any, **options: Any) -> Any:
    """A browser context whose pages wait at most ``WAIT`` for anything, navigations included, and ask
    for reduced motion: these tests play whole games through the page, whose moves and dice then do not
    slide or tumble (``test_web_page_moves.py`` watches them move)."""
    context = browser.new_context(**{"reduced_motion": "reduce", **options})
    context.set_default_timeout(WAIT)
    context.set_default_navigation_timeout(WAIT)
    return context


def _state(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("window.tavolaTable.state"))


def _version(page: Page) -> int:
    return int(page.get_attribute("#main", "data-version"))


def _wait_version(page: Page, version: int) -> None:
    """Until the page shows the state after ``version`` (the server numbers its states by actions)."""
    page.wait_for_function(
        "v => Number(document.querySelector('#main').dataset.version) >= v", arg=version, timeout=WAIT
    )


def _wait_change(page: Page, seen: dict[str, Any]) -> None:
    """Until the page shows a state other than ``seen``: a later version, or the same one with another
    status or other seats to act (a game's last action is sent while the table is still live, with nobody
    to act, then again once the table is finished)."""
    page.wait_for_function(
        """seen => {
            const now = window.tavolaTable.state;
            return now.version !== seen.version || now.status !== seen.status
                || now.to_act.join() !== seen.to_act.join();
        }""",
        arg={key: seen[key] for key in ("version", "status", "to_act")},
        timeout=WAIT,
    )


def _shown(page: Page) -> tuple[int, str]:
    """The version a page shows and its last play, read together."""
    version, text = page.evaluate(
        "() => [Number(document.querySelector('#main').dataset.version),"
        " document.querySelector('#last-play')?.innerText ?? '']"
    )
    return int(version), str(text)


def _same_last_play(page: Page, watcher: Page) -> str:
    """The last play ``page`` shows, once ``watcher`` shows the same version, and the same play. The
    table may move on meanwhile (a forced roll or play): the two are compared at one version."""
    deadline = time.monotonic() + WAIT / 1000
    while True:
        version, text = _shown(page)
        _wait_version(watcher, version)
        watched, watched_text = _shown(watcher)
        if watched == version:
            assert watched_text == text, (version, watched_text, text)
            return text
        assert time.monotonic() < deadline, f"the pages never showed one version: {version}, {watched}"
        time.sleep(0.05)


def _open(context: Any, url: str) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(url)
    return page


def _sit(page: Page, seat: int, name: str) -> None:
    page.fill(f"#sit-{seat} input", name, timeout=WAIT)
    page.click(f"#sit-{seat} button", timeout=WAIT)
    page.wait_for_selector(f"#main[data-you='{seat}']", timeout=WAIT)


def _click_move(page: Page, move: str) -> None:
    """Click the checker, see its destinations highlighted, click the destination. A checker left
    picked up by an earlier try (a click on it again would put it down) is used, or put down first."""
    source, destination = move.replace("*", "").split("/")
    source = "bar" if source == "in" else source
    picked = page.evaluate("window.tavolaTable.selected")
    if picked not in (None, source):
        page.click(f"#board [data-point='{picked}']", timeout=CLICK)
    if picked != source:
        page.click(f"#board [data-point='{source}']", timeout=CLICK)
    page.wait_for_selector(f"#board [data-point='{destination}'].target", timeout=CLICK)
    page.click(f"#board [data-point='{destination}']", timeout=CLICK)


def _act(page: Page, choose: Any) -> dict[str, Any] | None:
    """Click what ``choose(state)`` picks: ("button", action), ("move", "13/7") or ("play", "13/7 13/9");
    wait for the state it makes. The action clicked comes back; None when the page was showing a state
    the table had already left (a bot or a forced roll acted meanwhile), for the caller to look again."""
    before = _state(page)
    if not before["legal_actions"]:
        time.sleep(0.05)
        return None
    kind, what = choose(before)
    assert kind != "button" or what["action"] not in ("move", "play"), f"{what} is no button: {before}"
    try:
        if kind == "move":
            _click_move(page, what)
        elif kind == "play":  # the list of plays is folded in the side column: open it first
            page.evaluate(
                "() => { const panel = document.querySelector('#plays-panel'); if (panel) panel.open = true; }"
            )
            page.click(f"#plays button[data-play='{what}']", timeout=CLICK)
        else:
            selector = f"#actions button[data-action='{what['action']}']"
            if "against" in what:
                selector += f"[data-against='{','.join(what['against'])}']"
            page.click(selector, timeout=CLICK)
        page.wait_for_function(
            "v => Number(document.querySelector('#main').dataset.version) > v"
            " || !document.querySelector('#error').hidden",
            arg=before["version"],
            timeout=WAIT,
        )
    except sync_api.TimeoutError:
        return None
    if _version(page) <= before["version"]:
        return None  # refused: the page says why, and the state it showed was already old
    return {"kind": kind, "what": what}


def _check_hint(page: Page) -> str:
    """The hint panel as the page shows it; its kind. A roll's plays: every row shows its loss against the
    first row, in the order ranked. The cube: the advice in words, and a row for each equity (before the
    roll) or each answer open (to a double)."""
    hint = page.evaluate("window.tavolaTable.hint")
    if "cube" in hint:
        assert page.locator("#hint .hint-advice").inner_text().strip()
        figures = hint["answers"] if hint["kind"] == "answer" else {
            name: value for name, value in hint["cube"].items()
            if name in ("no_double", "double_take", "double_pass", "double_beaver") and value is not None
        }  # fmt: skip
        assert page.locator("#hint li").count() == len(figures)
        return str(hint["kind"])
    choices = hint.get("doubles") or hint["plays"]
    shown = page.locator("#hint li .loss").all_inner_texts()
    assert len(shown) == len(choices) == page.locator("#hint li").count()
    for choice, loss in zip(choices, shown, strict=True):
        assert choice["loss"] == pytest.approx(choice["equity"] - choices[0]["equity"], abs=2e-4)
        assert float(loss) == pytest.approx(choice["loss"], abs=6e-4)  # shown to three decimals
    assert shown[0] == "0.000"
    return str(hint["kind"])


def _named(legal: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((action for action in legal if action["action"] == name), None)


def _a_button(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The first legal action the page shows as a button (checker moves and whole plays are not)."""
    buttons = [action for action in legal if action["action"] not in ("move", "play")]
    assert buttons, f"no button among {legal}"
    return buttons[0]


class _Player:
    """Bounds a test player's loop by time: the whole game (``PLAY_LIMIT``), and tries that leave the
    table where it was (``STALLED``); either fails the test with the last state seen, never loops on."""

    def __init__(self) -> None:
        self.started = self.moved = time.monotonic()

    def tried(self, done: dict[str, Any] | None, seen: dict[str, Any]) -> None:
        now = time.monotonic()
        if done is not None:
            self.moved = now
        assert now - self.moved < STALLED, f"nothing done for {STALLED:.0f} s: {seen}"
        assert now - self.started < PLAY_LIMIT, f"still playing after {PLAY_LIMIT:.0f} s: {seen}"


# --- two people -------------------------------------------------------------------------------


def test_two_people_play_a_game_by_clicking_with_the_cube_a_spectator_and_a_page_reopened(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    started = time.monotonic()
    ann_context, bob_context, watcher_context = (_context(browser) for _ in range(3))
    ann = _open(ann_context, server.url + "/")
    ann.fill("#play-friend input[name=name]", "Ann")
    ann.select_option("#play-friend select[name=series]", "single")
    ann.click("#play-friend button[type=submit]")
    ann.wait_for_selector("#invite-1", timeout=WAIT)
    invite = ann.input_value("#invite-1")
    assert invite.endswith("?seat=1")
    table = _state(ann)["id"]

    bob = _open(bob_context, invite)
    _sit(bob, 1, "Bob")
    ann.wait_for_selector("#main[data-status='live']", timeout=WAIT)
    watcher = _open(watcher_context, f"{server.url}/t/{table}")
    watcher.wait_for_selector("#main[data-status='live']", timeout=WAIT)
    assert "watching" in watcher.inner_text("#you")
    screenshot(ann, tmp_path, "page-two-people-start", whole=True)

    pages = {0: ann, 1: bob}
    doubled = {"offered": False, "taken": False}
    clicked_moves = 0
    reopened = False
    plays_seen = 0

    def choose(seen: dict[str, Any]) -> tuple[str, Any]:
        legal = seen["legal_actions"]
        for name in ("take", "accept", "commit"):
            if action := _named(legal, name):
                return "button", action
        if not doubled["offered"] and (action := _named(legal, "double")):
            return "button", action
        if action := _named(legal, "roll"):
            return "button", action
        moves = [action["moves"] for action in legal if action["action"] == "move"]
        plays = [action["play"] for action in legal if action["action"] == "play"]
        # Twelve checkers moved by clicking, then whole plays from the list; a turn begun by clicking
        # (no list of plays any more) is finished by clicking, whatever the roll (a double has four).
        if moves and (clicked_moves < 12 or not plays):
            return "move", moves[0]
        if plays:
            return "play", plays[0]
        return "button", _a_button(legal)

    player = _Player()
    for _ in range(600):
        seen = _state(ann)
        if seen["status"] == "finished":
            break
        if not seen["to_act"]:  # the game is over, the table not yet finished
            _wait_change(ann, seen)
            continue
        seat = seen["to_act"][0]
        page = pages[seat]
        _wait_version(page, seen["version"])
        done = _act(page, choose)
        player.tried(done, seen)
        if done is None:
            continue
        if done["kind"] == "move":
            clicked_moves += 1
        if done["kind"] == "button" and done["what"]["action"] == "double":
            doubled["offered"] = True
        if done["kind"] == "button" and done["what"]["action"] == "take":
            doubled["taken"] = True
            cube = _state(page)["game"]["cube"]
            assert cube == {"value": 2, "owner": seat}
            assert page.get_attribute("#board .cube", "data-owner") == "near"
        if _same_last_play(page, watcher):
            plays_seen += 1
        assert watcher.locator("#actions button").count() == 0
        if not reopened and clicked_moves >= 6 and seen["game"]["phase"] == "roll":
            reopened = True  # Bob closes the page and opens it again: the seat is his, the state the same
            bob.close()
            bob = _open(bob_context, f"{server.url}/t/{table}")
            bob.wait_for_selector("#main[data-you='1']", timeout=WAIT)
            _wait_version(bob, _version(ann))
            assert _state(bob)["version"] == _state(ann)["version"]
            pages[1] = bob
        if clicked_moves == 3:
            screenshot(page, tmp_path, "page-two-people-moving", whole=True)
    final = _state(ann)
    assert final["status"] == "finished"
    assert doubled == {"offered": True, "taken": True}
    assert reopened
    assert clicked_moves >= 12
    assert plays_seen > 10
    _wait_version(watcher, final["version"])
    assert "wins" in ann.inner_text("#outcome")
    ann.wait_for_selector("#secret", timeout=WAIT)
    ann.wait_for_selector("#verified.ok", timeout=WAIT)
    assert ann.inner_text("#secret") == final["dice"]["secret"]
    assert ann.get_attribute("#download-mat", "href") == f"/api/tables/{table}/record.mat"
    mat = ann.request.get(server.url + f"/api/tables/{table}/record.mat")
    assert "Ann" in mat.text()
    assert "Bob" in mat.text()
    report = ann.get_attribute("#analysis-report", "href")
    assert report is not None
    assert report.startswith(f"/api/tables/{table}/analysis.html")
    analysed = ann.request.get(server.url + report + "&level=0-ply")
    assert analysed.ok
    assert "Ann" in analysed.text()
    assert "<svg" in analysed.text()
    screenshot(watcher, tmp_path, "page-two-people-end", whole=True)
    for page in (ann, bob, watcher):
        assert page.errors == []
    print(f"two people: {time.monotonic() - started:.1f} s")


# --- a chouette ---------------------------------------------------------------------------------


def test_a_chouette_of_three_people_and_the_bot_whose_team_answers_a_double_two_ways(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    started = time.monotonic()
    contexts = [_context(browser) for _ in range(3)]
    names = ["Ann", "Bob", "Cy"]
    for _attempt in range(12):  # the order is drawn: play where a person has the box
        ann = _open(contexts[0], server.url + "/")
        ann.fill("#chouette input[name=name]", "Ann")
        ann.fill("#chouette input[name=seats]", "4")
        ann.fill("#chouette input[name=bots]", "1")
        ann.select_option("#chouette select[name=level]", "beginner")
        ann.click("#chouette button[type=submit]")
        ann.wait_for_selector("#invite-2", timeout=WAIT)
        pages = {0: ann}
        for seat in (1, 2):
            page = _open(contexts[seat], ann.input_value(f"#invite-{seat}"))
            _sit(page, seat, names[seat])
            pages[seat] = page
        ann.wait_for_selector("#main[data-status='live']", timeout=WAIT)
        game = _state(ann)["game"]
        if game["box"] in names:
            break
        for page in pages.values():
            page.close()
    else:
        raise AssertionError("the bot had the box twelve times")
    box = names.index(game["box"])
    team = [seat for seat, name in enumerate(names) if name in game["team"]]
    answers: dict[int, str] = {}

    def choose(seen: dict[str, Any]) -> tuple[str, Any]:
        legal = seen["legal_actions"]
        you = seen["you"]
        doubles = [action for action in legal if action["action"] == "double"]
        if you == box and not answers and doubles:  # against the whole team
            return "button", max(doubles, key=lambda action: (not action["against"], len(action["against"])))
        if _named(legal, "take") and you in team and you not in answers:
            answer = "take" if "take" not in answers.values() else "drop"
            return "button", _named(legal, answer)
        for name in ("take", "roll", "commit", "decline_extra", "decline_partnership", "end_session"):
            if action := _named(legal, name):
                return "button", action
        plays = [action["play"] for action in legal if action["action"] == "play"]
        if plays:
            return "play", plays[0]
        return "button", _a_button(legal)

    talked = False
    player = _Player()
    for _ in range(600):
        seen = _state(ann)
        if seen["status"] == "finished":
            break
        people = [seat for seat in seen["to_act"] if seat in pages]
        if not people:  # the bot acts, or the game is over and the table not yet finished
            _wait_change(ann, seen)
            continue
        page = pages[people[0]]
        _wait_version(page, seen["version"])
        done = _act(page, choose)
        player.tried(done, seen)
        if (
            done
            and done["kind"] == "button"
            and done["what"]["action"] in ("take", "drop")
            and people[0] in team
        ):
            answers[people[0]] = done["what"]["action"]
        if len(answers) == 2 and not talked and not _state(ann)["game"].get("is_over"):
            talked = True
            speaker, listeners = team[0], team[1:]
            pages[speaker].select_option("#chat-scope", "team")
            pages[speaker].fill("#chat-text", "we split it")
            pages[speaker].click(".chat-form button")
            for seat in listeners:
                pages[seat].wait_for_selector("#messages li.team >> text=we split it", timeout=WAIT)
            pages[box].fill("#chat-text", "good luck")
            pages[box].click(".chat-form button")
            for seat in pages:
                pages[seat].wait_for_selector("#messages >> text=good luck", timeout=WAIT)
            assert "we split it" not in pages[box].inner_text("#messages")
            screenshot(pages[team[0]], tmp_path, "page-chouette-after-the-double", whole=True)
    final = _state(ann)
    assert final["status"] == "finished", final["game"]
    people_in_team = [seat for seat in team if seat in pages]
    assert sorted(answers.values()) == sorted(["take", "drop"][: len(people_in_team)])
    assert set(answers) == set(people_in_team)
    assert talked
    bets = {bet["team_side"]: bet for bet in final["game"]["bets"]}
    for seat, answer in answers.items():
        bet = bets[names[seat]]
        if answer == "take":  # the cube taken (and perhaps turned again later)
            assert bet["cube"]["value"] >= 2
        else:  # the dropped bet ended there, at the cube's value before the double
            assert bet["live"] is False
            assert bet["cube"]["value"] == 1
    screenshot(ann, tmp_path, "page-chouette-end", whole=True)
    for page in pages.values():
        assert page.errors == []
    print(f"chouette: {time.monotonic() - started:.1f} s")


# --- the bot, a phone, the languages and a server killed -----------------------------------------


def test_the_page_reconnects_to_a_server_killed_and_started_again_losing_nothing(
    browser: Any, tmp_path: Path
) -> None:
    started = time.monotonic()
    database = tmp_path / "server.sqlite3"
    server = Server(database)
    try:
        context = _context(browser, viewport={"width": 390, "height": 844}, locale="it-IT")
        page = _open(context, server.url + "/")
        assert page.inner_text("#play-bot h2") == "Gioca contro il bot"
        page.fill("#play-bot input[name=name]", "Ann")
        page.select_option("#play-bot select[name=level]", "beginner")
        page.click("#play-bot button[type=submit]")
        page.wait_for_selector("#main[data-status='live']", timeout=WAIT)
        page.wait_for_selector("#to-act.mine", timeout=WAIT)
        board = page.locator("#board svg").bounding_box()
        assert 300 < board["width"] <= 390  # the board fits a phone's screen
        page.select_option("#language", "en")
        page.wait_for_selector("#to-act >> text=Your turn", timeout=WAIT)

        def choose(seen: dict[str, Any]) -> tuple[str, Any]:
            legal = seen["legal_actions"]
            for name in ("roll", "commit", "take"):
                if action := _named(legal, name):
                    return "button", action
            moves = [action["moves"] for action in legal if action["action"] == "move"]
            if moves:
                return "move", moves[0]
            return "button", _a_button(legal)

        hinted: set[str] = set()
        for _ in range(8):
            page.wait_for_selector("#to-act.mine", timeout=WAIT)
            phase = _state(page)["game"]["phase"]
            wanted = {"roll": "cube", "move": "plays"}.get(phase)  # one hint of each kind: they are rationed
            if wanted not in hinted and page.locator("#hint-button").count():
                page.click("#hint-button")
                page.wait_for_selector("#hint li", timeout=WAIT)
                kind = _check_hint(page)
                if kind not in hinted:
                    screenshot(page, tmp_path, f"page-phone-hint-{kind}", whole=True)
                hinted.add(kind)
            _act(page, choose)
        assert {"plays", "cube"} <= hinted
        page.wait_for_selector("#to-act.mine", timeout=WAIT)
        before = _state(page)

        server.kill()
        page.wait_for_selector("#banner:not([hidden])", timeout=WAIT)
        server = Server(database, port=server.port)
        page.wait_for_selector("#banner[hidden]", state="attached", timeout=WAIT)
        page.wait_for_function(
            "v => window.tavolaTable.state.version === v && window.tavolaTable.socket.readyState === 1",
            arg=before["version"],
            timeout=WAIT,
        )
        after = _state(page)
        assert after == before
        assert _act(page, choose) is not None
        assert _state(page)["version"] > before["version"]
        screenshot(page, tmp_path, "page-phone-after-restart", whole=True)
        assert page.errors == []
    finally:
        server.kill()
    print(f"reconnect: {time.monotonic() - started:.1f} s")


# --- Acey-Deucey ---------------------------------------------------------------------------------


def test_V2_acey_deucey_checkers_waiting_to_enter_are_drawn_in_the_trays_and_leave_them_as_they_enter(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    created = server.client.post(
        "/api/tables", json={"kind": "game", "series": "single", "variant": "acey-deucey", "seats": [{}, {}]}
    )
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    tokens = {}
    for seat, name in ((0, "Ann"), (1, "Bob")):
        sat = server.client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
        assert sat.status_code == 200, sat.text
        server.client.cookies.clear()
        tokens[seat] = sat.json()["token"]
    page = _open(_context(browser), f"{server.url}/t/{table}")
    page.wait_for_selector("#main[data-status='live']", timeout=WAIT)
    # All fifteen of each side wait to enter (V2), none on the board, the bar or borne off.
    assert page.locator("#board .waiting").count() == 30
    assert page.locator("#board .checker").count() == 0
    screenshot(page, tmp_path, "page-acey-deucey-start", whole=True)

    entered = 0
    for _ in range(40):  # act until a play has entered checkers
        found = server.act_once(table, tokens)
        position = found["game"]["position"]
        entered = 30 - sum(position["waiting"])
        if entered:
            break
    assert entered > 0
    page.wait_for_function(
        "n => document.querySelectorAll('#board .waiting').length === n", arg=30 - entered, timeout=WAIT
    )
    assert page.locator("#board .checker").count() > 0
    screenshot(page, tmp_path, "page-acey-deucey-entered", whole=True)
    assert page.errors == []
