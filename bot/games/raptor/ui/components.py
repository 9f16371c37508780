"""Raptor's controls on Discord: its one control of its own (:class:`PickButton`, a card
of the player's hand), and the views it builds from the platform's controls
(:mod:`bot.discord.components`): "Pick your card" while picking (R5.1), the decision's
menus — every legal action in one menu, or grouped by the figurine that acts or the area
aimed at — with End and Undo (R5.4-R5.5), and a side's own pick buttons.

Custom ids: the platform's with ``raptor`` at their head, and ``raptor:m:<m>:r:<r>:pick:<n>``
(pick card ``n`` in round ``r``).
"""

from __future__ import annotations

import re

import discord

import engine
from engine import Action, End, Phase, Side
from engine.geometry import SQUARE_NAMES, TILE_NAMES, TILE_OF
from engine.messages import Text
from engine.predicates import ap_spent
from engine.state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    MOTHER,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
)

from ....discord.components import (
    MAX_OPTIONS,
    NUMBER,
    SELECTS_PER_PAGE,
    ActionSelect,
    GroupSelect,
    HandButton,
    PageButton,
    TurnButton,
    clicks_of,
    make_view,
)
from ....i18n import ENGLISH, tr
from ....match import Match
from .. import texts

#: Raptor's name at the head of its custom ids.
GAME = "raptor"
N = SQUARE_NAMES


class PickButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=(rf"raptor:m:(?P<mid>{NUMBER}):r:(?P<round>{NUMBER}):"
                           r"pick:(?P<card>[1-9])")):
    """One card of the player's hand (R5.1); only ever shown to that player."""

    def __init__(self, match_id: int, round_no: int, card: int, side: Side | None = None,
                 lang: str = ENGLISH) -> None:
        label = tr(texts.card_label(side, card), lang) if side is not None else str(card)
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.primary,
            custom_id=f"raptor:m:{match_id}:r:{round_no}:pick:{card}"))
        self.match_id = match_id
        self.round_no = round_no
        self.card = card

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> PickButton:
        return cls(int(match["mid"]), int(match["round"]), int(match["card"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).of_game(GAME).pick_card(interaction, self.match_id,
                                                             self.round_no, self.card)


def round_view(match_id: int, round_no: int, lang: str = ENGLISH) -> discord.ui.View:
    """"Pick your card" (R5.1): opens the clicking player's hand, ephemerally."""
    return make_view(HandButton(GAME, match_id, round_no, tr(Text("Pick your card"), lang),
                                emoji="🂠"))


def hand_view(match: Match, side: Side, lang: str = ENGLISH) -> discord.ui.View | None:
    """Pick buttons for the player's own hand — PRIVATE (the labels are the cards): send only
    to that player. None when the player cannot pick now."""
    s = match.state
    if s.phase is not Phase.PICK or side not in engine.to_act(s):
        return None
    return make_view(*(PickButton(match.id, s.round, card, side, lang)
                       for card in s.hands[side]))


def action_option(action: Action, state: engine.GameState, side: Side,
                  lang: str = ENGLISH) -> discord.SelectOption:
    notation = engine.format_action(action)
    label = tr(engine.describe_action(action, state, side), lang)
    return discord.SelectOption(label=label[:100], value=notation,
                                description=tr(Text("notation: {notation}", notation=notation),
                                               lang)[:100])


_FIGURINES = {
    MOTHER: Text("Mother"), BABY: Text("Baby"), BABY_ASLEEP: Text("Sleeping baby"),
    BABY_ASLEEP_NEW: Text("Sleeping baby"), SCIENTIST_ACTIVE: Text("Scientist"),
    SCIENTIST_USED: Text("Scientist"), SCIENTIST_FRIGHTENED: Text("Frightened scientist"),
    SCIENTIST_FRIGHTENED_NEW: Text("Frightened scientist"),
}


def group_of(action: Action, state: engine.GameState) -> tuple[str, Text]:
    """``(key, label)`` of the group an action belongs to in the controls: the figurine that
    acts (``"G2"``, "Mother on G2"), the mother's sleep tokens (``"heal"``) or, for a
    placement or a card effect aimed at a space, the tile of that space (``"T1"``)."""
    t = type(action)
    sq: int | None = None
    if t in (engine.MoveMother, engine.MoveBaby, engine.MoveScientist, engine.CallBaby,
             engine.Jeep):
        sq = action.frm
    elif t in (engine.SleepBaby, engine.Capture, engine.Shoot):
        sq = action.by
    elif t is engine.Stand:
        sq = action.at
    elif state.phase is Phase.AP and t in (engine.Kill, engine.Wake, engine.PutOut):
        sq = state.mother
    if sq is not None:
        name = _FIGURINES.get(state.board[sq], Text("Figurine"))
        return N[sq], Text("{figurine} on {sq}", figurine=name, sq=N[sq])
    if t is engine.Heal:
        return "heal", Text("The mother's sleep tokens")
    target = getattr(action, "to", None)
    if target is None:
        target = getattr(action, "at", None)
    if target is None:
        return "other", Text("Other")
    tile = TILE_OF[target]
    if tile < 0:
        return "exits", Text("Tile {tile}", tile=Text("exits"))
    return TILE_NAMES[tile], Text("Tile {tile}", tile=TILE_NAMES[tile])


def groups(state: engine.GameState, side: Side) -> dict[str, tuple[Text, list[Action]]]:
    """The legal actions of ``side`` (except End) by group, in the engine's order."""
    out: dict[str, tuple[str, list[Action]]] = {}
    for a in engine.legal_actions(state, side):
        if type(a) is End:
            continue
        key, label = group_of(a, state)
        out.setdefault(key, (label, []))[1].append(a)
    return out


def turn_view(match: Match, side: Side, lang: str = ENGLISH) -> discord.ui.View:
    """Public controls for the decision ``side`` must make now (effect, AP, setup, the
    mother's return): a select of all actions when they fit in one menu (≤ 25), else a select
    of figurines / areas; plus End (when allowed) and Undo (AP phase, something spent)."""
    s = match.state
    legal = engine.legal_actions(s, side)
    plain = [a for a in legal if type(a) is not End]
    items: list[discord.ui.Item] = []
    if len(plain) <= MAX_OPTIONS:
        items.append(ActionSelect(GAME, match.id, match.version,
                                  options=[action_option(a, s, side, lang) for a in plain],
                                  placeholder=tr(Text("Choose an action"), lang)))
    else:
        options = []
        for key, (label, acts) in list(groups(s, side).items())[:MAX_OPTIONS]:
            n = len(acts)
            options.append(discord.SelectOption(
                label=tr(label, lang)[:100], value=key,
                description=tr(Text.plural("{n} action", "{n} actions", n), lang)))
        items.append(GroupSelect(GAME, match.id, match.version, options=options,
                                 placeholder=tr(Text("Choose a figurine or an area"), lang)))
    if any(type(a) is End for a in legal):
        label = Text("End turn") if s.phase is Phase.AP else Text("Stop the effect here")
        items.append(TurnButton(GAME, match.id, match.version, "end", tr(label, lang)))
    if s.phase is Phase.AP and ap_spent(s) > 0:  # R5.5
        items.append(TurnButton(GAME, match.id, match.version, "undo", tr(Text("Undo"), lang)))
    return make_view(*items)


def group_view(match: Match, side: Side, key: str, page: int, lang: str = ENGLISH
               ) -> tuple[discord.ui.View, str] | None:
    """The ephemeral controls for one group: up to 4 select menus of 25 actions per page and,
    if the group holds more than 100 actions, page buttons. Returns (view, title) or None when
    the group has no legal action now."""
    found = groups(match.state, side).get(key)
    if found is None:
        return None
    label, acts = found
    per_page = MAX_OPTIONS * SELECTS_PER_PAGE
    pages = max(1, -(-len(acts) // per_page))
    page = max(0, min(page, pages - 1))
    chunk = acts[page * per_page:(page + 1) * per_page]
    items: list[discord.ui.Item] = []
    for i in range(0, len(chunk), MAX_OPTIONS):
        part = chunk[i:i + MAX_OPTIONS]
        n = i // MAX_OPTIONS
        first = page * per_page + i + 1
        placeholder = (Text("{group}: choose an action", group=label)
                       if len(acts) <= MAX_OPTIONS else
                       Text("{group}: actions {first}-{last}", group=label, first=first,
                            last=first + len(part) - 1))
        items.append(ActionSelect(GAME, match.id, match.version, n,
                                  placeholder=tr(placeholder, lang)[:150],
                                  options=[action_option(a, match.state, side, lang)
                                           for a in part]))
    if pages > 1:
        if page > 0:
            items.append(PageButton(GAME, match.id, match.version, key, page - 1,
                                    tr(Text("◀ Previous"), lang)))
        if page < pages - 1:
            items.append(PageButton(GAME, match.id, match.version, key, page + 1,
                                    tr(Text("Next ▶"), lang)))
    title = Text.plural("**{group}** — {n} action", "**{group}** — {n} actions", len(acts),
                        group=label)
    if pages > 1:
        title = Text("{title} (page {page}/{pages})", title=title, page=page + 1, pages=pages)
    return make_view(*items), tr(title, lang)
