"""Message components (buttons, select menus) that survive a restart.

Every control is a :class:`discord.ui.DynamicItem`: its ``custom_id`` carries the match (or
challenge) and what the control means, so a click is understood from the id alone and the
match is reloaded from the database on every interaction (nothing lives in a ``View``).
Register all of them with ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``.

custom_id scheme (all ≤ 100 characters; ``<m>`` match id, ``<c>`` challenge id, ``<r>`` round,
``<v>`` match version, see :class:`bot.match.Match`)::

    raptor:c:<c>:accept | decline | cancel      challenge answers (ChallengeButton)
    raptor:replay:<m>:<frame>:first|prev|next|last   the replay viewer's ⏮ ◀ ▶ ⏭
                                                (bot.discord.replay_viewer.ReplayStepButton)
    raptor:m:<m>:r:<r>:hand                     "Pick your card": open my hand (HandButton)
    raptor:m:<m>:r:<r>:pick:<n>                 pick card n this round (PickButton)
    raptor:m:<m>:v:<v>:do[:<i>]                 select: values are action notations (ActionSelect)
    raptor:m:<m>:v:<v>:grp                      select: a figurine / area group (GroupSelect)
    raptor:m:<m>:v:<v>:grp:<key>:<page>         page of a group's actions (PageButton)
    raptor:m:<m>:v:<v>:end | undo               End turn / stop the effect; Undo (TurnButton)
    raptor:m:<m>:resign | rematch | draw-accept | draw-decline | end   (MatchButton)

A control made for round ``r`` or version ``v`` is *stale* once the stored match has moved
on; the handlers in :mod:`bot.discord.clicks` answer such a click with an ephemeral notice
and change nothing. The item classes here only parse ids and hand over to the client's
``clicks`` (:class:`Clicks`, one method per meaning), which check first that the click
belongs to the object its id names (:mod:`bot.discord.ownership`).

discord.py runs a DynamicItem only when the clicked message carries that very custom_id.
A click on a message edited since the clicker's client drew it (a card one version on), or
a crafted id, carries one the message does not have: :func:`dispatch_unplaced` hands it to
the same handlers, so it gets their answer ("out of date", "doesn't belong to this
message") instead of Discord's "This interaction failed"; an id of no control (whatever
its prefix: every control of the bot is one of these items) gets
:data:`bot.texts.NOT_THIS_MESSAGE`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any, Protocol, cast

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

from .. import texts
from ..i18n import ENGLISH, tr
from ..match import Match
from .replies import fail

#: A number in a custom_id: at most 20 digits (any id storage holds has at most 19); a
#: longer one matches no control. Whether an id is one storage can hold is the handlers'
#: first check (:func:`bot.discord.ownership.storable`).
NUMBER = r"[0-9]{1,20}"

MAX_OPTIONS = 25  # Discord: options per select menu
MAX_ROWS = 5  # Discord: action rows per message
SELECTS_PER_PAGE = 4  # a page of a group: 4 select menus + 1 row of page buttons
N = SQUARE_NAMES


class Clicks(Protocol):
    """What the controls call, one method per meaning (:class:`bot.discord.clicks.Clicks`)."""

    async def accept_challenge(self, interaction: discord.Interaction,
                               challenge_id: int) -> None: ...
    async def decline_challenge(self, interaction: discord.Interaction,
                                challenge_id: int) -> None: ...
    async def cancel_challenge(self, interaction: discord.Interaction,
                               challenge_id: int) -> None: ...
    async def open_hand(self, interaction: discord.Interaction, match_id: int,
                        round_no: int) -> None: ...
    async def pick_card(self, interaction: discord.Interaction, match_id: int, round_no: int,
                        card: int) -> None: ...
    async def choose_action(self, interaction: discord.Interaction, match_id: int,
                            version: int, notation: str) -> None: ...
    async def open_group(self, interaction: discord.Interaction, match_id: int, version: int,
                         key: str) -> None: ...
    async def turn_page(self, interaction: discord.Interaction, match_id: int, version: int,
                        key: str, page: int) -> None: ...
    async def undo(self, interaction: discord.Interaction, match_id: int,
                   version: int) -> None: ...
    async def resign(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def end_match(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def accept_draw(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def decline_draw(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def replay_step(self, interaction: discord.Interaction, match_id: int,
                          index: int) -> None: ...


class ClickTarget(Protocol):
    """A client whose ``clicks`` answer the controls (:class:`bot.discord.app.RaptorBot`)."""

    @property
    def clicks(self) -> Clicks: ...


def clicks_of(interaction: discord.Interaction) -> Clicks:
    """The handlers of the client that got ``interaction``."""
    return cast(ClickTarget, interaction.client).clicks


# --------------------------------------------------------------------------- dynamic items


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=rf"raptor:c:(?P<cid>{NUMBER}):(?P<what>accept|decline|cancel)"):
    """Accept / Decline (the challenged user) or Cancel (the challenger) a challenge."""

    LABELS = {"accept": (Text("Accept"), discord.ButtonStyle.success),
              "decline": (Text("Decline"), discord.ButtonStyle.danger),
              "cancel": (Text("Cancel"), discord.ButtonStyle.secondary)}

    def __init__(self, challenge_id: int, what: str, lang: str = ENGLISH) -> None:
        label, style = self.LABELS[what]
        super().__init__(discord.ui.Button(label=tr(label, lang), style=style,
                                           custom_id=f"raptor:c:{challenge_id}:{what}"))
        self.challenge_id = challenge_id
        self.what = what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> ChallengeButton:
        return cls(int(match["cid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        clicks = clicks_of(interaction)
        answer = {"accept": clicks.accept_challenge, "decline": clicks.decline_challenge,
                  "cancel": clicks.cancel_challenge}[self.what]
        await answer(interaction, self.challenge_id)


class HandButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"raptor:m:(?P<mid>{NUMBER}):r:(?P<round>{NUMBER}):hand"):
    """"Pick your card": shows the clicking player their hand, ephemerally."""

    def __init__(self, match_id: int, round_no: int, lang: str = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=tr(Text("Pick your card"), lang), emoji="🂠",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"raptor:m:{match_id}:r:{round_no}:hand"))
        self.match_id = match_id
        self.round_no = round_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> HandButton:
        return cls(int(match["mid"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).open_hand(interaction, self.match_id, self.round_no)


class PickButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"raptor:m:(?P<mid>{NUMBER}):r:(?P<round>{NUMBER}):pick:(?P<card>[1-9])"):
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
        await clicks_of(interaction).pick_card(interaction, self.match_id, self.round_no,
                                             self.card)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select],
                   template=rf"raptor:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):do(?::(?P<i>{NUMBER}))?"):
    """A select menu of legal actions; each option's value is the action's notation."""

    def __init__(self, match_id: int, version: int, index: int | None = None, *,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str = Text("Choose an action")) -> None:
        suffix = "" if index is None else f":{index}"
        super().__init__(discord.ui.Select(
            custom_id=f"raptor:m:{match_id}:v:{version}:do{suffix}", placeholder=placeholder,
            options=list(options), min_values=1, max_values=1))
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> ActionSelect:
        i = match["i"]
        return cls(int(match["mid"]), int(match["ver"]), None if i is None else int(i))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await clicks_of(interaction).choose_action(interaction, self.match_id, self.version,
                                                 values[0] if values else "")


class GroupSelect(discord.ui.DynamicItem[discord.ui.Select],
                  template=rf"raptor:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):grp"):
    """A select menu of figurines (or board areas) that have legal actions; choosing one
    opens that group's actions in an ephemeral message."""

    def __init__(self, match_id: int, version: int, *,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str = Text("Choose a figurine or an area")) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"raptor:m:{match_id}:v:{version}:grp", placeholder=placeholder,
            options=list(options), min_values=1, max_values=1))
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> GroupSelect:
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await clicks_of(interaction).open_group(interaction, self.match_id, self.version,
                                              values[0] if values else "")


class PageButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=(rf"raptor:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):grp:"
                           rf"(?P<key>[A-Za-z0-9]{{1,20}}):(?P<page>{NUMBER})")):
    """Previous / next page of a group with more than 100 actions."""

    def __init__(self, match_id: int, version: int, key: str, page: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or Text("Page {n}", n=page + 1), style=discord.ButtonStyle.secondary,
            custom_id=f"raptor:m:{match_id}:v:{version}:grp:{key}:{page}"))
        self.match_id, self.version, self.key, self.page = match_id, version, key, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> PageButton:
        return cls(int(match["mid"]), int(match["ver"]), match["key"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).turn_page(interaction, self.match_id, self.version,
                                             self.key, self.page)


class TurnButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"raptor:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):(?P<what>end|undo)"):
    """End the turn / stop an optional effect (``end``, R5.4-R5.5) or Undo (own AP actions of
    the current AP phase)."""

    def __init__(self, match_id: int, version: int, what: str, label: str = "") -> None:
        style = discord.ButtonStyle.success if what == "end" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(
            label=label or (Text("End turn") if what == "end" else Text("Undo")), style=style,
            emoji="↩️" if what == "undo" else None,
            custom_id=f"raptor:m:{match_id}:v:{version}:{what}"))
        self.match_id, self.version, self.what = match_id, version, what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> TurnButton:
        return cls(int(match["mid"]), int(match["ver"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        clicks = clicks_of(interaction)
        if self.what == "undo":
            await clicks.undo(interaction, self.match_id, self.version)
        else:
            await clicks.choose_action(interaction, self.match_id, self.version, "end")


class MatchButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=(rf"raptor:m:(?P<mid>{NUMBER}):"
                            r"(?P<what>resign|rematch|draw-accept|draw-decline|end)")):
    """Resign (confirmation), Rematch, the answers to a draw offer, and a moderator's End
    match (confirmation)."""

    LABELS = {"resign": (Text("Resign"), discord.ButtonStyle.danger),
              "end": (Text("End match"), discord.ButtonStyle.danger),
              "rematch": (Text("Rematch"), discord.ButtonStyle.primary),
              "draw-accept": (Text("Accept draw"), discord.ButtonStyle.success),
              "draw-decline": (Text("Decline draw"), discord.ButtonStyle.secondary)}

    def __init__(self, match_id: int, what: str, lang: str = ENGLISH) -> None:
        label, style = self.LABELS[what]
        super().__init__(discord.ui.Button(label=tr(label, lang), style=style,
                                           custom_id=f"raptor:m:{match_id}:{what}"))
        self.match_id, self.what = match_id, what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> MatchButton:
        return cls(int(match["mid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        clicks = clicks_of(interaction)
        answer = {"resign": clicks.resign, "end": clicks.end_match, "rematch": clicks.rematch,
                  "draw-accept": clicks.accept_draw,
                  "draw-decline": clicks.decline_draw}[self.what]
        await answer(interaction, self.match_id)


DYNAMIC_ITEMS = (ChallengeButton, HandButton, PickButton, ActionSelect, GroupSelect, PageButton,
                 TurnButton, MatchButton)

DynamicItemType = type[discord.ui.DynamicItem[Any]]


def carries(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``message`` has a component whose custom_id is ``custom_id``."""
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        if getattr(component, "custom_id", None) == custom_id:
            return True
        stack.extend(getattr(component, "children", ()))
    return False


async def dispatch_unplaced(interaction: discord.Interaction,
                            items: Sequence[DynamicItemType]) -> bool:
    """Answer a click on a control that the clicked message does not carry (which
    discord.py drops): through the item of ``items`` whose template the id matches, exactly
    as discord.py would have run it. An id that no template matches, carried or not and
    whatever its prefix, is no control of the bot (``items`` are all of them): discord.py
    runs nothing for it, so it is refused here with :data:`bot.texts.NOT_THIS_MESSAGE`
    (:data:`bot.texts.STOPPING` while the bot stops) rather than left to Discord's "This
    interaction failed". Returns whether the interaction was such a click (else discord.py
    handles it)."""
    if interaction.type is not discord.InteractionType.component:
        return False
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str):
        custom_id = ""
    for cls in items:
        found = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if found is None:
            continue
        if carries(interaction.message, custom_id):
            return False  # discord.py runs it
        base: discord.ui.Item[Any] = (
            discord.ui.Button(custom_id=custom_id)
            if data.get("component_type") == discord.ComponentType.button.value
            else discord.ui.Select(custom_id=custom_id))
        item = await cls.from_custom_id(interaction, base, found)
        item._refresh_state(interaction, data)  # a select's chosen values
        await item.callback(interaction)
        return True
    gate = getattr(interaction.client, "gate", None)
    stopping = gate is not None and not gate.admit()
    with contextlib.suppress(discord.HTTPException):
        await fail(interaction, texts.STOPPING if stopping else texts.NOT_THIS_MESSAGE)
    return True


# --------------------------------------------------------------------------- views


def make_view(*items: discord.ui.Item) -> discord.ui.View:
    """A view without a timeout (the items are dynamic; nothing is kept in it)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def challenge_view(challenge_id: int, lang: str = ENGLISH) -> discord.ui.View:
    return make_view(*(ChallengeButton(challenge_id, w, lang)
                       for w in ("accept", "decline", "cancel")))


def round_view(match_id: int, round_no: int, lang: str = ENGLISH) -> discord.ui.View:
    return make_view(HandButton(match_id, round_no, lang))


def hand_view(match: Match, side: Side, lang: str = ENGLISH) -> discord.ui.View | None:
    """Pick buttons for the player's own hand — PRIVATE (the labels are the cards): send only
    to that player. None when the player cannot pick now."""
    s = match.state
    if s.phase is not Phase.PICK or side not in engine.to_act(s):
        return None
    return make_view(*(PickButton(match.id, s.round, card, side, lang)
                       for card in s.hands[side]))


def rematch_view(match_id: int, lang: str = ENGLISH) -> discord.ui.View:
    return make_view(MatchButton(match_id, "rematch", lang))


def resign_view(match_id: int, lang: str = ENGLISH) -> discord.ui.View:
    return make_view(MatchButton(match_id, "resign", lang))


def end_view(match_id: int, lang: str = ENGLISH) -> discord.ui.View:
    """A moderator's confirmation: End match."""
    return make_view(MatchButton(match_id, "end", lang))


def draw_view(match_id: int, lang: str = ENGLISH) -> discord.ui.View:
    return make_view(MatchButton(match_id, "draw-accept", lang),
                     MatchButton(match_id, "draw-decline", lang))


# --------------------------------------------------------------------------- decision controls


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
        items.append(ActionSelect(match.id, match.version,
                                  options=[action_option(a, s, side, lang) for a in plain],
                                  placeholder=tr(Text("Choose an action"), lang)))
    else:
        options = []
        for key, (label, acts) in list(groups(s, side).items())[:MAX_OPTIONS]:
            n = len(acts)
            options.append(discord.SelectOption(
                label=tr(label, lang)[:100], value=key,
                description=tr(Text.plural("{n} action", "{n} actions", n), lang)))
        items.append(GroupSelect(match.id, match.version, options=options,
                                 placeholder=tr(Text("Choose a figurine or an area"), lang)))
    if any(type(a) is End for a in legal):
        label = Text("End turn") if s.phase is Phase.AP else Text("Stop the effect here")
        items.append(TurnButton(match.id, match.version, "end", tr(label, lang)))
    if s.phase is Phase.AP and ap_spent(s) > 0:  # R5.5
        items.append(TurnButton(match.id, match.version, "undo", tr(Text("Undo"), lang)))
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
        items.append(ActionSelect(match.id, match.version, n,
                                  placeholder=tr(placeholder, lang)[:150],
                                  options=[action_option(a, match.state, side, lang)
                                           for a in part]))
    if pages > 1:
        if page > 0:
            items.append(PageButton(match.id, match.version, key, page - 1,
                                    tr(Text("◀ Previous"), lang)))
        if page < pages - 1:
            items.append(PageButton(match.id, match.version, key, page + 1,
                                    tr(Text("Next ▶"), lang)))
    title = Text.plural("**{group}** — {n} action", "**{group}** — {n} actions", len(acts),
                        group=label)
    if pages > 1:
        title = Text("{title} (page {page}/{pages})", title=title, page=page + 1, pages=pages)
    return make_view(*items), tr(title, lang)
