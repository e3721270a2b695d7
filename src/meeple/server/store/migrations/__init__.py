"""Alembic migrations of the server's database, applied by
:func:`meeple.server.store.db.migrate`."""
