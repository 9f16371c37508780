"""Keep the catalogs in step with the source: ``python -m bot.i18n.catalogs``.

Extracts every marked message from ``engine/``, ``render/`` and ``bot/`` with Babel (the map
is ``bot/locales/babel.cfg``, the markers :data:`KEYWORDS`) and every string of the
application commands (their names, descriptions, options and choices, read from the commands
themselves by :func:`bot.discord.command_strings.command_messages`, in the context
``"application command"``), writes the template
``bot/locales/raptor.pot`` and updates each language's ``.po`` (new ids come in empty, ids no
longer in the source become obsolete ``#~`` entries). Then translate the empty entries of
``zh_TW/LC_MESSAGES/raptor.po`` and re-run ``python -m bot.i18n.fontsubset`` (the images'
font holds only the characters the catalog uses). ``tests/i18n`` fails while an entry is
empty, fuzzy or its placeholders differ from the English.

The English catalog keeps its strings empty: an id is its own English text.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from . import CATALOG_NAMES, DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = LOCALE_DIR.parent.parent
HEADER = ("# The Raptor bot's messages in {lang} (bot/i18n/catalogs.py updates this file from the\n"
          "# source; translate the empty entries).")
#: The marker functions and the positions of their message ids (Babel's keyword spec).
KEYWORDS = {"Text": (1,), "plural": (1, 2), "joined": (1,), "N_": (1,), "_": (1,),
            "locale_str": (1,),
            # the match service's errors: their message is a sentence of the catalog
            **{name: (1,) for name in (
                "ServiceError", "NotFoundError", "NotAPlayerError", "MatchFinishedError",
                "ChallengeExpiredError", "ChannelBusyError", "StaleError",
                "InvalidRequestError", "NotYourTurnError")}}


def extract() -> Catalog:
    """Every marked message of the source, as a Babel template catalog."""
    with (LOCALE_DIR / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    template = Catalog(project="raptor-bot", version="0.1.0", domain=DOMAIN, charset="utf-8",
                       header_comment=HEADER.format(lang="every language (template)"))
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True):
        if not message or (isinstance(message, tuple) and not message[0]):
            continue
        template.add(message, None, [(filename, lineno)], auto_comments=comments,
                     context=context)
    from bot.discord.command_strings import command_messages  # needs discord.py
    from bot.discord.languages import CONTEXT

    for message, where in command_messages():
        known = template.get(message, context=CONTEXT)
        if known is not None:
            known.auto_comments.append(where)
        else:
            template.add(message, None, auto_comments=[where], context=CONTEXT)
    return template


def po_path(lang: str) -> Path:
    return LOCALE_DIR / CATALOG_NAMES[lang] / "LC_MESSAGES" / f"{DOMAIN}.po"


def update() -> list[str]:
    """Write the template and update every language's catalog; returns one line per file."""
    template = extract()
    out = []
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("wb") as f:
        write_po(f, template, width=100, omit_header=False, sort_output=True)
    out.append(f"{DOMAIN}.pot: {len(template)} messages")
    for lang in LANGUAGES:
        path = po_path(lang)
        name = CATALOG_NAMES[lang]
        if path.exists():
            with path.open("rb") as f:
                po = read_po(f, locale=name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            po = Catalog(locale=name, domain=DOMAIN, project="raptor-bot", charset="utf-8")
        po.update(template, no_fuzzy_matching=True)
        po.header_comment = HEADER.format(lang=lang)
        po.version, po.fuzzy = "0.1.0", False
        po.msgid_bugs_address = po.last_translator = po.language_team = "the Raptor bot team"
        with path.open("wb") as f:
            write_po(f, po, width=100, sort_output=True, include_previous=False)
        missing = sum(1 for m in po if m.id and not m.string)
        out.append(f"{path.relative_to(ROOT)}: {len(po) - 1} messages, {missing} untranslated")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.catalogs",
                                     description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    for line in update():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
