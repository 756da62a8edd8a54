"""Public rooms: whether the lobby lists a room, and the bot level quick play fills it with.

Revision ID: 0005_public_rooms
Revises: 0004_chat
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_public_rooms"
down_revision = "0004_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rooms.public`` (listed in the lobby; every room stored before is private, as it
    was made) and ``rooms.fill_bot`` (a quick-play table: the bot its empty seats get)."""
    # (a plain ALTER TABLE on both databases: rebuilding ``rooms`` on SQLite would cascade)
    op.add_column("rooms", sa.Column("public", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("rooms", sa.Column("fill_bot", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop the two columns: every room is private again, by link."""
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("fill_bot")
        batch.drop_column("public")
