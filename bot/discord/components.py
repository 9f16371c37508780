"""Message components (buttons, select menus) that survive a restart: the platform's, for
every game. A game adds its own (:attr:`bot.discord.presentation.GameUI.dynamic_items`).

Every control is a :class:`discord.ui.DynamicItem`: its ``custom_id`` carries the game, the
match (or challenge) and what the control means, so a click is understood from the id alone
and the match is reloaded from the database on every interaction (nothing lives in a
``View``). Register all of them with ``bot.add_dynamic_items(*CONTROLS)``
(:mod:`bot.discord.app`).

custom_id scheme (all ≤ 100 characters; ``<g>`` the game's registry name, ``<m>`` match id,
``<c>`` challenge id, ``<r>`` the card's key (Raptor: the round), ``<v>`` match version, see
:class:`bot.match.Match`)::

    <g>:c:<c>:accept | decline | cancel      challenge answers (ChallengeButton)
    <g>:t:<t>:join | leave | unseat | start | cancel   a table's buttons (TableButton;
                                             ``<t>`` the table's id)
    <g>:t:<t>:ai                             select: seat the AI at a level (TableAISelect)
    <g>:replay:<m>:<frame>:first|prev|next|last   the replay viewer's ⏮ ◀ ▶ ⏭
                                             (bot.discord.replay_viewer.ReplayStepButton)
    <g>:m:<m>:r:<r>:hand                     open my private view (HandButton; Raptor:
                                             "Pick your card")
    <g>:m:<m>:v:<v>:do[:<i>]                 select: values are action notations (ActionSelect)
    <g>:m:<m>:v:<v>:grp                      select: a group of actions (GroupSelect)
    <g>:m:<m>:v:<v>:grp:<key>:<page>         page of a group's actions (PageButton)
    <g>:m:<m>:v:<v>:end | undo               the action "end" (Raptor: End turn / stop the
                                             effect); Undo (TurnButton)
    <g>:m:<m>:resign | rematch | draw-accept | draw-decline | end   (MatchButton)
    raptor:m:<m>:r:<r>:pick:<n>              Raptor: pick card n this round (its PickButton)

A control made for key ``r`` or version ``v`` is *stale* once the stored match has moved
on; the handlers in :mod:`bot.discord.clicks` answer such a click with an ephemeral notice
and change nothing. The item classes here only parse ids and hand over to the client's
``clicks`` (:class:`Clicks`, one method per meaning), which check first that the click
belongs to the object its id names — its game included (:mod:`bot.discord.ownership`).

discord.py runs a DynamicItem only when the clicked message carries that very custom_id.
A click on a message edited since the clicker's client drew it (a card one version on), or
a crafted id, carries one the message does not have: :func:`dispatch_unplaced` hands it to
the same handlers, so it gets their answer ("out of date", "doesn't belong to this
message") instead of Discord's "This interaction failed"; an id of no control gets
:data:`bot.texts.NOT_THIS_MESSAGE`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any, Protocol, cast

import discord

from engine.messages import Text

from .. import texts
from ..i18n import ENGLISH, tr
from ..match import Challenge, Match, Table
from .replies import fail

#: A number in a custom_id: at most 20 digits (any id storage holds has at most 19); a
#: longer one matches no control. Whether an id is one storage can hold is the handlers'
#: first check (:func:`bot.discord.ownership.storable`).
NUMBER = r"[0-9]{1,20}"
#: The game's name at the head of a custom_id (a registry name: lowercase letters).
GAME = r"(?P<game>[a-z]{1,20})"

MAX_OPTIONS = 25  # Discord: options per select menu
MAX_ROWS = 5  # Discord: action rows per message
SELECTS_PER_PAGE = 4  # a page of a group: 4 select menus + 1 row of page buttons


class Clicks(Protocol):
    """What the platform's controls call, one method per meaning
    (:class:`bot.discord.clicks.Clicks`); ``game`` is the game named by the custom id."""

    async def accept_challenge(self, interaction: discord.Interaction, game: str,
                               challenge_id: int) -> None: ...
    async def decline_challenge(self, interaction: discord.Interaction, game: str,
                                challenge_id: int) -> None: ...
    async def cancel_challenge(self, interaction: discord.Interaction, game: str,
                               challenge_id: int) -> None: ...
    async def table_button(self, interaction: discord.Interaction, game: str, table_id: int,
                           what: str) -> None: ...
    async def seat_table_ai(self, interaction: discord.Interaction, game: str, table_id: int,
                            level: str) -> None: ...
    async def open_hand(self, interaction: discord.Interaction, game: str, match_id: int,
                        key: int) -> None: ...
    async def choose_action(self, interaction: discord.Interaction, game: str, match_id: int,
                            version: int, notation: str) -> None: ...
    async def open_group(self, interaction: discord.Interaction, game: str, match_id: int,
                         version: int, key: str) -> None: ...
    async def turn_page(self, interaction: discord.Interaction, game: str, match_id: int,
                        version: int, key: str, page: int) -> None: ...
    async def undo(self, interaction: discord.Interaction, game: str, match_id: int,
                   version: int) -> None: ...
    async def resign(self, interaction: discord.Interaction, game: str,
                     match_id: int) -> None: ...
    async def end_match(self, interaction: discord.Interaction, game: str,
                        match_id: int) -> None: ...
    async def accept_draw(self, interaction: discord.Interaction, game: str,
                          match_id: int) -> None: ...
    async def decline_draw(self, interaction: discord.Interaction, game: str,
                           match_id: int) -> None: ...
    async def rematch(self, interaction: discord.Interaction, game: str,
                      match_id: int) -> None: ...
    async def replay_step(self, interaction: discord.Interaction, game: str, match_id: int,
                          index: int) -> None: ...
    def of_game(self, game: str) -> Any:
        """The click handlers of ``game``'s own controls (its UI's ``make_clicks``)."""
        ...


class ClickTarget(Protocol):
    """A client whose ``clicks`` answer the controls (:class:`bot.discord.app.RaptorBot`)."""

    @property
    def clicks(self) -> Clicks: ...


def clicks_of(interaction: discord.Interaction) -> Clicks:
    """The handlers of the client that got ``interaction``."""
    return cast(ClickTarget, interaction.client).clicks


# --------------------------------------------------------------------------- dynamic items


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=rf"{GAME}:c:(?P<cid>{NUMBER}):(?P<what>accept|decline|cancel)"):
    """Accept / Decline (the challenged user) or Cancel (the challenger) a challenge."""

    LABELS = {"accept": (Text("Accept"), discord.ButtonStyle.success),
              "decline": (Text("Decline"), discord.ButtonStyle.danger),
              "cancel": (Text("Cancel"), discord.ButtonStyle.secondary)}

    def __init__(self, game: str, challenge_id: int, what: str, lang: str = ENGLISH) -> None:
        label, style = self.LABELS[what]
        super().__init__(discord.ui.Button(label=tr(label, lang), style=style,
                                           custom_id=f"{game}:c:{challenge_id}:{what}"))
        self.game = game
        self.challenge_id = challenge_id
        self.what = what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> ChallengeButton:
        return cls(match["game"], int(match["cid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        clicks = clicks_of(interaction)
        answer = {"accept": clicks.accept_challenge, "decline": clicks.decline_challenge,
                  "cancel": clicks.cancel_challenge}[self.what]
        await answer(interaction, self.game, self.challenge_id)


class TableButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=(rf"{GAME}:t:(?P<tid>{NUMBER}):"
                            r"(?P<what>join|leave|unseat|start|cancel)")):
    """A table's Join / Leave (anyone), Remove AI / Start / Cancel (its host)."""

    LABELS = {"join": (Text("Join"), discord.ButtonStyle.primary),
              "leave": (Text("Leave"), discord.ButtonStyle.secondary),
              "unseat": (Text("Remove an AI"), discord.ButtonStyle.secondary),
              "start": (Text("Start match"), discord.ButtonStyle.success),
              "cancel": (Text("Cancel"), discord.ButtonStyle.danger)}

    def __init__(self, game: str, table_id: int, what: str, lang: str = ENGLISH) -> None:
        label, style = self.LABELS[what]
        super().__init__(discord.ui.Button(label=tr(label, lang), style=style,
                                           custom_id=f"{game}:t:{table_id}:{what}"))
        self.game = game
        self.table_id = table_id
        self.what = what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> TableButton:
        return cls(match["game"], int(match["tid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).table_button(interaction, self.game, self.table_id,
                                                  self.what)


class TableAISelect(discord.ui.DynamicItem[discord.ui.Select],
                    template=rf"{GAME}:t:(?P<tid>{NUMBER}):ai"):
    """A table's menu of the AI's levels: its host seats the AI at the chosen one."""

    def __init__(self, game: str, table_id: int, *,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str = Text("Seat the AI (host)")) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"{game}:t:{table_id}:ai", placeholder=placeholder,
            options=list(options), min_values=1, max_values=1))
        self.game = game
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> TableAISelect:
        return cls(match["game"], int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await clicks_of(interaction).seat_table_ai(interaction, self.game, self.table_id,
                                                   values[0] if values else "")


class HandButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"{GAME}:m:(?P<mid>{NUMBER}):r:(?P<round>{NUMBER}):hand"):
    """Opens the clicking player's private view, ephemerally (Raptor: "Pick your card")."""

    def __init__(self, game: str, match_id: int, key: int, label: str = "",
                 emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or Text("Your hand"), emoji=emoji,
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"{game}:m:{match_id}:r:{key}:hand"))
        self.game = game
        self.match_id = match_id
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> HandButton:
        return cls(match["game"], int(match["mid"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).open_hand(interaction, self.game, self.match_id, self.key)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select],
                   template=(rf"{GAME}:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):do"
                             rf"(?::(?P<i>{NUMBER}))?")):
    """A select menu of legal actions; each option's value is the action's notation."""

    def __init__(self, game: str, match_id: int, version: int, index: int | None = None, *,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str = Text("Choose an action")) -> None:
        suffix = "" if index is None else f":{index}"
        super().__init__(discord.ui.Select(
            custom_id=f"{game}:m:{match_id}:v:{version}:do{suffix}", placeholder=placeholder,
            options=list(options), min_values=1, max_values=1))
        self.game = game
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> ActionSelect:
        i = match["i"]
        return cls(match["game"], int(match["mid"]), int(match["ver"]),
                   None if i is None else int(i))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await clicks_of(interaction).choose_action(interaction, self.game, self.match_id,
                                                   self.version, values[0] if values else "")


