"""Accounts, their sessions, the seats they play, ratings and a room's rated flag.

Revision ID: 0003_accounts
Revises: 0002
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_accounts"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rooms.rated`` (the host's choice; existing rooms stay unrated), ``accounts``,
    ``account_sessions`` (hashed cookie tokens), ``seat_accounts`` (which account plays a
    seat, while the seat keeps its token), ``ratings`` (one row per player or bot level and
    family) and ``rating_history`` (one row per rated match and participant). Deleting an
    account removes its sessions and seat links with it."""
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
    )
    op.create_index("ix_account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "seat_accounts",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
    )
    op.create_index("ix_seat_accounts_account", "seat_accounts", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(48), primary_key=True),
        sa.Column("family", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_family", "ratings", ["family"])
    op.create_table(
        "rating_history",
        sa.Column("subject", sa.String(48), primary_key=True),
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("match_no", sa.Integer, primary_key=True),
        sa.Column("family", sa.String(24), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_match", "rating_history", ["room_id", "match_no"])


def downgrade() -> None:
    """Drop what :func:`upgrade` adds, the dependent tables first."""
    op.drop_index("ix_rating_history_match", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_family", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_seat_accounts_account", table_name="seat_accounts")
    op.drop_table("seat_accounts")
    op.drop_index("ix_account_sessions_account", table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rated")
