"""Several server processes on one database: each table's revision and lease, and the events outbox.

``tavola_tables.revision`` counts every change of a table (a seat taken, an
action, its status); a process writes a change only at the revision it
knows, so two processes never both change a table. ``holder`` and
``held_until`` are the lease on a table's own actions (the bots' turns,
forced plays, the next game): the process that holds it makes them, and
another takes over once it has run out. ``tavola_events`` tells the other
processes of a SQLite database what changed (PostgreSQL's ``NOTIFY`` does
that there).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tavola_tables") as table:
        table.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))
        table.add_column(sa.Column("holder", sa.String(64), nullable=True))
        table.add_column(sa.Column("held_until", sa.Float(), nullable=True))
    # A table's revision counts its changes from here on; counting its stored actions makes it unique.
    op.execute(
        "UPDATE tavola_tables SET revision = "
        "(SELECT COUNT(*) FROM tavola_actions WHERE tavola_actions.table_id = tavola_tables.id)"
    )
    op.create_table(
        "tavola_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("origin", sa.String(64), nullable=False),
        sa.Column("event", sa.JSON(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tavola_events")
    # ALTER TABLE ... DROP COLUMN (SQLite since 3.35): a copy of the table, as a batch would make, would
    # be refused by the seats' and actions' foreign keys once the table holds rows.
    for column in ("held_until", "holder", "revision"):
        op.drop_column("tavola_tables", column)
