"""Discord layer of the Raptor bot: settings, storage, slash commands and the process entry point.

Run it with ``python -m bot`` (see ``bot/__main__.py`` and the README).
"""
