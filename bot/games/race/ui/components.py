"""Raptor Race's controls on Discord: its own two (:class:`KeepSelect`, the dice of the roll
to set aside, and :class:`KeepAllButton`), and the card's view built with the platform's
(:mod:`bot.discord.components`): **Your Top-3 card** (the platform's hand button: the card
privately), then, when a person plays the turn, setting dice aside (RR4.2, RR4.3, RR9.3) or
the result's dice to use, a booster's step (RR5, RR9.4) and Undo.

Custom ids: the platform's with ``race`` at their head, and

    race:m:<m>:v:<v>:keep            select: dice of the roll by position (``0``-``3``) and
                                     ``a`` for the arrows die; the others are rolled again
    race:m:<m>:v:<v>:keep:all        button: set every die rolled aside (ends the rolling)

Every control is public and made from the public view (RR9.2). A click is only a request:
its handler (:mod:`.clicks`) reloads the match and checks everything the id claims.
"""

from __future__ import annotations

import re

import discord

import engine.race as race
from engine.game import Seat
from engine.messages import Text
from engine.race import Face, Phase, RaceState

from ....discord.components import (
    MAX_OPTIONS,
    NUMBER,
    SELECTS_PER_PAGE,
    ActionSelect,
    GroupSelect,
    HandButton,
    TurnButton,
    clicks_of,
    make_view,
)
from ....i18n import ENGLISH, tr
from ....match import Match
from .. import texts

#: Raptor Race's name at the head of its custom ids.
GAME = "race"
#: The value of the arrows die in the keep menu (the notation's letter, RR9.3).
ARROWS = race.actions.ARROWS_LETTER
#: An emoji per die face, beside its name in the menus.
FACE_EMOJI = {Face.B: "🔵", Face.G: "🟢", Face.O: "🟠", Face.P: "🟣", Face.Y: "🟡",
              Face.T: "🦖"}


class KeepSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=rf"race:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):keep"):
    """The dice of the roll to set aside (RR4.2), and the arrows die (RR4.3); the others
    are rolled again."""

    def __init__(self, match_id: int, version: int, *,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str = "") -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(
            custom_id=f"race:m:{match_id}:v:{version}:keep", placeholder=placeholder or None,
            options=options, min_values=1, max_values=len(options)))
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> KeepSelect:
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).of_game(GAME).keep(interaction, self.match_id,
                                                        self.version, list(self.item.values))


class KeepAllButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=rf"race:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):keep:all"):
    """Set every die rolled aside: the rolling ends (RR4.2)."""

    def __init__(self, match_id: int, version: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or "Keep all", style=discord.ButtonStyle.success,
            custom_id=f"race:m:{match_id}:v:{version}:keep:all"))
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> KeepAllButton:
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).of_game(GAME).keep(interaction, self.match_id,
                                                        self.version, None)


# --------------------------------------------------------------------------- what a menu says
def face_name(face: Face) -> Text:
    """``"Green"``, ``"T-Rex"``: a die face in words."""
    return Text("T-Rex") if face is Face.T else texts.raptor_name(race.Raptor(face.value))


def arrows_optional(state: RaceState) -> bool:
    """Whether setting the arrows die aside is a choice of its own now (RR4.3, RR9.5): it
    is rolled and not aside yet."""
    return state.arrow_die is not None and not state.arrow_aside


def keep_options(state: RaceState, lang: str = ENGLISH) -> list[discord.SelectOption]:
    """The keep menu's options: each die rolled by its position (value ``"0"``…), then
    the arrows die (value ``"a"``) while it may be set aside."""
    options = [discord.SelectOption(
        label=tr(Text("{face} footprint", face=face_name(face)), lang)[:100], value=str(i),
        emoji=FACE_EMOJI[face], description=f"{face.value}")
        for i, face in enumerate(state.rolled)]
    if arrows_optional(state):
        options.append(discord.SelectOption(
            label=tr(Text.plural("The arrows die ({n} arrow)", "The arrows die ({n} arrows)",
                                 state.arrow_die), lang)[:100], value=ARROWS, emoji="↗️"))
    return options


def keep_notation(state: RaceState, values: list[str] | None) -> str | None:
    """The ``keep`` notation (RR9.3) of what the keep menu sent: positions of the dice
    rolled, each once, and ``a``; ``None`` (the button) is every die rolled. Returns None
    when ``values`` is no such choice (no footprint die, a position out of range or twice,
    anything else)."""
    if values is None:
        return "keep all"
    if not values or len(set(values)) != len(values):
        return None
    arrows = ARROWS in values
    positions = [v for v in values if v != ARROWS]
    if not all(v.isdigit() and len(v) == 1 and int(v) < len(state.rolled) for v in positions):
        return None
    if not positions:  # the arrows die never counts as the die set aside (RR4.3)
        return None
    faces = "".join(state.rolled[int(v)].value for v in positions)
    return f"keep {faces}{' ' + ARROWS if arrows else ''}"


