"""Front ends (Discord, console, CLI), the transport-neutral service and the SQLite store."""

#: The release, read by ``referee --version`` and by the packaging (pyproject.toml).
VERSION = "0.1.0"
__version__ = VERSION
