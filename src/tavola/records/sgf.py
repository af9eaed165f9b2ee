"""GNU Backgammon's SGF (``GM[6]``): the file gnubg saves matches and sessions in, analysis and all.

An SGF file is one game tree a game; a tree's first node (its root) says
what the game belongs to, each node after it is one thing done::

    (;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:5][game:0][ws:0][bs:0]
      PW[Ann]PB[Ben]DT[2026-11-21]RU[Crawford]RE[B+1]
    ;B[63aggj]
    ;W[65xrrm]
    ...
    ;B[double]
    ;W[drop])

* ``PW`` and ``PB`` name the players: W (white) is Tavola's player 0, B its
  player 1. ``MI`` holds the match length (0 for money), the game's number
  (gnubg counts from 0) and each player's score before it (``ws``, ``bs``);
  ``DT`` the date.
* ``RU`` lists the rules gnubg records, separated by ``:``: ``Crawford``
  (the rule), ``CrawfordGame`` (this game is it), ``Jacoby``, ``NoCube``,
  and the variant, ``Nackgammon`` or ``Hypergammon3`` (one at most).
* ``RE`` is the result: the winner and the points, ``R`` after a
  resignation (``RE[W+2R]``).
* A move is the dice, then each die's move as two letters, from and to:
  ``a`` is W's 1-point (B's 24), ``x`` W's 24-point, ``y`` the bar, ``z``
  off. ``W[66]`` is a roll that cannot be played. Cube actions are
  ``double`` (a beaver is a ``double`` while a double waits), ``take`` and
  ``drop``. ``PL[B]DI[52]`` is a roll not (yet) played.
* gnubg writes its analysis into the nodes (``A``, ``DA``, ``BM``, ``LU``,
  ``GS``...) and keeps comments in ``C``: Tavola reads past the analysis
  and keeps the comments (:class:`~tavola.records.sgfread.SgfRecord`).
  Where a node has variations, the first is the game.

What Tavola adds, and why
-------------------------
gnubg records a resignation only as an ``R`` in the result, takes a
property's name of two letters at most, and reads past those it does not
know. So Tavola writes, and reads, four of its own:

* ``XO[W:gammon]``: a resignation offered, ``XO[W:gammon:declined]`` one
  declined (one accepted is also in ``RE``);
* ``XR[beavers=2, holland=True]``: the rules, where ``RU`` cannot say them
  (beavers, the Holland rule, automatic doubles...), as a ``.mat`` file's
  ``[Rules]`` tag writes them;
* ``XS[2.5]``: a money session's stake;
* ``XF[Player 2 time 2026-05-01T12:00:00Z]``: in the last game's root, the
  forfeit that ended the series (:meth:`~tavola.match.Match.forfeit`), as a
  ``.mat`` file's ``[Forfeit]`` tag writes it; that game's ``RE`` gives the
  winner, in a match, every point still missing (``RE[B+5]``), so that gnubg
  ends the match there too.

A file gnubg wrote has no ``XR``: its money sessions are read with as many
beavers as they use, as ``.mat`` files are.

What an SGF file cannot hold
----------------------------
As in a ``.mat`` file (:mod:`tavola.records.mat`): Dutch backgammon and
Acey-Deucey, a cube doubled by a tied opening roll, a win counted single
because the rules have no gammons (gnubg would read those differently), and
the dice sources, undone moves and time of play. Tied opening rolls are left
out, and so is a game with no roll yet. A file that sets up a position
(``AB``, ``AW``, ``AE``, the cube's owner ``CP`` or value ``CV``) cannot be
replayed and is refused, and so is a game whose root starts the cube above 1
(``CV[4]``: gnubg's automatic doubles, the tied opening rolls not written).

Reading
-------
:func:`parse_sgf` replays every game through :class:`~tavola.game.Game`
(:mod:`tavola.records.gamereplay`, as the ``.mat`` reader does), so a move
that is not legal, a cube action out of turn, a result or a score that
disagrees with the replay raise :class:`~tavola.errors.RecordError` naming
the line, and a file that is not SGF names the line and column.

>>> from tavola.dicesource import RandomDice
>>> session = MoneySession(dice=RandomDice(seed=3), players=("Ann", "Ben"))
>>> game = session.new_game()
>>> game.roll() and game.play("13/11 13/8")
>>> game.double()
>>> game.drop()
>>> print(sgf_text(session), end="")
(;FF[4]GM[6]CA[UTF-8]AP[Tavola]MI[length:0][game:0][ws:0][bs:0]PW[Ann]PB[Ben]RE[W+1]
;B[52lqln]
;W[double]
;B[drop])
>>> parse_sgf(sgf_text(session)).score.points
(1, -1)
"""

from __future__ import annotations

from tavola.match import MoneySession  # noqa: F401  (used by the example above)
from tavola.records.sgfread import SgfRecord, parse_sgf, parse_sgf_record, read_sgf, read_sgf_record
from tavola.records.sgfwrite import sgf_text, write_sgf

__all__ = [
    "SgfRecord",
    "parse_sgf",
    "parse_sgf_record",
    "read_sgf",
    "read_sgf_record",
    "sgf_text",
    "write_sgf",
]
