"""Platoon skirmish (system key ``skirmish``): WWII platoons of teams on a table in inches."""
