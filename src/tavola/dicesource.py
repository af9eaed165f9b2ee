"""Dice sources: where the dice of a game come from.

Every part of Tavola that rolls takes a :class:`DiceSource` instead of
rolling itself, so a caller chooses the dice:

* :class:`RandomDice` -- fair random dice, from OS entropy or, given a seed,
  reproducible;
* :class:`ManualDice` -- dice entered by a person, to record a game played on
  a real board;
* :class:`VerifiableDice` -- commit-reveal dice for play against someone you
  do not trust: the roller publishes a commitment before the game and the
  secret after it, and anyone can check every die with :func:`verify`;
* :func:`default_dice` -- a :class:`RandomDice` on OS entropy, for callers that
  do not care.

>>> RandomDice(seed=7).roll()
Dice(3, 2)
>>> manual = ManualDice(["64"])
>>> manual.roll()
Dice(6, 4)

The verifiable dice scheme (``tavola-dice-v1``)
-----------------------------------------------
This is Tavola's own scheme, described here precisely enough for another
program to re-implement it.

* The *secret* is a byte string; :class:`VerifiableDice` draws 32 bytes from
  :func:`secrets.token_bytes` unless given one, and refuses fewer than 16.
* The *commitment* is the SHA-256 digest of the secret bytes, written as 64
  lower-case hexadecimal digits. It is published before the first die.
* The secret is revealed as lower-case hexadecimal (upper case is accepted
  when read back).
* The dice form one stream. For the block counter ``n = 0, 1, 2, ...`` the
  block ``B(n) = HMAC-SHA256(key=secret, message=n)`` is computed, where the
  message is ``n`` written as an 8-byte **unsigned big-endian** integer (block
  0's message is eight zero bytes; block 1's ends in ``0x01``). Each block is
  32 bytes.
* The bytes of ``B(0)``, then of ``B(1)``, and so on, are read in order, first
  byte to last. A byte ``b`` with ``b >= 252`` is **rejected** (skipped and
  gives no die). Any other byte gives one die showing ``(b mod 6) + 1``.
  Since ``252 = 6 * 42``, each face comes from exactly 42 of the 252 accepted
  byte values, so each face has probability exactly 1/6 with no modulo bias.
* Die ``k`` (counting from 0) is the ``k``-th die of this stream. Nothing is
  discarded apart from rejected bytes: the dice left in a block are used by
  the next rolls before the next block is computed.
* :meth:`VerifiableDice.roll_die` takes one die of the stream;
  :meth:`VerifiableDice.roll` takes two (the turn's :class:`~tavola.dice.Dice`
  then lists them larger first); :meth:`VerifiableDice.roll_opening` takes two,
  player 0's die first. :attr:`VerifiableDice.rolls_so_far` lists every die in
  the order it was taken from the stream, before any sorting, and this is the
  sequence :func:`verify` checks.

>>> derive_dice("00" * 32, 10)
[4, 4, 1, 5, 1, 3, 5, 1, 2, 2]
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from tavola.dice import Dice
from tavola.errors import DiceNeededError, DiceVerificationError, InvalidDiceError, InvalidSecretError
from tavola.i18n import N_, _, ngettext

__all__ = [
    "MIN_SECRET_BYTES",
    "SECRET_BYTES",
    "DiceSource",
    "ManualDice",
    "RandomDice",
    "VerifiableDice",
    "default_dice",
    "derive_dice",
    "verify",
]

SECRET_BYTES = 32
"""Length of the secret :class:`VerifiableDice` draws when not given one."""

MIN_SECRET_BYTES = 16
"""Shortest secret :class:`VerifiableDice` accepts: a shorter one could be guessed from its commitment."""

_REJECT_FROM = 252  # bytes 252-255 give no die: 252 = 6 * 42 keeps every face at exactly 1/6


@runtime_checkable
class DiceSource(Protocol):
    """Where a game's dice come from.

    Any object with these three methods is a dice source; it need not inherit
    from this class. Every die is a fair die from 1 to 6 (or, for
    :class:`ManualDice`, whatever was rolled on the real board).

    >>> isinstance(RandomDice(seed=1), DiceSource)
    True
    """

    def roll_die(self) -> int:
        """One die, 1 to 6."""
        ...

    def roll(self) -> Dice:
        """The two dice of a turn."""
        ...

    def roll_opening(self) -> tuple[int, int]:
        """The opening roll: player 0's die, then player 1's.

        The two may be equal; a tie is the game's business, and it calls
        again.
        """
        ...


def _check_die(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise InvalidDiceError(_("a die shows 1 to 6, not {value}").format(value=repr(value)))
    return value


class RandomDice:
    """Fair random dice, from OS entropy or reproducible from a seed.

    ``RandomDice()`` draws from the operating system's entropy
    (:class:`random.SystemRandom`); ``RandomDice(seed)`` uses
    ``random.Random(seed)``, so the same seed gives the same dice;
    ``RandomDice(rng=generator)`` draws from an existing
    :class:`random.Random`, which it shares with its owner. For the same
    generator state ``roll()`` gives what :meth:`Dice.roll` gives.

    >>> dice = RandomDice(seed=7)
    >>> dice
    RandomDice(seed=7)
    >>> dice.roll(), dice.roll_die(), dice.roll_opening()
    (Dice(3, 2), 4, (6, 1))
    >>> [RandomDice(seed=7).roll() for _ in range(2)]
    [Dice(3, 2), Dice(3, 2)]
    """

    __slots__ = ("_rng", "_seed")

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        if seed is not None and rng is not None:
            raise TypeError("RandomDice takes a seed or an rng, not both")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise TypeError(f"a seed is an int, not {seed!r}")
        if rng is not None and not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
        self._seed = seed
        if rng is not None:
            self._rng = rng
        elif seed is not None:
            self._rng = random.Random(seed)
        else:
            self._rng = random.SystemRandom()

    @property
    def seed(self) -> int | None:
        """The seed given, or ``None`` (OS entropy, or a generator passed as ``rng``)."""
        return self._seed

    @property
    def rng(self) -> random.Random:
        """The generator the dice are drawn from."""
        return self._rng

    def roll_die(self) -> int:
        return self._rng.randint(1, 6)

    def roll(self) -> Dice:
        first = self._rng.randint(1, 6)
        return Dice(first, self._rng.randint(1, 6))

    def roll_opening(self) -> tuple[int, int]:
        first = self._rng.randint(1, 6)
        return (first, self._rng.randint(1, 6))

    def __repr__(self) -> str:
        if self._seed is not None:
            return f"RandomDice(seed={self._seed!r})"
        if type(self._rng) is random.SystemRandom:
            return "RandomDice(seed=None)"
        return f"RandomDice(rng=<{type(self._rng).__module__}.{type(self._rng).__qualname__} object>)"


_Kind = Literal["roll", "die", "opening"]

_NONE_ENTERED: dict[_Kind, str] = {
    # TRANSLATORS: enter(...), enter_die(...) and enter_opening(...) are Python methods: keep them as written.
    "roll": N_(
        "no dice entered: a turn's roll (two dice, such as 31 or 3-1) is needed; enter it with enter(...)"
    ),
    "die": N_("no dice entered: a single die is needed; enter it with enter_die(...)"),
    "opening": N_(
        "no dice entered: an opening roll (one die for each player) is needed; "
        "enter it with enter_opening(...)"
    ),
}
"""What :class:`ManualDice` says when nothing is queued, by the kind of dice asked for."""

_OTHER_KIND: dict[tuple[_Kind, _Kind], str] = {
    ("roll", "die"): N_(
        "a turn's roll (two dice, such as 31 or 3-1) is needed, but the next dice entered are the die {first}"
    ),
    ("roll", "opening"): N_(
        "a turn's roll (two dice, such as 31 or 3-1) is needed, "
        "but the next dice entered are the opening {first} and {second}"
    ),
    ("die", "roll"): N_("a single die is needed, but the next dice entered are the roll {first}{second}"),
    ("die", "opening"): N_(
        "a single die is needed, but the next dice entered are the opening {first} and {second}"
    ),
    ("opening", "roll"): N_(
        "an opening roll (one die for each player) is needed, "
        "but the next dice entered are the roll {first}{second}"
    ),
    ("opening", "die"): N_(
        "an opening roll (one die for each player) is needed, but the next dice entered are the die {first}"
    ),
}
"""What :class:`ManualDice` says when the next entry is of another kind: (asked for, entered)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    kind: _Kind
    dice: tuple[int, ...]

    def __str__(self) -> str:
        if self.kind == "roll":
            return f"roll {self.dice[0]}{self.dice[1]}"
        if self.kind == "die":
            return f"die {self.dice[0]}"
        return f"opening {self.dice[0]} and {self.dice[1]}"


