"""Seeks: people looking for an opponent, and the tables made from them.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
