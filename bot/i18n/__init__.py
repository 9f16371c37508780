"""The message catalog: which language a reader gets, and sentences in it.

Two languages: :data:`ENGLISH` (``"en"``, the default and the message ids themselves) and
:data:`TRADITIONAL_CHINESE` (``"zh-TW"``). The sentences live in gettext catalogs,
``bot/locales/<lang>/LC_MESSAGES/raptor.po``, compiled with Babel when first used (nothing to
build after a clone); ``bot/locales/README.md`` says how to extract and update them.

Who reads which language: an ephemeral reply or a DM, the user's
``interaction.locale`` unless they chose one (``/raptor settings language``); a public
message and the public board image, the server's ``interaction.guild_locale`` unless a
moderator chose one (``/raptor-admin language``); a hand image, its owner's; the terminal and
the demo, ``--lang`` or the environment's locale.

:func:`resolve` maps any locale name to one of :data:`LANGUAGES` and never fails: Discord's
values (``"zh-TW"``, ``"en-US"``, ``"zh-CN"``, …), POSIX ones (``"zh_TW.UTF-8"``, ``"C"``) and
``discord.Locale`` members (their ``value``). Chinese in any script goes to zh-TW (choice:
a reader of Simplified Chinese reads Traditional far more easily than English, and the game's
terms are the same), everything else to English.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from engine.messages import Text, localise

ENGLISH = "en"
TRADITIONAL_CHINESE = "zh-TW"
#: The languages of the catalog, the default first.
LANGUAGES = (ENGLISH, TRADITIONAL_CHINESE)
#: Each language's name, in itself (for choices and settings).
LANGUAGE_NAMES = {ENGLISH: "English", TRADITIONAL_CHINESE: "繁體中文"}
DOMAIN = "raptor"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locales"
#: A language's folder in :data:`LOCALE_DIR` (gettext writes ``zh_TW``).
CATALOG_NAMES = {ENGLISH: "en", TRADITIONAL_CHINESE: "zh_TW"}


def resolve(locale: Any, default: str = ENGLISH) -> str:
    """The catalog language for ``locale``: a str, a ``discord.Locale`` (its ``value``) or
    None; ``default`` when it is None or empty. Never raises: an unknown locale is English.

    ``resolve("zh-TW") == resolve("zh_TW.UTF-8") == resolve("zh-HK") == "zh-TW"``;
    ``resolve("zh-CN") == "zh-TW"`` (see the module's note); ``resolve("fr") == "en"``.
    """
    if locale is None:
        return default
    name = getattr(locale, "value", locale)
    if not isinstance(name, str):
        return ENGLISH
    name = name.strip().split(".")[0].split("@")[0].replace("_", "-").lower()
    if not name:
        return default
    if name == "zh" or name.startswith("zh-"):
        return TRADITIONAL_CHINESE
    return ENGLISH


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the environment's locale, as gettext reads it: the first set of
    ``LANGUAGE`` (its first entry), ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English when
    none is set."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            return resolve(value.split(":")[0])
    return ENGLISH


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (one of :data:`LANGUAGES`; any other name is first
    :func:`resolve`-d), read from its ``.po`` file with Babel and compiled in memory once."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    lang = lang if lang in LANGUAGES else resolve(lang)
    path = LOCALE_DIR / CATALOG_NAMES[lang] / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        po = read_po(f, locale=CATALOG_NAMES[lang].replace("-", "_"))
    buf = io.BytesIO()
    write_mo(buf, po, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


class Translator:
    """Sentences in one language: ``t = Translator("zh-TW")``; ``t("Round {n}", n=3)``
    renders a message id, ``t.text(value)`` a :class:`~engine.messages.Text` (anything else
    is returned unchanged), ``t.lang`` is the language."""

    def __init__(self, lang: Any = ENGLISH) -> None:
        self.lang = resolve(lang)
        self._catalog = catalog(self.lang)

    def lookup(self, msgid: str, plural: str | None, n: int) -> str:
        if plural is None:
            return self._catalog.gettext(msgid)
        return self._catalog.ngettext(msgid, plural, n)

    def __call__(self, msgid: str, /, **params: Any) -> str:
        return Text(msgid, **params).render(self.lookup)

    def plural(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        return Text.plural(singular, plural, n, **params).render(self.lookup)

    def text(self, value: Any) -> Any:
        return localise(value, self.lookup)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


@cache
def translator(lang: Any = ENGLISH) -> Translator:
    """The shared :class:`Translator` of ``lang`` (resolved)."""
    return Translator(resolve(lang) if not isinstance(lang, str) or lang not in LANGUAGES
                      else lang)


def tr(value: Any, lang: Any = ENGLISH) -> Any:
    """``value`` in ``lang`` when it is a :class:`~engine.messages.Text`, else unchanged."""
    return translator(resolve(lang)).text(value)
