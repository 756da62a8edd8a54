"""Room leases: which server process owns a room now, and until when.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``room_leases``: which process holds a room and until when (database clock),
    for several processes sharing the rooms (cluster.py)."""
    op.create_table(
        "room_leases",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(96), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
    )
    op.create_index("ix_room_leases_owner", "room_leases", ["owner"])


def downgrade() -> None:
    """Drop ``room_leases`` and its owner index."""
    op.drop_index("ix_room_leases_owner", "room_leases")
    op.drop_table("room_leases")
