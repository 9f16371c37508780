"""Database URLs: which settings name a PostgreSQL database, and how a URL is shown (without its
password). Kept apart from :mod:`bot.storage.pg` so that reading the settings loads no driver."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

URL_SCHEMES = ("postgresql", "postgres")


def is_postgres_url(value: str) -> bool:
    """Whether ``value`` is a ``postgresql://`` (or ``postgres://``) URL."""
    try:
        return urlsplit(value.strip()).scheme.lower() in URL_SCHEMES
    except ValueError:  # e.g. an unclosed "[" in the host
        return False


def redact(url: str) -> str:
    """``url`` without its password (for messages and logs): the one in the user part
    (``user:***@host``) and the one given as a query parameter (``?password=***``), the
    two forms libpq and asyncpg read."""
    try:
        parts = urlsplit(url)
        if parts.password is not None:
            netloc = parts.netloc.rsplit("@", 1)
            user = netloc[0].split(":", 1)[0]
            parts = parts._replace(netloc=f"{user}:***@{netloc[1]}")
        if parts.query:
            query = [(k, "***" if k.lower() == "password" else v)
                     for k, v in parse_qsl(parts.query, keep_blank_values=True)]
            parts = parts._replace(query=urlencode(query, safe="*"))
        return urlunsplit(parts)
    except ValueError:
        return "the URL in RAPTOR_DATABASE_URL"