def action_option(action: race.Action, state: RaceState,
                  lang: str = ENGLISH) -> discord.SelectOption:
    """A legal action as a menu option: what it does, its notation as value."""
    notation = race.format_action(action)
    die = getattr(action, "die", None)
    return discord.SelectOption(
        label=tr(race.describe_action(action, state), lang)[:100], value=notation,
        emoji=FACE_EMOJI.get(die, "➕"),
        description=tr(Text("notation: {notation}", notation=notation), lang)[:100])


def group_key(action: race.Action) -> str:
    """The group of an action in the controls: its die's letter, ``boost`` for a
    booster's step."""
    die = getattr(action, "die", None)
    return "boost" if die is None else die.value


def groups(state: RaceState, seat: Seat) -> dict[str, list[race.Action]]:
    """The seat's legal steps by die (RR5.1), in the engine's order."""
    out: dict[str, list[race.Action]] = {}
    for a in race.legal_actions(state, seat):
        out.setdefault(group_key(a), []).append(a)
    return out


def group_label(key: str) -> Text:
    if key == "boost":
        return Text("The booster")
    return Text("The {face} die", face=face_name(Face(key)))


# --------------------------------------------------------------------------- the card's view
def hand_button(match: Match, lang: str = ENGLISH) -> HandButton:
    """**Your Top-3 card**: the clicking player's card, privately (RR9.2)."""
    return HandButton(GAME, match.id, match.state.turn, tr(Text("Your Top-3 card"), lang),
                      emoji="🃏")


def card_view(match: Match, lang: str = ENGLISH) -> discord.ui.View:
    """The live card's controls (public): the decision's when a person plays the turn
    (:func:`turn_items`), and **Your Top-3 card**."""
    state: RaceState = match.state
    items: list[discord.ui.Item] = []
    seat = state.seat
    if seat in match.to_act() and not match.ai_of(seat):
        items.extend(turn_items(match, seat, lang))
    items.append(hand_button(match, lang))
    return make_view(*items)


def turn_items(match: Match, seat: Seat, lang: str = ENGLISH) -> list[discord.ui.Item]:
    """Rolling (RR4.2, RR4.3): the keep menu and **Keep all**. Moving (RR5): a menu of the
    legal steps when they fit one menu, else a menu of the dice (each opens its steps
    privately); and **Undo** (a step of this move, or the last setting aside, may be taken
    back)."""
    state: RaceState = match.state
    mid, ver = match.id, match.version
    if state.phase is Phase.ROLL:
        return [KeepSelect(mid, ver, options=keep_options(state, lang),
                           placeholder=tr(Text("Set dice aside; the others are rolled again"),
                                          lang)[:150]),
                KeepAllButton(mid, ver, tr(Text("Keep all"), lang))]
    legal = race.legal_actions(state, seat)
    items: list[discord.ui.Item] = []
    if len(legal) <= MAX_OPTIONS:
        placeholder = (Text("Choose the booster's step") if state.pending is not None
                       else Text("Choose a die and its step"))
        items.append(ActionSelect(GAME, mid, ver,
                                  options=[action_option(a, state, lang) for a in legal],
                                  placeholder=tr(placeholder, lang)))
    else:
        options = [discord.SelectOption(
            label=tr(group_label(key), lang)[:100], value=key,
            description=tr(Text.plural("{n} step", "{n} steps", len(acts)), lang))
            for key, acts in groups(state, seat).items()]
        # at most six groups (five faces and the booster): they always fit one menu
        items.append(GroupSelect(GAME, mid, ver, options=options,
                                 placeholder=tr(Text("Choose a die"), lang)))
    items.append(TurnButton(GAME, mid, ver, "undo", tr(Text("Undo"), lang)))
    return items


def group_view(match: Match, seat: Seat, key: str, lang: str = ENGLISH
               ) -> tuple[discord.ui.View, str] | None:
    """The steps of one die (``key``, :func:`group_key`), privately: menus of up to 25;
    None when that die has no step now."""
    acts = groups(match.state, seat).get(key)
    if not acts:
        return None
    items: list[discord.ui.Item] = []
    for n, i in enumerate(range(0, len(acts), MAX_OPTIONS)):
        if n >= SELECTS_PER_PAGE:
            break
        items.append(ActionSelect(GAME, match.id, match.version, n,
                                  placeholder=tr(group_label(key), lang)[:150],
                                  options=[action_option(a, match.state, lang)
                                           for a in acts[i:i + MAX_OPTIONS]]))
    title = Text.plural("**{group}** — {n} step", "**{group}** — {n} steps", len(acts),
                        group=group_label(key))
    return make_view(*items), tr(title, lang)
