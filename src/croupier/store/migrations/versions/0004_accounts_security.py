"""accounts: status, demo flag, dealers' tables; sign-in limits; set-up token; security log

- ``accounts`` gains ``status`` (``active``), ``demo`` and ``updated_at``; its ``table_id`` moves
  to ``account_tables`` (a dealer may deal several tables; one source of the binding).
- Usernames are normalised (:func:`croupier.server.identifiers.normalise_username`): a stored
  name that is not is renamed to its normal form where that is free, else disabled (an
  administrator makes its owner a new account); each is logged.
- The demo floor's accounts still holding their published passwords are marked demo: from now
  on they sign in only on a floor started as a demo or for training.
- Every session ends (its owner signs in again): tokens were issued before the limits.
- ``sign_in_limits``, ``setup_tokens``, ``security_log`` and ``security_head`` are created; the
  log's first entries record what this migration did to accounts.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-08 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

DEMO_NAMES = ("dealer", "supervisor", "observer", "auditor", *(f"player{n}" for n in range(1, 8)))
"""The accounts ``croupier.server.demo`` made before this revision, each ``<name>-demo``."""


def upgrade() -> None:
    _create_security_tables()
    conn = op.get_bind()
    conn.execute(sa.text("DELETE FROM sessions"))
    bound = [
        (r.username, r.table_id)
        for r in conn.execute(
            sa.text("SELECT username, table_id FROM accounts WHERE table_id IS NOT NULL")
        )
    ]
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("status", sa.String(length=20), nullable=False, server_default="active")
        )
        batch_op.add_column(
            sa.Column("demo", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.drop_column("table_id")
    op.create_table(
        "account_tables",
        sa.Column("username", sa.String(length=100), nullable=False),
        sa.Column("table_id", sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(["username"], ["accounts.username"]),
        sa.PrimaryKeyConstraint("username", "table_id"),
    )
    renamed = _normalise_names(conn)
    rows = [
        {"username": renamed.get(name, name), "table_id": table}
        for name, table in bound
        if renamed.get(name, name) is not None
    ]
    if rows:
        conn.execute(
            sa.text(
                "INSERT INTO account_tables (username, table_id) VALUES (:username, :table_id)"
            ),
            rows,
        )
    _mark_demo(conn)


def _create_security_tables() -> None:
    op.create_table(
        "sign_in_limits",
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("pending", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("refused", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "setup_tokens",
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token_sha256"),
    )
    op.create_table(
        "security_log",
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("event", sa.String(length=40), nullable=False),
        sa.Column("username", sa.String(length=100), nullable=True),
        sa.Column("actor", sa.String(length=100), nullable=True),
        sa.Column("address", sa.String(length=100), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("seq"),
    )
    head = op.create_table(
        "security_head",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.bulk_insert(head, [{"id": 1, "seq": 0, "hash": "0" * 64}])


def _normalise_names(conn: sa.Connection) -> dict[str, str | None]:
    """Each stored name that is not normal -> its new name (``None``: disabled instead)."""
    from croupier.core.errors import InvalidInput
    from croupier.server.identifiers import normalise_username
    from croupier.server.security_log import SecurityEvent, append

    names = [r.username for r in conn.execute(sa.text("SELECT username FROM accounts"))]
    taken = set(names)
    out: dict[str, str | None] = {}
    for name in sorted(names):
        try:
            normal: str | None = normalise_username(name)
        except InvalidInput:
            normal = None
        if normal == name:
            continue
        if normal is not None and normal not in taken:
            conn.execute(
                sa.text("UPDATE accounts SET username = :new WHERE username = :old"),
                {"new": normal, "old": name},
            )
            conn.execute(
                sa.text("UPDATE idempotency SET username = :new WHERE username = :old"),
                {"new": normal, "old": name},
            )
            taken.add(normal)
            out[name] = normal
            append(
                conn,
                SecurityEvent.ACCOUNT_RENAMED,
                username=normal,
                actor="migration 0004",
                detail={"from": name, "to": normal},
            )
            continue
        conn.execute(
            sa.text("UPDATE accounts SET status = 'disabled' WHERE username = :old"), {"old": name}
        )
        out[name] = None
        why = "its normal form is another account's" if normal else "it cannot be a username"
        append(
            conn,
            SecurityEvent.ACCOUNT_DISABLED,
            username=name[:100],
            actor="migration 0004",
            detail={"reason": f"the name is not normalised and {why}"},
        )
    return out


def _mark_demo(conn: sa.Connection) -> None:
    """The demo floor's accounts that still hold their published password."""
    from argon2 import PasswordHasher
    from argon2.exceptions import InvalidHashError, VerificationError

    hasher = PasswordHasher()
    query = sa.text("SELECT username, password_hash FROM accounts WHERE username IN :names")
    query = query.bindparams(sa.bindparam("names", expanding=True))
    for row in conn.execute(query, {"names": list(DEMO_NAMES)}).all():
        try:
            hasher.verify(row.password_hash, f"{row.username}-demo")
        except (VerificationError, InvalidHashError):
            continue
        conn.execute(
            sa.text("UPDATE accounts SET demo = :yes WHERE username = :name"),
            {"yes": True, "name": row.username},
        )


def downgrade() -> None:
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("table_id", sa.String(length=100), nullable=True))
    op.execute(
        "UPDATE accounts SET table_id = (SELECT MIN(table_id) FROM account_tables "
        "WHERE account_tables.username = accounts.username)"
    )
    op.drop_table("account_tables")
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("updated_at")
        batch_op.drop_column("demo")
        batch_op.drop_column("status")
    op.drop_table("security_head")
    op.drop_table("security_log")
    op.drop_table("setup_tokens")
    op.drop_table("sign_in_limits")
