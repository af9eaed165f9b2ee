"""The server database's schema, version by version (Alembic):
:func:`tavola.web.storage.migrate` runs them.
"""
