"""The tables, their seats, their actions and their chat.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tavola_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("secret", sa.String(128), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tavola_tables_status", "tavola_tables", ["status"])
    op.create_table(
        "tavola_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tavola_tables.id"), primary_key=True),
        sa.Column("index", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "tavola_actions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tavola_tables.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tavola_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tavola_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tavola_chat_table_id", "tavola_chat", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tavola_chat_table_id", "tavola_chat")
    op.drop_table("tavola_chat")
    op.drop_table("tavola_actions")
    op.drop_table("tavola_seats")
    op.drop_index("ix_tavola_tables_status", "tavola_tables")
    op.drop_table("tavola_tables")
