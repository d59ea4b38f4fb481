"""card_devices: the card readers of the live tables (issue 39)

- ``card_devices``: a reader bound to one table, its token's hash, the last message it
  numbered and when it was last heard from (docs/reader-protocol.md).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06 11:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_devices",
        sa.Column("id", sa.String(length=100), nullable=False),
        sa.Column("table_id", sa.String(length=100), nullable=False),
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["live_tables.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_sha256"),
    )


def downgrade() -> None:
    op.drop_table("card_devices")