class ManualDice:
    """Dice entered by a person, to record a game played on a real board.

    The dice wait in a queue, first entered first used. A turn's roll is
    entered with :meth:`enter`, an opening roll with :meth:`enter_opening`
    and a single die with :meth:`enter_die`; :meth:`roll`,
    :meth:`roll_opening` and :meth:`roll_die` take the next entry, which must
    be of their kind. When the next entry is missing or of another kind they
    raise :class:`~tavola.errors.DiceNeededError` saying what is needed, and
    the queue is left as it was.

    >>> dice = ManualDice(["31"])
    >>> dice.enter("6-6")
    >>> dice.enter_opening(4, 2)
    >>> dice
    ManualDice(pending=['roll 31', 'roll 66', 'opening 4 and 2'])
    >>> dice.roll(), dice.roll(), dice.roll_opening()
    (Dice(3, 1), Dice(6, 6), (4, 2))
    >>> try:
    ...     dice.roll()
    ... except DiceNeededError as error:
    ...     print(error)
    no dice entered: a turn's roll (two dice, such as 31 or 3-1) is needed; enter it with enter(...)
    """

    __slots__ = ("_queue",)

    def __init__(self, rolls: Iterable[Dice | str] = ()) -> None:
        self._queue: deque[_Entry] = deque()
        entries = [self._roll_entry(dice) for dice in rolls]
        self._queue.extend(entries)

    @staticmethod
    def _roll_entry(dice: Dice | str) -> _Entry:
        if isinstance(dice, str):
            dice = Dice.parse(dice)
        elif not isinstance(dice, Dice):
            raise InvalidDiceError(_("enter a Dice or text such as '31', not {dice}").format(dice=repr(dice)))
        return _Entry("roll", (dice.high, dice.low))

    def enter(self, dice: Dice | str) -> None:
        """Queue a turn's roll: a :class:`Dice`, or text :meth:`Dice.parse` reads (``"31"``, ``"3-1"``)."""
        self._queue.append(self._roll_entry(dice))

    def enter_die(self, value: int) -> None:
        """Queue a single die, for :meth:`roll_die`."""
        self._queue.append(_Entry("die", (_check_die(value),)))

    def enter_opening(self, die0: int, die1: int) -> None:
        """Queue an opening roll: player 0's die, then player 1's (they may tie)."""
        self._queue.append(_Entry("opening", (_check_die(die0), _check_die(die1))))

    @property
    def pending(self) -> int:
        """How many entries are queued and not yet used."""
        return len(self._queue)

    def clear(self) -> None:
        """Drop every queued entry."""
        self._queue.clear()

    def _take(self, kind: _Kind) -> tuple[int, ...]:
        if not self._queue:
            raise DiceNeededError(_(_NONE_ENTERED[kind]))
        entry = self._queue[0]
        if entry.kind != kind:
            message = _(_OTHER_KIND[kind, entry.kind])
            raise DiceNeededError(message.format(first=entry.dice[0], second=entry.dice[-1]))
        self._queue.popleft()
        return entry.dice

    def roll_die(self) -> int:
        return self._take("die")[0]

    def roll(self) -> Dice:
        high, low = self._take("roll")
        return Dice(high, low)

    def roll_opening(self) -> tuple[int, int]:
        die0, die1 = self._take("opening")
        return (die0, die1)

    def __repr__(self) -> str:
        return f"ManualDice(pending={[str(entry) for entry in self._queue]!r})"


