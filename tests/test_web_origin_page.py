"""A page of another origin on the same machine (another port of 127.0.0.1: the same site, so the browser
sends the seat's cookie with its requests) can neither act for a seated person nor open their seat's
WebSocket, in a real Chromium."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")

from web_helpers import Server, free_port

WAIT = 20_000

OTHER_PAGE = """<!doctype html>
<html><body><p>Another page on this machine</p>
<script type="module">
const target = "TARGET", table = "TABLE";
const results = {};
const resign = JSON.stringify({action: "resign", kind: "single"});
try {
  // A simple request: no preflight, the cookie rides along, the answer unreadable.
  await fetch(`http://${target}/api/tables/${table}/actions`, {
    method: "POST", mode: "no-cors", credentials: "include",
    headers: {"Content-Type": "text/plain"}, body: resign,
  });
  results.simple = "sent";
} catch (error) { results.simple = String(error); }
try {
  await fetch(`http://${target}/api/tables/${table}/actions`, {
    method: "POST", credentials: "include", headers: {"Content-Type": "application/json"}, body: resign,
  });
  results.json = "answered";
} catch (error) { results.json = String(error); }
await new Promise((done) => {
  const socket = new WebSocket(`ws://${target}/api/tables/${table}/live`);
  socket.onopen = () => { results.opened = true; };
  socket.onmessage = (message) => {
    results.greeted = JSON.parse(message.data).state?.you ?? null;
    socket.send(JSON.stringify({type: "act", action: {action: "resign", kind: "single"}}));
  };
  socket.onclose = (event) => { results.closed = event.code; done(); };
  setTimeout(done, 5000);
});
window.results = results;
</script></body></html>
"""


@pytest.fixture
def other_site(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """A plain file server on another port of 127.0.0.1, serving ``tmp_path / "other"``."""
    folder = tmp_path / "other"
    folder.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(folder))
    port = free_port()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield port, folder
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_a_page_on_another_port_cannot_act_for_a_seated_person(
    tmp_path: Path, browser: Any, other_site: tuple[int, Path]
) -> None:
    server = Server(tmp_path / "server.sqlite3")
    try:
        context = browser.new_context()
        context.set_default_timeout(WAIT)
        own = context.new_page()
        own.goto(server.url + "/")
        table = own.evaluate(
            """async () => {
                const made = await fetch("/api/tables", {method: "POST", headers: {"content-type": "application/json"},
                    body: JSON.stringify({kind: "game", series: "single", seats: [{}, {}]})});
                const table = (await made.json()).id;
                await fetch(`/api/tables/${table}/seats/0`, {method: "POST",
                    headers: {"content-type": "application/json"}, body: JSON.stringify({name: "Ann"})});
                return table;
            }"""
        )
        bob = server.client.post(f"/api/tables/{table}/seats/1", json={"name": "Bob"})
        assert bob.status_code == 200
        # The seat's cookie works for the server's own page...
        assert own.evaluate(f"async () => (await (await fetch('/api/tables/{table}')).json()).you") == 0
        before = server.state(table, bob.json()["token"])
        assert before["status"] == "live"

        port, folder = other_site
        (folder / "other.html").write_text(
            OTHER_PAGE.replace("TARGET", f"127.0.0.1:{server.port}").replace("TABLE", table), encoding="utf-8"
        )
        other = context.new_page()
        other.goto(f"http://127.0.0.1:{port}/other.html")
        other.wait_for_function("() => window.results !== undefined", timeout=WAIT)
        results = other.evaluate("window.results")
        context.close()

        after = server.state(table, bob.json()["token"])
        assert (after["version"], after["status"]) == (before["version"], "live")
        assert after["game"]["resignation"] is None
        assert "greeted" not in results, results  # the seat's WebSocket was never opened for that page
        assert "opened" not in results, results
    finally:
        server.kill()
