"""RJ10 Glossary: the words of the rules are the engine's words (a display is a row, visible
and hidden cards, the reserve is the chips on no card, a bonus token is a chip)."""

from __future__ import annotations

from pathlib import Path

from engine.ratjack import view
from engine.ratjack.cards import NEED_TEXTS

from .conftest import pos

ROOT = Path(__file__).resolve().parents[3]


def test_the_glossary_defines_the_words_the_engine_uses():
    text = (ROOT / "docs" / "RATJACK_RULES.md").read_text(encoding="utf-8")
    glossary = text[text.index("## RJ10 Glossary"):text.index("## RJ11")]
    for word in ("**Display**", "**Visible**", "**Hidden**", "**Hand**", "**Reserve**",
                 "**Bonus token**", "**Total**", "**Opponent**"):
        assert word in glossary
    # a player reads "bonus token" where the rules say chip (RJ4.6)
    assert all("chip" not in str(t(1)) for t in NEED_TEXTS.values())


def test_reserve_visible_and_hidden_as_a_view_shows_them():
    s = pos("""
        chips: +1 -2 +3 +4 -5 +10
        p1 hand: R1
        p1 display: R12[+3] ~B7[-5]
        p2 hand: B4
        p2 display: B5
    """)
    v = view(s, 1)
    assert v.reserve == (1, -2, 4, 10)  # chips on no card
    assert [(x.card, x.up, x.chips) for x in v.displays[0]] == [("R12", True, (3,)),
                                                                (None, False, (-5,))]
    assert v.totals == (15, 5)
