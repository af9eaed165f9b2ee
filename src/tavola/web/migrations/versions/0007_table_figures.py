"""Each side's figures from a finished table's analysis, for the players' pages.

``tavola_table_figures`` holds, for each finished two-player table analysed
and each level it was analysed at, both seats' error rates (mEMG) and
performance ratings (PR), and how deep the level looks (its plies, for the
deepest to be shown).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tavola_table_figures",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tavola_tables.id"), primary_key=True),
        sa.Column("level", sa.String(16), primary_key=True),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("first_error_rate", sa.Float(), nullable=False),
        sa.Column("second_error_rate", sa.Float(), nullable=False),
        sa.Column("first_pr", sa.Float(), nullable=False),
        sa.Column("second_pr", sa.Float(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tavola_table_figures")
