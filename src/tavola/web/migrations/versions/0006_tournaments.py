"""Tournaments: their entries, rounds, pairings and standings.

``tavola_tournaments`` holds each tournament's name, director, settings (as
JSON), status and revision (bumped by every step, so that a step is taken
once however many processes serve the database).
``tavola_tournament_entries`` holds who entered, in which order, and their
rating when it started; ``tavola_tournament_matches`` each match: its
bracket, round and slot, its players, its table, by when they must take
their seats, and its winner with how it was decided. Who took their seat is
read from the table's seats (each person's kept for their account), and the
standings are worked out from the matches.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tavola_tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("director_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tavola_tournaments_director_id", "tavola_tournaments", ["director_id"])
    op.create_index("ix_tavola_tournaments_status", "tavola_tournaments", ["status"])
    op.create_table(
        "tavola_tournament_entries",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tavola_tournaments.id"), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), primary_key=True),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=True),
    )
    op.create_index("ix_tavola_tournament_entries_account_id", "tavola_tournament_entries", ["account_id"])
    op.create_table(
        "tavola_tournament_matches",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tavola_tournaments.id"), nullable=False),
        sa.Column("bracket", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), nullable=False),
        sa.Column("second_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), nullable=True),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner_id", sa.Integer(), sa.ForeignKey("tavola_accounts.id"), nullable=True),
        sa.Column("decided", sa.String(16), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("tournament_id", "bracket", "round", "slot"),
    )
    op.create_index(
        "ix_tavola_tournament_matches_tournament_id", "tavola_tournament_matches", ["tournament_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_tavola_tournament_matches_tournament_id", "tavola_tournament_matches")
    op.drop_table("tavola_tournament_matches")
    op.drop_index("ix_tavola_tournament_entries_account_id", "tavola_tournament_entries")
    op.drop_table("tavola_tournament_entries")
    op.drop_index("ix_tavola_tournaments_status", "tavola_tournaments")
    op.drop_index("ix_tavola_tournaments_director_id", "tavola_tournaments")
    op.drop_table("tavola_tournaments")
