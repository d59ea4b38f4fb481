"""store: hash chains, meter configuration, shoe orders, table log

Rows stored before this revision keep an empty hash (``croupier audit verify`` reports them as
not chained) and their rounds the mode ``real``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 12:32:42.318381
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_log",
        sa.Column("table_id", sa.String(length=200), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq"),
    )
    op.create_table(
        "table_rounds",
        sa.Column("table_id", sa.String(length=200), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("round_id", sa.String(length=200), nullable=True),
        sa.Column("back", sa.String(length=20), nullable=False),
        sa.Column("deck", sa.Integer(), nullable=False),
        sa.Column("stub_check", sa.String(length=40), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "number"),
    )
    op.create_table(
        "round_shoes",
        sa.Column("round_id", sa.String(length=200), nullable=False),
        sa.Column("cards", sa.Text(), nullable=False),
        sa.Column("taken", sa.Integer(), nullable=False),
        sa.Column("decks", sa.Integer(), nullable=False),
        sa.Column("stacked", sa.Boolean(), nullable=False),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rounds.id"],
        ),
        sa.PrimaryKeyConstraint("round_id"),
    )
    with op.batch_alter_table("meter_ledger", schema=None) as batch_op:
        batch_op.add_column(sa.Column("amount", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("share", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("config", sa.Text(), nullable=True))
        batch_op.add_column(
            sa.Column("hash", sa.String(length=64), nullable=False, server_default="")
        )

    with op.batch_alter_table("meters", schema=None) as batch_op:
        batch_op.add_column(sa.Column("wager", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("paytable", sa.String(length=40), nullable=True))
        batch_op.add_column(
            sa.Column("head", sa.String(length=64), nullable=False, server_default="")
        )

    with op.batch_alter_table("round_records", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("hash", sa.String(length=64), nullable=False, server_default="")
        )

    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("mode", sa.String(length=20), nullable=False, server_default="real")
        )
        batch_op.add_column(
            sa.Column("hash", sa.String(length=64), nullable=False, server_default="")
        )
        batch_op.add_column(
            sa.Column("head", sa.String(length=64), nullable=False, server_default="")
        )
        batch_op.add_column(sa.Column("voided_by", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("void_reason", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("void_reason")
        batch_op.drop_column("voided_by")
        batch_op.drop_column("head")
        batch_op.drop_column("hash")
        batch_op.drop_column("mode")

    with op.batch_alter_table("round_records", schema=None) as batch_op:
        batch_op.drop_column("hash")

    with op.batch_alter_table("meters", schema=None) as batch_op:
        batch_op.drop_column("head")
        batch_op.drop_column("paytable")
        batch_op.drop_column("wager")

    with op.batch_alter_table("meter_ledger", schema=None) as batch_op:
        batch_op.drop_column("hash")
        batch_op.drop_column("config")
        batch_op.drop_column("share")
        batch_op.drop_column("amount")

    op.drop_table("round_shoes")
    op.drop_table("table_rounds")
    op.drop_table("table_log")
