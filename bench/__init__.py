"""The benchmark of the whole order path (``python bench/run.py``) and its helpers.

The helpers (a game driver and the log checks) are shared with ``tests/reliability``.
"""
