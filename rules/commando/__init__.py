"""Commando raid (system key ``commando``): a St Nazaire-style raid on a table in inches.

The registry finds ``SYSTEM`` here; see :mod:`rules.commando.system`.
"""

from rules.commando.system import CommandoRaid

SYSTEM = CommandoRaid()

__all__ = ["SYSTEM", "CommandoRaid"]
