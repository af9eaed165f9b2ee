"""Seeks: people looking for an opponent, and the tables made from them.

``tavola_seeks`` holds each seek: the SHA-256 of its poster's secret (which
becomes their seat's token), their name and account, the game offered,
whether it is rated or a play-now seek, the poster's rating then, its status,
the table made from it and the poster's seat there, and when it was posted
and ends.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tavola_seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), nullable=True),
        sa.Column("game", sa.JSON(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("auto", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tavola_tables.id"), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("seated_by_secret", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_tavola_seeks_status", "tavola_seeks", ["status"])


def downgrade() -> None:
    op.drop_index("ix_tavola_seeks_status", "tavola_seeks")
    op.drop_table("tavola_seeks")
