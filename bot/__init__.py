"""The Raptor bot: the match layer (``bot.match``), the Discord layer (``bot.discord``), the
AI (``bot.ai``), the offline modes (``bot.offline``), and what they share: the sentences
(``bot.texts``), the storage (``bot.storage``) and the settings (``bot.settings``).

Run it with ``python -m bot`` (see ``bot/__main__.py`` and the README).
"""
