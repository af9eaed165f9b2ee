"""Accounts, their sessions and seats, and the ratings of the matches they finish.

``tavola_accounts`` holds each account's name, the name's plain form under a
unique index (so that no two differ only in case or form), the Argon2 hash
of its password, and for a bot's account its level. ``tavola_sessions``
holds the SHA-256 of each login's token and when it ends;
``tavola_seat_accounts`` which account took a seat. ``tavola_ratings`` is
each account's rating per variant, ``tavola_rated_matches`` one row per
rated table (both ratings before and after).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tavola_accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("key", sa.String(160), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tavola_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_tavola_sessions_account_id", "tavola_sessions", ["account_id"])
    op.create_table(
        "tavola_seat_accounts",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), nullable=False),
        sa.ForeignKeyConstraint(["table_id", "seat"], ["tavola_seats.table_id", "tavola_seats.index"]),
    )
    op.create_index("ix_tavola_seat_accounts_account_id", "tavola_seat_accounts", ["account_id"])
    op.create_table(
        "tavola_ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), primary_key=True),
        sa.Column("variant", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
    )
    op.create_index("ix_tavola_ratings_variant_rating", "tavola_ratings", ["variant", "rating"])
    op.create_table(
        "tavola_rated_matches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tavola_tables.id"), primary_key=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("winner_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), nullable=False),
        sa.Column("loser_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), nullable=False),
        sa.Column("winner_before", sa.Float(), nullable=False),
        sa.Column("winner_after", sa.Float(), nullable=False),
        sa.Column("loser_before", sa.Float(), nullable=False),
        sa.Column("loser_after", sa.Float(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tavola_rated_matches_winner_id", "tavola_rated_matches", ["winner_id"])
    op.create_index("ix_tavola_rated_matches_loser_id", "tavola_rated_matches", ["loser_id"])


def downgrade() -> None:
    op.drop_index("ix_tavola_rated_matches_loser_id", "tavola_rated_matches")
    op.drop_index("ix_tavola_rated_matches_winner_id", "tavola_rated_matches")
    op.drop_table("tavola_rated_matches")
    op.drop_index("ix_tavola_ratings_variant_rating", "tavola_ratings")
    op.drop_table("tavola_ratings")
    op.drop_index("ix_tavola_seat_accounts_account_id", "tavola_seat_accounts")
    op.drop_table("tavola_seat_accounts")
    op.drop_index("ix_tavola_sessions_account_id", "tavola_sessions")
    op.drop_table("tavola_sessions")
    op.drop_table("tavola_accounts")
