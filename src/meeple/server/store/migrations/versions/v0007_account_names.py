"""Account names unique without case: each account's name key (NFKC, case-folded) is
unique, so ``Ana`` and ``ana`` cannot be two accounts.

Accounts made before this could already clash (``Ana`` and ``ana``): the oldest keeps its
name, and each later one is renamed ``<name>-<id>`` (cut to fit 40 characters), the name
it logs in with from now on.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME_KEY = "ix_accounts_name_key"


def _key(name: str) -> str:
    """meeple.server.store.accounts.name_key as it was when this ran (a migration keeps its
    rules)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _renamed(name: str, account_id: int, taken: set[str]) -> str:
    """``<name>-<id>``, cut to 40 characters, with more dashes until no account has it."""
    suffix = f"-{account_id}"
    while _key(renamed := f"{name[: 40 - len(suffix)]}{suffix}") in taken:
        suffix = f"-{suffix}"
    return renamed


def upgrade() -> None:
    op.add_column("accounts", sa.Column("name_key", sa.String(160), nullable=True))
    accounts = sa.table(
        "accounts", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_key")
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(accounts.c.id, accounts.c.name)
        .where(accounts.c.name.is_not(None))
        .order_by(accounts.c.id)
    ).all()
    taken = {_key(name) for _, name in rows}
    kept: set[str] = set()
    for account_id, name in rows:
        kept_name = name
        if _key(name) in kept:  # an older account has this name in another case
            kept_name = _renamed(name, account_id, taken)
            taken.add(_key(kept_name))
        kept.add(_key(kept_name))
        connection.execute(
            sa.update(accounts)
            .where(accounts.c.id == account_id)
            .values(name=kept_name, name_key=_key(kept_name))
        )
    op.create_index(NAME_KEY, "accounts", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index(NAME_KEY, table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_key")
