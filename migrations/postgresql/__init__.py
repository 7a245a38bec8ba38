"""PostgreSQL texts of migrations that ``bot/dialect.py`` cannot translate.

A file here named exactly like a migration (``NNNN_name.sql``) is what the PostgreSQL store
runs for that version instead of the translated SQLite text.  Most migrations need none.
"""
