"""An index of the tournaments' matches by their table.

The action that ends a table looks up the tournament match played at it, in
that action's own transaction, to store the match's result with it; the
index makes that one look-up rather than a read of every match.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tavola_tournament_matches_table_id", "tavola_tournament_matches", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tavola_tournament_matches_table_id", "tavola_tournament_matches")
