"""Alembic environment: the connection is handed in by :func:`croupier.server.db.upgrade`."""

from __future__ import annotations

from alembic import context

from croupier.store.schema import metadata  # every table, the live server's too

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - alembic's own command line
    from sqlalchemy import create_engine

    url = context.config.get_main_option("sqlalchemy.url") or "sqlite:///croupier.sqlite"
    with create_engine(url).connect() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
