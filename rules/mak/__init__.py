"""Maschinen Krieger (system key ``mak``): the ground war on geomorphic hex boards.

The registry finds ``SYSTEM`` here; see :mod:`rules.mak.system` and ``README.md``.
"""

from rules.mak.system import MaschinenKrieger

SYSTEM = MaschinenKrieger()

__all__ = ["SYSTEM", "MaschinenKrieger"]
