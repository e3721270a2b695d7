"""Rooms and the turn timer: a private code, listing, the timer's length and deadline on
matches; a ready flag on seats.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from meeple.server.store.models import UtcDateTime

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("code", sa.String(12), nullable=True))
        batch.add_column(
            sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("turn_seconds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("deadline", UtcDateTime(), nullable=True))
        batch.create_unique_constraint("uq_matches_code", ["code"])
    with op.batch_alter_table("match_seats") as batch:
        batch.add_column(
            sa.Column("ready", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("match_seats") as batch:
        batch.drop_column("ready")
    with op.batch_alter_table("matches") as batch:
        batch.drop_constraint("uq_matches_code", type_="unique")
        batch.drop_column("deadline")
        batch.drop_column("turn_seconds")
        batch.drop_column("public")
        batch.drop_column("code")
