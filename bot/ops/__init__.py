"""The operator's commands of ``python -m bot``: ``check`` (is this deployment ready?),
``backup`` (a consistent copy of the live SQLite database) and ``migrate-to`` (the SQLite
database copied into PostgreSQL). Discord-free."""