def _block(secret: bytes, counter: int) -> bytes:
    return hmac.new(secret, counter.to_bytes(8, "big"), hashlib.sha256).digest()


def _faces(block: bytes) -> list[int]:
    return [byte % 6 + 1 for byte in block if byte < _REJECT_FROM]


def _commitment(secret: bytes) -> str:
    return hashlib.sha256(secret).hexdigest()


def _secret_from_hex(secret_hex: str) -> bytes:
    if not isinstance(secret_hex, str):
        raise InvalidSecretError(
            _("a secret is written as hexadecimal text, not {kind}").format(kind=type(secret_hex).__name__)
        )
    try:
        return bytes.fromhex(secret_hex)
    except ValueError:
        raise InvalidSecretError(
            _("{secret} is not a secret in hexadecimal (an even number of digits 0-9, a-f)").format(
                secret=repr(secret_hex)
            )
        ) from None


def derive_dice(secret_hex: str, count: int) -> list[int]:
    """The first ``count`` dice that the secret gives, in order (see the module docstring).

    >>> derive_dice("00" * 32, 4)
    [4, 4, 1, 5]
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count is a whole number of dice, not {count!r}")
    secret = _secret_from_hex(secret_hex)
    dice: list[int] = []
    counter = 0
    while len(dice) < count:
        dice.extend(_faces(_block(secret, counter)))
        counter += 1
    return dice[:count]


def verify(commitment: str, secret_hex: str, dice: Sequence[int]) -> None:
    """Check revealed dice: raise :class:`~tavola.errors.DiceVerificationError` unless they are honest.

    ``commitment`` is what the roller published before the game,
    ``secret_hex`` what :meth:`VerifiableDice.reveal` gave after it and
    ``dice`` every die seen, in order (:attr:`VerifiableDice.rolls_so_far`).
    The error says whether the secret does not match the commitment or which
    die (counting from 0, also in its ``index``) is not the one the secret
    gives.

    >>> secret = "00" * 32
    >>> commitment = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    >>> verify(commitment, secret, [4, 4, 1, 5])
    >>> verify(commitment, secret, [4, 4, 2, 5])
    Traceback (most recent call last):
    ...
    tavola.errors.DiceVerificationError: die 2 (counting from 0) was 2, but the secret gives 1
    """
    try:
        secret = _secret_from_hex(secret_hex)
    except InvalidSecretError as error:
        raise DiceVerificationError(str(error)) from None
    if not isinstance(commitment, str):
        raise DiceVerificationError(
            _("a commitment is hexadecimal text, not {kind}").format(kind=type(commitment).__name__)
        )
    expected_commitment = _commitment(secret)
    if not hmac.compare_digest(expected_commitment, commitment.strip().lower()):
        raise DiceVerificationError(
            _(
                "the secret does not match the commitment: its SHA-256 is {expected}, "
                "the commitment is {commitment}"
            ).format(expected=expected_commitment, commitment=repr(commitment))
        )
    expected = derive_dice(secret.hex(), len(dice))
    for index, (seen, derived) in enumerate(zip(dice, expected, strict=True)):
        if seen != derived:
            raise DiceVerificationError(
                _("die {index} (counting from 0) was {seen}, but the secret gives {derived}").format(
                    index=index, seen=repr(seen), derived=derived
                ),
                index,
            )


class VerifiableDice:
    """Commit-reveal dice, for play against someone you do not trust.

    Before the game the roller publishes :attr:`commitment`; every die then
    comes from the secret by the scheme in the module docstring; after the
    game :meth:`reveal` gives the secret and :attr:`rolls_so_far` every die
    used, and anyone can check them with :func:`verify`. Once revealed the
    dice are predictable, so the source refuses to roll again.

    The secret defaults to 32 bytes from :func:`secrets.token_bytes`; a given
    one must have at least 16 bytes. Neither ``repr`` nor ``str`` shows it.

    >>> dice = VerifiableDice(bytes(32))
    >>> dice
    VerifiableDice(commitment='66687aadf862bd77...', dice_used=0)
    >>> dice.roll(), dice.roll_opening()
    (Dice(4, 4), (1, 5))
    >>> dice.rolls_so_far
    (4, 4, 1, 5)
    >>> verify(dice.commitment, dice.reveal(), dice.rolls_so_far)
    """

    __slots__ = ("_buffer", "_commitment", "_counter", "_log", "_revealed", "_secret")

    def __init__(self, secret: bytes | None = None) -> None:
        if secret is None:
            secret = secrets.token_bytes(SECRET_BYTES)
        elif not isinstance(secret, bytes | bytearray):
            raise TypeError(f"a secret is bytes, not {type(secret).__name__}")
        elif len(secret) < MIN_SECRET_BYTES:
            raise InvalidSecretError(
                ngettext(
                    "a secret of {count} byte could be guessed from its commitment; "
                    "use at least {least} random bytes (or none, for {default})",
                    "a secret of {count} bytes could be guessed from its commitment; "
                    "use at least {least} random bytes (or none, for {default})",
                    len(secret),
                ).format(count=len(secret), least=MIN_SECRET_BYTES, default=SECRET_BYTES)
            )
        self._secret = bytes(secret)
        self._commitment = _commitment(self._secret)
        self._counter = 0
        self._buffer: deque[int] = deque()
        self._log: list[int] = []
        self._revealed = False

    @property
    def commitment(self) -> str:
        """SHA-256 of the secret, 64 lower-case hex digits: publish it before the first roll."""
        return self._commitment

    @property
    def rolls_so_far(self) -> tuple[int, ...]:
        """Every die used so far, in the order taken (a turn's two dice before sorting)."""
        return tuple(self._log)

    @property
    def revealed(self) -> bool:
        """Whether :meth:`reveal` has been called (after which no more dice are given)."""
        return self._revealed

    def reveal(self) -> str:
        """The secret, as lower-case hex: publish it after the game. No dice are given after this."""
        self._revealed = True
        return self._secret.hex()

    def _next(self) -> int:
        if self._revealed:
            raise DiceNeededError(
                _(
                    "these dice were revealed, so anyone can predict the next ones; "
                    "start a new VerifiableDice and publish its commitment"
                )
            )
        while not self._buffer:
            self._buffer.extend(_faces(_block(self._secret, self._counter)))
            self._counter += 1
        die = self._buffer.popleft()
        self._log.append(die)
        return die

    def roll_die(self) -> int:
        return self._next()

    def roll(self) -> Dice:
        first = self._next()
        return Dice(first, self._next())

    def roll_opening(self) -> tuple[int, int]:
        first = self._next()
        return (first, self._next())

    def __repr__(self) -> str:
        return f"VerifiableDice(commitment={self._commitment[:16] + '...'!r}, dice_used={len(self._log)})"


def default_dice() -> DiceSource:
    """Fair dice from OS entropy, for callers that do not care where the dice come from.

    >>> default_dice()
    RandomDice(seed=None)
    """
    return RandomDice()


if TYPE_CHECKING:  # every source is a DiceSource, checked by mypy
    _SOURCES: tuple[DiceSource, ...] = (RandomDice(), ManualDice(), VerifiableDice())
