"""Alembic migrations of the server's database, run at every start (see ``store.migrate``)."""
