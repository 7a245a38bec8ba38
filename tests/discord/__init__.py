"""Tests of the Discord front end, run through discord.py without a network."""
