"""The ``.mat`` text format that GNU Backgammon, eXtreme Gammon and Jellyfish exchange.

A ``.mat`` file is a header of ``; [Tag "value"]`` comments, the length
(`` 7 point match``; ``0`` for a money session), then each game: `` Game N``,
a score line (each player's name and score before the game) and numbered
lines holding the two players' actions side by side, player 0 on the left::

     Game 1
     Ann : 0                        Ben : 0
      1)                             53: 8/3 6/3
      2) 62: 24/18 18/16              Doubles => 2
      3)  Takes                      31: 25/22 6/5
     ...
          Wins 2 points

A roll is written ``53: 8/3 6/3``: the dice, then each die's move in the
mover's own numbering, the bar as 25 and off as 0, hits marked ``*``; no move
is a roll that cannot be played. Cube actions are ``Doubles => 2``,
``Takes``, ``Drops`` and ``Beavers => 4``; ``Wins N points`` ends a game
(after the last checker is borne off, a drop, or the loser's resignation).

What Tavola writes, and why
---------------------------
* The header carries ``[Player 1]``/``[Player 2]``, and the rules as the tags
  other programs know: ``[Crawford "On"]`` for matches, ``[Jacoby]`` and
  ``[Beaver]`` for money (gnubg reads neither: set them in gnubg to match).
  Rules those tags cannot say (the Holland rule, no cube, two or more
  beavers, automatic beavers) go in a ``[Rules "..."]`` tag, and a money
  session's stake in ``[Stake "2.5"]``; other programs keep them as comments.
* The Crawford game is marked ``(Crawford)`` after the score line's last
  score, where gnubg's reader ignores it (P2).
* The game that ends a match ends ``Wins N points and the match``.
* A series a player forfeited (out of time, absent, gone:
  :meth:`~tavola.match.Match.forfeit`) has a ``[Forfeit "Player 2 time
  2026-05-01T12:00:00Z"]`` tag (the player as ``[Player 2]`` names them, why,
  when), which other programs keep as a comment; the format has no notation of
  its own for it. The game in progress ends ``Wins N points``, in a match ``N``
  the points the winner still needed, ``and the match``: read as the loser
  resigning there, which is how every program will count it, so the score
  and the match's end are theirs too.
* Beavers and raccoons are ``Beavers => N`` and the take after them is left
  out (the next roll implies it), as gnubg writes and reads them. Where no
  roll follows the take, or the redouble is dropped, the last redouble is
  ``Raccoons => N`` and ``Takes``/``Drops`` are spelt out: after ``Beavers``
  gnubg's reader takes the next roll it meets for the take and loses that
  roll (in gnubg 1.07 even when it is the next game's first).
* A resignation is only ``Wins N points``, unless the points would not tell
  what was offered (the Jacoby rule), it was declined, or it waits for an
  answer: then a ``Resigns gammon`` cell (``Resigns gammon (declined)``)
  says so. gnubg skips such cells.
* A roll not (yet) played is ``53:`` before a resignation, and ``53: ???``
  at the end of a record when it cannot be played (so it is not read as a pass).
  A roll played after a declined resignation appears twice: ``53:`` before
  the resignation, ``53: 8/3 6/3`` after it (gnubg reads that as one roll),
  except a forced play (or pass): gnubg plays that from ``53:`` itself, so it
  is written once, and Tavola plays it when the other player acts.

What a .mat file cannot hold
----------------------------
* Tied opening rolls: they are left out (they change nothing) -- unless
  they doubled the cube under automatic doubles (M2): other programs would
  start those games at 1, so the writer refuses such a series.
* Games won as a single only because ``Rules(gammons=False)``: other programs
  would count the gammon, so the writer refuses those too.
* Variants other than nackgammon and hypergammon (``[Variation "NackGammon"]``,
  ``[Variation "HyperGammon (3)"]``, as gnubg writes them): Dutch backgammon
  and Acey-Deucey are refused.
* Dice sources, undone moves and the time of play are not recorded.
* With automatic beavers (M6), a beaver and a take (which beavers at once)
  are both written ``Beavers``, and read back as the take.
* gnubg plays a roll left unplayed before a resignation when it has only one
  legal play, then takes the resignation out of turn; reading such a file,
  Tavola leaves the forced play unplayed so the resignation comes in turn
  (C6). Other resignations out of turn are refused.

Reading
-------
:func:`parse_mat` replays every game through :class:`~tavola.game.Game`, so
Tavola's rules check the file: a move that is not legal, a cube action out of
turn, a die out of range, a score line or a ``Wins`` line that disagrees with
the replay, a file cut short, all raise :class:`~tavola.errors.RecordError`
naming the line. Files from other programs that carry no rule tags are read
with the Crawford rule for matches; money sessions allow as many beavers as
the file uses and, if the points need it, the Jacoby rule (gnubg's default).

>>> from tavola.dicesource import RandomDice
>>> session = MoneySession(dice=RandomDice(seed=3), players=("Ann", "Ben"))
>>> game = session.new_game()
>>> game.roll() and game.play("13/11 13/8")
>>> game.double()
>>> game.drop()
>>> text = mat_text(session)
>>> print(text[text.index(" Game 1") :], end="")
 Game 1
 Ann : 0                        Ben : 0
  1)                             52: 13/8 13/11
  2)  Doubles => 2                Drops
      Wins 1 point
>>> parse_mat(text).score.points
(1, -1)
"""

from __future__ import annotations

from tavola.match import MoneySession  # noqa: F401  (used by the example above)
from tavola.records.matread import parse_mat, read_mat
from tavola.records.matwrite import mat_text, unwritable_in_mat, write_mat

__all__ = ["mat_text", "parse_mat", "read_mat", "unwritable_in_mat", "write_mat"]
