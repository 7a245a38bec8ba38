"""Raid and Riposte tests."""
