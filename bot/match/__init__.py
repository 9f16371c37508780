"""The match layer: matches, challenges, timers and ratings over SQLite, without Discord."""
