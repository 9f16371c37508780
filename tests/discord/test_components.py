"""The controls themselves: custom_id scheme and Discord's limits (≤ 100-character ids, ≤ 25
options per select menu, ≤ 5 rows), grouping and paging of many actions."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import engine
from bot.discord import components
from bot.discord.app import CONTROLS
from bot.games.raptor.ui import components as raptor_components
from engine import Side

BIG = 10**12  # ids as large as real ones: match 10^12, version 10^12

OPEN_BOARD = """\
   A B C D E F G H I J K L M
1  o . . . . . . . . . . . o
2    . . . . . . . . . . .
3    . . . . . S . . . . .
4    . . . . . . . . . . .
5    . . . . M . . . . . .
6  o . . B . . . . . . . . o
options: savannah standard quick
phase: ap
ap: scientist 8
revealed: 1 9
"""


def fake_match(state: engine.GameState, *, match_id: int = BIG, version: int = BIG):
    return SimpleNamespace(id=match_id, version=version, state=state)


def custom_ids(view) -> list[str]:
    out = []
    for item in view.children:
        inner = getattr(item, "item", item)
        out.append(inner.custom_id)
    return out


def test_every_custom_id_parses_back_and_fits() -> None:
    items = [
        components.ChallengeButton("raptor", BIG, "accept"),
        components.HandButton("raptor", BIG, 999),
        raptor_components.PickButton(BIG, 999, 9, Side.SCIENTIST),
        components.ActionSelect("raptor", BIG, BIG, 3),
        components.ActionSelect("raptor", BIG, BIG),
        components.GroupSelect("raptor", BIG, BIG),
        components.PageButton("raptor", BIG, BIG, "heal", 12),
        components.TurnButton("raptor", BIG, BIG, "undo"),
        components.MatchButton("raptor", BIG, "draw-decline"),
    ]
    for item in items:
        cid = item.item.custom_id
        assert len(cid) <= 100
        matching = [cls for cls in CONTROLS
                    if cls.__discord_ui_compiled_template__.fullmatch(cid)]
        assert matching == [type(item)], cid


def test_a_figurine_with_63_actions_gets_three_menus() -> None:
    state = engine.from_diagram(OPEN_BOARD)
    match = fake_match(state)
    view = raptor_components.turn_view(match, Side.SCIENTIST)
    group_select, end = view.children
    assert [o.value for o in group_select.item.options] == ["G3"]
    assert end.item.label == "End turn"
    built = raptor_components.group_view(match, Side.SCIENTIST, "G3", 0)
    assert built is not None
    view, title = built
    assert title == "**Scientist on G3** — 63 actions"
    menus = [child.item for child in view.children]
    assert [len(m.options) for m in menus] == [25, 25, 13]
    assert [m.placeholder for m in menus] == ["Scientist on G3: actions 1-25",
                                             "Scientist on G3: actions 26-50",
                                             "Scientist on G3: actions 51-63"]
    values = [o.value for m in menus for o in m.options]
    legal = [engine.format_action(a) for a in engine.legal_actions(state, Side.SCIENTIST)
             if type(a) is not engine.End]
    assert values == legal
    ids = custom_ids(view)
    assert len(set(ids)) == 3 and all(len(i) <= 100 for i in ids)
    assert raptor_components.group_view(match, Side.SCIENTIST, "B2", 0) is None


def test_pages_when_a_group_does_not_fit_in_one_message(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(raptor_components, "SELECTS_PER_PAGE", 1)
    match = fake_match(engine.from_diagram(OPEN_BOARD))
    first, title = raptor_components.group_view(match, Side.SCIENTIST, "G3", 0)
    assert title.endswith("(page 1/3)")
    assert [getattr(c.item, "label", None) for c in first.children] == [None, "Next ▶"]
    middle, _ = raptor_components.group_view(match, Side.SCIENTIST, "G3", 1)
    labels = [getattr(c.item, "label", None) for c in middle.children]
    assert labels == [None, "◀ Previous", "Next ▶"]
    last, title = raptor_components.group_view(match, Side.SCIENTIST, "G3", 7)  # clamped
    assert title.endswith("(page 3/3)") and len(last.children[0].item.options) == 13
    assert len(last.children) <= components.MAX_ROWS


def test_group_of_names_figurines_tiles_and_sleep_tokens() -> None:
    state = engine.from_diagram(OPEN_BOARD)
    move = engine.legal_actions(state, Side.SCIENTIST)[0]
    assert raptor_components.group_of(move, state) == ("G3", "Scientist on G3")
    assert raptor_components.group_of(engine.Heal(), state) == ("heal", "The mother's sleep tokens")
    assert raptor_components.group_of(engine.PlaceFire(engine.square("E4")), state) == (
        "T4", "Tile T4")
    assert raptor_components.group_of(engine.Reinforce(engine.square("C1")), state) == (
        "T1", "Tile T1")
