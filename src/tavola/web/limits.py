"""How much a client may send: the size of a message and how many a second.

>>> bucket = TokenBucket(capacity=2, per_second=1.0, clock=lambda: 0.0)
>>> bucket.allow(), bucket.allow(), bucket.allow()
(True, True, False)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from tavola.i18n import _

__all__ = ["MAX_CHAT", "MAX_MESSAGE", "Limits", "RateLimits", "TokenBucket", "too_large", "too_many"]

MAX_MESSAGE = 16 * 1024
"""The most bytes a request's body or a WebSocket message may have."""

MAX_CHAT = 500
"""The most characters a chat message may have."""


@dataclass(frozen=True)
class Limits:
    """How much one client may ask: WebSocket connections per address, WebSocket messages per address
    (a burst, then a rate; each connection also has its own, of 20 and 5 a second), and hints per seat
    (an address gets four times a seat's)."""

    connections_per_address: int = 16
    messages_at_once: float = 30
    messages_per_second: float = 10
    hints_at_once: float = 3
    hints_per_second: float = 0.2


def too_large(most: int = MAX_MESSAGE) -> str:
    """What a message past ``most`` bytes (:data:`MAX_MESSAGE` unless told) is told."""
    return _("the message is too large: at most {most} bytes").format(most=most)


def too_many() -> str:
    """What a request past its rate is told."""
    return _("too many requests: wait a moment and try again")


class TokenBucket:
    """``capacity`` messages at once, refilled at ``per_second``: a burst, then a steady rate."""

    def __init__(
        self, capacity: float, per_second: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.per_second = per_second
        self.clock = clock
        self.tokens = capacity
        self.last = clock()

    def allow(self) -> bool:
        """Take one message's token; False when there is none left (the message is refused)."""
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RateLimits:
    """One :class:`TokenBucket` per client address, the least recently seen forgotten past ``most``.

    >>> limits = RateLimits(capacity=1, per_second=0.0)
    >>> limits.allow("10.0.0.1"), limits.allow("10.0.0.1"), limits.allow("10.0.0.2")
    (True, False, True)
    """

    def __init__(self, capacity: float, per_second: float, most: int = 10_000) -> None:
        self.capacity = capacity
        self.per_second = per_second
        self.most = most
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, client: str) -> bool:
        """Take one of ``client``'s tokens (from any thread); False when it has none left."""
        with self._lock:
            bucket = self._buckets.pop(client, None) or TokenBucket(self.capacity, self.per_second)
            self._buckets[client] = bucket
            while len(self._buckets) > self.most:
                self._buckets.popitem(last=False)
            return bucket.allow()
