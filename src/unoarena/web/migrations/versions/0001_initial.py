"""Rooms, players, matches and the append-only action log.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create rooms, their players, their matches and the append-only action log (removing
    a room removes the rest with it)."""
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("host", sa.Integer, nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("bot", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
    )
    op.create_table(
        "matches",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("match_no", sa.Integer, primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("names", sa.Text, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float),
        sa.Column("winners", sa.Text),
        sa.Column("scores", sa.Text),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
    )
    op.create_index("ix_matches_finished_at", "matches", ["finished_at"])
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("round_no", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(255), nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("room_id", "match_no", "seq", name="uq_actions_seq"),
        sa.ForeignKeyConstraint(["room_id", "match_no"],
                                ["matches.room_id", "matches.match_no"], ondelete="CASCADE"),
    )


def downgrade() -> None:
    """Drop every table :func:`upgrade` creates, the dependent ones first."""
    op.drop_table("actions")
    op.drop_index("ix_matches_finished_at", table_name="matches")
    op.drop_table("matches")
    op.drop_table("players")
    op.drop_table("rooms")
