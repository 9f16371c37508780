"""The Discord layer: the bot, its application commands and components, and how a match is
posted in a channel."""
