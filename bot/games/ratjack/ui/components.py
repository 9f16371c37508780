"""Ratjack's controls on Discord.

The match card is public, and every decision of a Ratjack turn names or depends on the
cards of the player's hand (RJ3.2, RJ11.1): so the card carries only the platform's
**Your cards** button (:class:`~bot.discord.components.HandButton`), which opens the
clicking player's private view, and the decisions are made there, privately (ephemeral or
by DM): the legal actions of that seat (RJ11.3, RJ11.4) as buttons when they are few and
short (the draw, RJ3.1), else as select menus (up to four of 25, :data:`MAX_MENUS`), each
labelled from the player's own view (:func:`bot.games.ratjack.texts.action_text`).

Custom ids (each names the match and its version: a control of an older position is out
of date)::

    ratjack:m:<m>:r:<round>:hand             Your cards (the platform's HandButton)
    ratjack:m:<m>:v:<v>:play:<notation>      one legal action (PlayButton)
    ratjack:m:<m>:v:<v>:menu:<i>             select menu i; its values are notations
                                             (PlaySelect)

An id is input from the client: the handler (:mod:`.clicks`) reloads the match and checks
the click (its message, the clicker's seat, the version) and the notation against the
seat's legal actions before anything changes.
"""

from __future__ import annotations

import re

import discord

from engine.messages import Text
from engine.ratjack import format_action, view

from ....discord.components import MAX_OPTIONS, NUMBER, HandButton, clicks_of, make_view
from ....i18n import ENGLISH, tr
from ....match import Match
from ....texts import ai_name
from .. import texts

#: Ratjack's name at the head of its custom ids.
GAME = "ratjack"
#: The characters of a Ratjack notation (``draw deck``, ``up C7``, ``p2@3``, ``-10``).
NOTATION = r"[A-Za-z0-9@+\- ]{1,40}"
#: At most this many select menus of actions (a fifth row is left free).
MAX_MENUS = 4
#: The legal actions are buttons when there are at most this many, each label short.
MAX_BUTTONS = 5
BUTTON_LABEL = 80  # Discord: characters of a button's label


class PlayButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=(rf"ratjack:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):"
                           rf"play:(?P<act>{NOTATION})")):
    """One legal action of the player's private view; only ever shown to that player."""

    def __init__(self, match_id: int, version: int, notation: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=(label or notation)[:BUTTON_LABEL], style=discord.ButtonStyle.primary,
            custom_id=f"ratjack:m:{match_id}:v:{version}:play:{notation}"))
        self.match_id = match_id
        self.version = version
        self.notation = notation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> PlayButton:
        return cls(int(match["mid"]), int(match["ver"]), match["act"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).of_game(GAME).play(interaction, self.match_id,
                                                        self.version, self.notation)


class PlaySelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=(rf"ratjack:m:(?P<mid>{NUMBER}):v:(?P<ver>{NUMBER}):"
                           r"menu:(?P<i>[0-9])")):
    """A select menu of legal actions of the player's private view; each option's value is
    the action's notation."""

    def __init__(self, match_id: int, version: int, index: int, *,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"ratjack:m:{match_id}:v:{version}:menu:{index}",
            placeholder=placeholder or None, options=options or [],
            min_values=1, max_values=1))
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> PlaySelect:
        return cls(int(match["mid"]), int(match["ver"]), int(match["i"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await clicks_of(interaction).of_game(GAME).play(interaction, self.match_id,
                                                        self.version,
                                                        values[0] if values else "")


def label_names(match: Match) -> list[Text | str]:
    """The seats' names in the labels of controls (where a mention does not show as a
    name): ``p1`` for a person, ``p2 AI (hard)`` for an AI seat."""
    return [texts.seat_label(p.seat, ai_name(p.ai)) if p.ai else f"p{p.seat + 1}"
            for p in match.players]


def legal_choices(match: Match, seat: int) -> list[tuple[str, Text | str]]:
    """``(notation, label)`` of every legal action of ``seat`` now, labelled from that
    seat's own view — PRIVATE to its player (a label may name their cards)."""
    v = view(match.state, seat)
    names = label_names(match)
    return [(format_action(a), texts.action_text(v, a, names)) for a in v.legal]


def open_view(match: Match, lang: str = ENGLISH) -> discord.ui.View:
    """The card's one control: **Your cards**, which opens the clicker's private view."""
    return make_view(HandButton(GAME, match.id, match.state.round, tr(texts.YOUR_CARDS, lang),
                                emoji="🂠"))


def private_view(match: Match, seat: int, lang: str = ENGLISH) -> discord.ui.View | None:
    """The decisions of ``seat`` now — PRIVATE: send only to its player. None when it has
    nothing to decide (or the match is over)."""
    if not match.active or seat not in match.to_act() or match.ai_of(seat):
        return None
    choices = [(notation, tr(label, lang)) for notation, label in legal_choices(match, seat)]
    if not choices:
        return None
    if len(choices) <= MAX_BUTTONS and all(len(label) <= BUTTON_LABEL for _, label in choices):
        return make_view(*(PlayButton(match.id, match.version, notation, label)
                           for notation, label in choices))
    menus = []
    chunks = [choices[k:k + MAX_OPTIONS] for k in range(0, len(choices), MAX_OPTIONS)]
    for i, chunk in enumerate(chunks[:MAX_MENUS]):
        placeholder = (Text("Choose your decision") if len(chunks) == 1 else
                       Text("Choose your decision ({first}-{last})", first=i * MAX_OPTIONS + 1,
                            last=i * MAX_OPTIONS + len(chunk)))
        options = [discord.SelectOption(
            label=label[:100], value=notation,
            description=tr(Text("notation: {notation}", notation=notation), lang)[:100])
            for notation, label in chunk]
        menus.append(PlaySelect(match.id, match.version, i, options=options,
                                placeholder=tr(placeholder, lang)[:150]))
    return make_view(*menus)
