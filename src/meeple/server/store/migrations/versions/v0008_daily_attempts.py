"""The Daily is fair: one scored attempt per account per game and day is a database
constraint, so any number of workers gives one; the server's secrets (the one the Daily's
seeds are derived from) are kept so that every worker and every restart agree.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from meeple.server.store.models import UtcDateTime

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SCORED_ONCE = "uq_daily_attempts_scored"


def upgrade() -> None:
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
    )
    # Two workers could each score an attempt of the same day before this key: the earliest
    # stays scored, the others become practice, so the key can be made.
    op.execute(
        sa.text(
            "UPDATE daily_attempts SET scored = false WHERE scored AND EXISTS ("
            " SELECT 1 FROM daily_attempts AS earlier"
            " WHERE earlier.account_id = daily_attempts.account_id"
            " AND earlier.game_id = daily_attempts.game_id"
            " AND earlier.day = daily_attempts.day AND earlier.scored"
            " AND (earlier.created_at < daily_attempts.created_at"
            " OR (earlier.created_at = daily_attempts.created_at"
            " AND earlier.match_id < daily_attempts.match_id)))"
        )
    )
    op.create_index(
        SCORED_ONCE,
        "daily_attempts",
        ["account_id", "game_id", "day"],
        unique=True,
        sqlite_where=sa.text("scored"),
        postgresql_where=sa.text("scored"),
    )


def downgrade() -> None:
    op.drop_index(SCORED_ONCE, table_name="daily_attempts")
    op.drop_table("server_secrets")
