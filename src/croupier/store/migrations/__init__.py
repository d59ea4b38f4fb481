"""Alembic migrations of the whole schema (store and live table system).

The schema is only ever changed by a migration here; ``croupier db upgrade`` applies them
(:func:`croupier.server.db.upgrade`).  ``tests/test_migrations.py`` checks that the migrated
schema equals the SQLAlchemy metadata.
"""
