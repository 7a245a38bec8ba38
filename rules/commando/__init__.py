"""Commando raid (system key ``commando``): a St Nazaire-style raid on a table in inches.

Importing the package registers the system; see :mod:`rules.commando.system`.
"""

from rules.commando.system import CommandoRaid
from rules.core.registry import register

SYSTEM = register(CommandoRaid())

__all__ = ["SYSTEM", "CommandoRaid"]
