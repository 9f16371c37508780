"""The offline modes, without Discord: the AI-vs-AI demo and the terminal game."""
