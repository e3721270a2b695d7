"""Ranked leavers: the seats of a ranked match whose bot took over (the player away past
the grace period) and whose player has not come back, kept across server restarts.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from meeple.server.store.models import UtcDateTime

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ranked_leavers",
        sa.Column(
            "match_id",
            sa.String(24),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("left_at", UtcDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ranked_leavers")
