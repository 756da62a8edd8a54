"""Chat: the lines said at a room's table and among its spectators, and the host's mutes.

Revision ID: 0004_chat
Revises: 0003_accounts
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_chat"
down_revision = "0003_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``chat``: a room's lines in order (``seq``), kept with the room so that a restart
    or a take-over by another process loses none; mutes are rows of their own channel."""
    op.create_table(
        "chat",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("player", sa.Integer),
        sa.Column("watcher", sa.Integer),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
    )


def downgrade() -> None:
    """Drop ``chat``."""
    op.drop_table("chat")
