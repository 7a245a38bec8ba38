"""Pure rules engines: no I/O, no asyncio, no discord, no sqlite.

Each game system is a package here (``rules.rr``, ``rules.raiders``...) that registers one
:class:`rules.core.contract.GameSystem` with :mod:`rules.core.registry`.
"""
