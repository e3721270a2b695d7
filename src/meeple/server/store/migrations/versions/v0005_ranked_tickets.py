"""The ranked queue in the database: one ticket per account (queued, matched or timed out),
so that several workers pair from one queue.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from meeple.server.store.models import UtcDateTime

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ranked_tickets",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("faction", sa.String(20), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("wait", sa.Float(), nullable=False),
        sa.Column("joined", UtcDateTime(), nullable=False),
        sa.Column("match_id", sa.String(24), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
    )
    op.create_index("ix_ranked_tickets_status", "ranked_tickets", ["status"])


def downgrade() -> None:
    op.drop_index("ix_ranked_tickets_status", "ranked_tickets")
    op.drop_table("ranked_tickets")