class GroupSelect(discord.ui.DynamicItem[discord.ui.Select],
                  template=rf"{GAME}:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):grp"):
    """A select menu of groups of legal actions (Raptor: figurines and board areas);
    choosing one opens that group's actions in an ephemeral message."""

    def __init__(self, game: str, match_id: int, version: int, *,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str = Text("Choose a figurine or an area")) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"{game}:m:{match_id}:v:{version}:grp", placeholder=placeholder,
            options=list(options), min_values=1, max_values=1))
        self.game = game
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> GroupSelect:
        return cls(match["game"], int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await clicks_of(interaction).open_group(interaction, self.game, self.match_id,
                                                self.version, values[0] if values else "")


class PageButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=(rf"{GAME}:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):grp:"
                           rf"(?P<key>[A-Za-z0-9]{{1,20}}):(?P<page>{NUMBER})")):
    """Previous / next page of a group with more than 100 actions."""

    def __init__(self, game: str, match_id: int, version: int, key: str, page: int,
                 label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or Text("Page {n}", n=page + 1), style=discord.ButtonStyle.secondary,
            custom_id=f"{game}:m:{match_id}:v:{version}:grp:{key}:{page}"))
        self.game, self.match_id, self.version, self.key, self.page = (
            game, match_id, version, key, page)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> PageButton:
        return cls(match["game"], int(match["mid"]), int(match["ver"]), match["key"],
                   int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).turn_page(interaction, self.game, self.match_id,
                                               self.version, self.key, self.page)


class TurnButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"{GAME}:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):(?P<what>end|undo)"):
    """The action ``end`` of the game's notation (Raptor: end the turn or stop an optional
    effect, R5.4-R5.5) or Undo (the player's last decision, when its game allows it)."""

    def __init__(self, game: str, match_id: int, version: int, what: str,
                 label: str = "") -> None:
        style = discord.ButtonStyle.success if what == "end" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(
            label=label or (Text("End turn") if what == "end" else Text("Undo")), style=style,
            emoji="↩️" if what == "undo" else None,
            custom_id=f"{game}:m:{match_id}:v:{version}:{what}"))
        self.game, self.match_id, self.version, self.what = game, match_id, version, what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> TurnButton:
        return cls(match["game"], int(match["mid"]), int(match["ver"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        clicks = clicks_of(interaction)
        if self.what == "undo":
            await clicks.undo(interaction, self.game, self.match_id, self.version)
        else:
            await clicks.choose_action(interaction, self.game, self.match_id, self.version,
                                       "end")


class MatchButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=(rf"{GAME}:m:(?P<mid>{NUMBER}):"
                            r"(?P<what>resign|rematch|draw-accept|draw-decline|end)")):
    """Resign (confirmation), Rematch, the answers to a draw offer, and a moderator's End
    match (confirmation)."""

    LABELS = {"resign": (Text("Resign"), discord.ButtonStyle.danger),
              "end": (Text("End match"), discord.ButtonStyle.danger),
              "rematch": (Text("Rematch"), discord.ButtonStyle.primary),
              "draw-accept": (Text("Accept draw"), discord.ButtonStyle.success),
              "draw-decline": (Text("Decline draw"), discord.ButtonStyle.secondary)}

    def __init__(self, game: str, match_id: int, what: str, lang: str = ENGLISH) -> None:
        label, style = self.LABELS[what]
        super().__init__(discord.ui.Button(label=tr(label, lang), style=style,
                                           custom_id=f"{game}:m:{match_id}:{what}"))
        self.game, self.match_id, self.what = game, match_id, what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> MatchButton:
        return cls(match["game"], int(match["mid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        clicks = clicks_of(interaction)
        answer = {"resign": clicks.resign, "end": clicks.end_match, "rematch": clicks.rematch,
                  "draw-accept": clicks.accept_draw,
                  "draw-decline": clicks.decline_draw}[self.what]
        await answer(interaction, self.game, self.match_id)


#: The platform's controls (each game adds its own: ``GameUI.dynamic_items``).
DYNAMIC_ITEMS = (ChallengeButton, TableButton, TableAISelect, HandButton, ActionSelect,
                 GroupSelect, PageButton, TurnButton, MatchButton)

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


def challenge_view(ch: Challenge, lang: str = ENGLISH) -> discord.ui.View:
    return make_view(*(ChallengeButton(ch.game, ch.id, w, lang)
                       for w in ("accept", "decline", "cancel")))


def table_view(table: Table, levels: Sequence[str], lang: str = ENGLISH
               ) -> discord.ui.View:
    """An open table's controls: the AI's ``levels`` to seat (while a seat is free), then
    Join, Leave, Remove an AI, Start, Cancel."""
    items: list[discord.ui.Item] = []
    if not table.full and levels:
        items.append(TableAISelect(
            table.game, table.id, placeholder=tr(Text("Seat the AI (host)"), lang),
            options=[discord.SelectOption(label=tr(texts.ai_name(level), lang), value=level)
                     for level in levels]))
    items.extend(TableButton(table.game, table.id, what, lang)
                 for what in ("join", "leave", "unseat", "start", "cancel"))
    return make_view(*items)


def rematch_view(m: Match, lang: str = ENGLISH) -> discord.ui.View:
    return make_view(MatchButton(m.game, m.id, "rematch", lang))


def resign_view(m: Match, lang: str = ENGLISH) -> discord.ui.View:
    return make_view(MatchButton(m.game, m.id, "resign", lang))


def end_view(m: Match, lang: str = ENGLISH) -> discord.ui.View:
    """A moderator's confirmation: End match."""
    return make_view(MatchButton(m.game, m.id, "end", lang))


def draw_view(m: Match, lang: str = ENGLISH) -> discord.ui.View:
    return make_view(MatchButton(m.game, m.id, "draw-accept", lang),
                     MatchButton(m.game, m.id, "draw-decline", lang))
