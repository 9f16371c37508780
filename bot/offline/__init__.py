"""The offline modes, without Discord: the AI-vs-AI demo and the terminal game."""

#: The server id of the offline modes' matches (the demo's and the terminal's): Discord's ids
#: are far larger, so a database's match in this "server" was played offline.
OFFLINE_GUILD = 1
#: The user id of the person at the terminal (``python -m bot play``).
TERMINAL_PLAYER = 1
#: The channel id of the terminal game's matches, and the user id of its AI seats.
TERMINAL_CHANNEL = 1
TERMINAL_AI = 2
