"""Alembic's entry point: migrate the connection :func:`tavola.web.storage.migrate` hands over."""

from __future__ import annotations

from alembic import context

from tavola.web.storage import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
