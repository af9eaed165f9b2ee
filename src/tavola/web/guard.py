"""What every request passes before it reaches a route: its origin, its body, its rate and its language.

:class:`Guard` is an ASGI middleware around the whole application:

* **Origins.** A request that changes something (every method but ``GET``,
  ``HEAD`` and ``OPTIONS``) and every WebSocket handshake must come from a
  page of the server's own origin (the ``Host`` it was asked by) or of an
  origin the server was told to trust (``tavola serve --allow-origin``). A
  browser says where a request comes from (``Origin``, ``Sec-Fetch-Site``)
  and a page cannot hide it; a program that is no browser sends neither and
  acts only with a token it was given. So a page of another site, or of
  another port of the same machine (the same *site*, whose requests carry
  the seat's cookie), can neither act nor open a seat's WebSocket.
* **Bodies.** A body is JSON and says so (``Content-Type:
  application/json``): a form or ``text/plain``, which a page of any
  origin may send without asking, is refused with 415. A body is read up to
  :data:`~tavola.web.limits.MAX_MESSAGE` bytes however it is sent, with a
  length or in chunks; past that, 413. A path named in ``uploads`` takes a
  file instead (a record to analyse): any type, up to its own size.
* **Rates.** ``POST`` requests are limited per client address; WebSocket
  connections are capped per address.
* **Language.** The request's language (``?lang=``, else
  ``Accept-Language``) is the one its answers and errors speak.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tavola.i18n import LANGUAGES, _, use_language
from tavola.web.limits import MAX_MESSAGE, RateLimits, too_large, too_many

__all__ = ["Guard", "cross_origin", "request_language"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def request_language(asked: str | None, accepted: str | None) -> str:
    """The language of a request: ``?lang=``, else the first of Accept-Language that Tavola speaks.

    >>> request_language(None, "es-ES,es;q=0.9,en;q=0.8"), request_language("it", None)
    ('es', 'it')
    >>> request_language(None, None)
    'en'
    """
    if asked in LANGUAGES:
        return asked
    for part in (accepted or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def cross_origin(headers: dict[str, str], trusted: Iterable[str] = ()) -> bool:
    """Whether a browser made this request from a page of another origin than the server's own
    (``Host``) and those ``trusted``; a request that says nothing of its origin is no browser page's.

    A browser's own ``Sec-Fetch-Site: same-origin`` is believed (a proxy may have changed ``Host``);
    an origin's default port is the same as none.

    >>> cross_origin({"host": "127.0.0.1:8080", "origin": "http://127.0.0.1:8080"})
    False
    >>> cross_origin({"host": "127.0.0.1:8080", "origin": "http://127.0.0.1:9999"})
    True
    >>> cross_origin({"host": "club.example:443", "origin": "https://Club.example"})
    False
    >>> cross_origin({"host": "127.0.0.1:8080", "sec-fetch-site": "same-site"})
    True
    >>> cross_origin({"host": "127.0.0.1:8080"})
    False
    """
    site = headers.get("sec-fetch-site")
    if site == "same-origin":
        return False
    origin = headers.get("origin")
    if origin is None:
        return site not in (None, "none")
    if origin == "null":
        return True
    seen = _origin(origin)
    if seen in {_origin(item) for item in trusted}:
        return False
    own = headers.get("host")
    return own is None or seen[1] != _netloc(seen[0], own)


def _origin(origin: str) -> tuple[str, str]:
    """An origin's scheme and host (with its port unless it is the scheme's default), in lower case."""
    parts = urlsplit(origin.strip().rstrip("/").lower())
    return parts.scheme, _netloc(parts.scheme, parts.netloc)


def _netloc(scheme: str, netloc: str) -> str:
    default = {"http": ":80", "https": ":443", "ws": ":80", "wss": ":443"}.get(scheme)
    netloc = netloc.lower()
    return netloc.removesuffix(default) if default else netloc


class Guard:
    """The middleware: origins, bodies, ``POST`` rates, WebSocket connections per address, language."""

    def __init__(
        self,
        app: App,
        *,
        posts: RateLimits,
        trusted_origins: Iterable[str] = (),
        connections_per_address: int = 16,
        uploads: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.uploads = dict(uploads or {})
        """The paths whose ``POST`` body is a file of any type, each with the most bytes it may have."""
        self.posts = posts
        self.trusted = tuple(trusted_origins)
        self.connections_per_address = connections_per_address
        self.connections: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        language = request_language(query.get("lang", [None])[0], headers.get("accept-language"))
        with use_language(language):
            if scope["type"] == "websocket":
                await self._websocket(scope, receive, send, headers)
            else:
                await self._http(scope, receive, send, headers)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send, headers: dict[str, str]) -> None:
        client = _client(scope)
        if cross_origin(headers, self.trusted) or self.connections[client] >= self.connections_per_address:
            await send({"type": "websocket.close", "code": 1008})  # before accepting: a 403 to the handshake
            return
        self.connections[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.connections[client] -= 1
            if self.connections[client] <= 0:
                del self.connections[client]

    async def _http(self, scope: Scope, receive: Receive, send: Send, headers: dict[str, str]) -> None:
        method = scope["method"]
        if method in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        if cross_origin(headers, self.trusted):
            await _refuse(send, 403, _("this server takes actions only from its own pages"))
            return
        if method == "POST" and not self.posts.allow(_client(scope)):
            await _refuse(send, 429, too_many())
            return
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        most = self.uploads.get(scope["path"]) if method == "POST" else None
        if has_body and kind != "application/json" and most is None:
            await _refuse(send, 415, _("a request's body is JSON, sent as application/json"))
            return
        most = most or MAX_MESSAGE
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > most):
            await _refuse(send, 413, too_large(most))
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > most:
                await _refuse(send, 413, too_large(most))
                return
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay(bytes(body), receive), send)


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read already, then waits for the client to go."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
