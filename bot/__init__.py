"""Front ends (Discord, console, CLI), the transport-neutral service and the SQLite store."""
