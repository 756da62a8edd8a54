"""Bots from anywhere: play a remote bot seat over the protocol, and rate remote bots."""
