"""store: a shoe dealt round after round (baccarat) and the shoe each round was dealt from

Rounds stored before this revision were each dealt from a shoe of their own (``shoe_id`` null).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dealing_shoes",
        sa.Column("id", sa.String(length=200), nullable=False),
        sa.Column("table_id", sa.String(length=200), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("cards", sa.Text(), nullable=False),
        sa.Column("decks", sa.Integer(), nullable=False),
        sa.Column("cut_card", sa.Integer(), nullable=False),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("dealing_shoes", schema=None) as batch_op:
        batch_op.create_index("ix_dealing_shoes_table", ["table_id", "number"], unique=False)

    with op.batch_alter_table("round_shoes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("shoe_id", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("round_shoes", schema=None) as batch_op:
        batch_op.drop_column("shoe_id")

    with op.batch_alter_table("dealing_shoes", schema=None) as batch_op:
        batch_op.drop_index("ix_dealing_shoes_table")

    op.drop_table("dealing_shoes")
