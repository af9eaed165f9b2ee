"""The clocks of tables with a time control: ``tavola_clocks``.

One row per timed table: both players' banks, whose turn runs and since
when (:meth:`tavola.web.clocks.Clock.to_json`), as they were after the
table's action ``number``, written in that action's own transaction.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tavola_clocks",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tavola_tables.id"), primary_key=True),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tavola_clocks")
