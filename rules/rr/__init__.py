"""Raid and Riposte (Lock 'n Load), Tannenbruck 1985: scenario data and rules."""
