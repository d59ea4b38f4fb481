"""drills: a trainee's dealer-training drills and their grades (issue 40)

``drills`` holds each question a trainee was asked (game, kind, seed, the prompt), the engine's
answer and the section that rules it, and the trainee's answer, whether it was right and how
long it took; a procedure drill's steps are rows of their own (:mod:`croupier.server.drills`).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06 11:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "drills",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("username", sa.String(length=100), nullable=False),
        sa.Column("game", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("prompt", sa.Text(), nullable=False),
        sa.Column("expected", sa.String(length=200), nullable=False),
        sa.Column("section", sa.String(length=200), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("answer", sa.String(length=200), nullable=True),
        sa.Column("correct", sa.Boolean(), nullable=True),
        sa.Column("millis", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["username"], ["accounts.username"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_drills_username", "drills", ["username", "id"])


def downgrade() -> None:
    op.drop_index("ix_drills_username", table_name="drills")
    op.drop_table("drills")
