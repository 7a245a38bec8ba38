"""``python -m bot``: the same as the ``referee`` command (see ``bot/cli.py``)."""

from bot.cli import main

raise SystemExit(main())
