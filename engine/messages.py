"""Translatable text: a sentence the engine says, kept as a message id and its parameters.

The engine imports nothing of the rest, so it cannot translate; it returns :class:`Text`
values instead of finished sentences. A :class:`Text` *is* the English sentence (a ``str``
subclass: printing, comparing, slicing and f-strings behave exactly as before), and it also
carries what a translator needs: its message id (the English template, ``"there is no fire
on {sq}"``), its parameters, and for a count its plural form. The bot renders it in another
language with :meth:`Text.render` and a gettext catalog (``bot/i18n.py``); the English
rendering is ``str(text)``.

Message ids are found in the source by Babel's extractor (``bot/locales/babel.cfg``): the
markers are ``Text(...)``, ``Text.plural(...)``, ``Text.joined(...)`` and ``N_(...)`` (a
message id named without formatting, e.g. a card's name in the card table).

Joining Texts with ``+`` or ``str.join`` gives a plain ``str``, which no catalog can
translate: use :meth:`Text.joined` or a parameter instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

#: A catalog's lookup: ``(msgid, msgid_plural or None, n) -> template``.
Lookup = Callable[[str, str | None, int], str]


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention for a marked message id
    """Mark ``msgid`` for extraction and return it unchanged (gettext's ``gettext_noop``)."""
    return msgid


def english(msgid: str, plural: str | None, n: int) -> str:
    """The English lookup: the message id itself, its plural when ``n != 1``."""
    return plural if plural is not None and n != 1 else msgid


class Text(str):
    """An English sentence that knows its message id and parameters.

    ``Text("there is no fire on {sq}", sq="E4") == "there is no fire on E4"``; parameters
    may be Texts themselves (rendered in the same language). ``Text.plural`` picks between
    two ids by a count ``n`` (also passed as the parameter ``n``); ``Text.joined`` joins parts
    with a translatable separator.

    Raises:
        KeyError: a placeholder of the template has no parameter (a defect of the caller).
    """

    __slots__ = ("msgid", "msgid_plural", "n", "params", "parts")

    msgid: str
    msgid_plural: str | None
    n: int
    params: dict[str, Any]
    parts: tuple[Any, ...] | None

    def __new__(cls, msgid: str, /, **params: Any) -> Text:
        return cls._make(msgid, None, 1, params, None)

    @classmethod
    def _make(cls, msgid: str, plural: str | None, n: int, params: dict[str, Any],
              parts: tuple[Any, ...] | None) -> Text:
        self = str.__new__(cls, _render(msgid, plural, n, params, parts, english))
        self.msgid, self.msgid_plural, self.n = msgid, plural, n
        self.params, self.parts = params, parts
        return self

    @classmethod
    def plural(cls, singular: str, plural: str, n: int, /, **params: Any) -> Text:
        """The sentence for count ``n``: ``singular`` when ``n == 1`` in English (each
        language has its own plural rule); ``n`` is a parameter too."""
        return cls._make(singular, plural, n, {"n": n, **params}, None)

    @classmethod
    def joined(cls, separator: str, parts: Iterable[Any], /) -> Text:
        """``parts`` (Texts or plain strings) joined by the translatable ``separator``."""
        return cls._make(separator, None, 1, {}, tuple(parts))

    def render(self, lookup: Lookup) -> str:
        """This sentence in the language of ``lookup`` (a catalog's gettext/ngettext)."""
        return _render(self.msgid, self.msgid_plural, self.n, self.params, self.parts, lookup)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (``{"id": ..., "params": {...}}``; nested Texts nested);
        :meth:`from_dict` reads it back."""
        out: dict[str, Any] = {"id": self.msgid}
        if self.msgid_plural is not None:
            out["plural"], out["n"] = self.msgid_plural, self.n
        if self.params:
            out["params"] = {k: v.to_dict() if isinstance(v, Text) else v
                             for k, v in self.params.items()}
        if self.parts is not None:
            out["parts"] = [p.to_dict() if isinstance(p, Text) else p for p in self.parts]
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Text:
        """The Text of :meth:`to_dict`'s output ``d``."""
        def value(v: Any) -> Any:
            return cls.from_dict(v) if isinstance(v, dict) else v
        params = {k: value(v) for k, v in d.get("params", {}).items()}
        parts = tuple(value(p) for p in d["parts"]) if "parts" in d else None
        return cls._make(d["id"], d.get("plural"), d.get("n", 1), params, parts)

    def __repr__(self) -> str:
        return f"Text({self.msgid!r}, **{self.params!r})"

    def __reduce__(self):  # pickling (render pools) keeps the structure
        return (Text.from_dict, (self.to_dict(),))


def _render(msgid: str, plural: str | None, n: int, params: dict[str, Any],
            parts: tuple[Any, ...] | None, lookup: Lookup) -> str:
    template = lookup(msgid, plural, n)
    if parts is not None:
        return template.join(localise(p, lookup) for p in parts)
    if not params:
        return template
    return template.format(**{k: localise(v, lookup) for k, v in params.items()})


def localise(value: Any, lookup: Lookup) -> Any:
    """``value`` rendered by ``lookup`` if it is a :class:`Text`, else unchanged."""
    return value.render(lookup) if isinstance(value, Text) else value
