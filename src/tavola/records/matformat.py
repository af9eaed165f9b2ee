"""What reading and writing ``.mat`` files share: the column layout and the variants gnubg names."""

from __future__ import annotations

from tavola.variants import HYPERGAMMON, NACKGAMMON, STANDARD

RIGHT_START = 33  # gnubg writes "%3d) %-27s ": the right column starts at index 33
VARIATIONS = {"Backgammon": STANDARD, "NackGammon": NACKGAMMON, "HyperGammon (3)": HYPERGAMMON}
