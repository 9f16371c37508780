"""Reading typed actions (RJ11.3, RJ11.4): the notation of :mod:`.actions` and its short
forms, read by choosing among :func:`~.rules.legal_actions` (never by restating a rule).

Accepted besides the canonical form (case and spacing free; full-width forms and the minus
sign ``−`` read as ASCII): ``deck`` / ``pile`` / ``draw`` for the draws; a bare card
(``C7``) for the one play of it that is legal; ``flip 2`` and ``@2``; ``pass``, ``skip``,
``noflip`` for ``no flip``; ``@3`` for a card of your own display; a chip's size without its
sign (``10``) or after ``chip`` / ``token``; a player's display name in place of ``p2`` when
the caller passes ``names``; and a few Chinese words (:data:`CHINESE_ALIASES`).

A refusal says what is legal now and why the entry is not, from the seat's own cards and
what is public only: it reads the same whatever the hidden cards are (RJ11.2).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from ..messages import Text
from .actions import (
    Action,
    Chip,
    Discard,
    Down,
    Draw,
    Flip,
    NoFlip,
    Source,
    Target,
    Up,
    format_action,
    seat_name,
)
from .cards import effect_of, is_card, need_text
from .errors import AmbiguousActionError, IllegalActionError, NotationError, WrongTurnError
from .predicates import counts, missing
from .rules import legal_actions, pending_step, to_act
from .state import Phase, State

QUOTE_LIMIT = 40  # characters of an entry quoted back in a message

#: Chinese words typed in place of the English ones (the notation itself, cards and
#: places, is the same in every language).
CHINESE_ALIASES = {
    "抽牌庫": "draw deck", "抽棄牌堆": "draw discard", "牌庫": "deck", "棄牌堆": "pile",
    "抽": "draw", "正面": "up", "翻開打出": "up", "明": "up", "背面": "down", "蓋": "down",
    "暗": "down", "棄牌": "discard", "棄": "discard", "不翻": "no flip", "翻": "flip",
    "跳過": "pass",
}
_DASHES = str.maketrans({"−": "-", "–": "-", "—": "-", "＋": "+"})
_CJK_WORDS = re.compile("|".join(sorted(map(re.escape, CHINESE_ALIASES), key=len,
                                        reverse=True)))
#: Every shape an entry may have once normalised (see :func:`_normalise`).
_SHAPE = re.compile(
    r"(draw )?(deck|discard|pile)|draw|(up|down|discard) [a-z]\d{1,2}|[a-z]\d{1,2}"
    r"|flip @?\d{1,2}|@\d{1,2}|no flip|noflip|pass|skip"
    r"|p\d@\d{1,2}|p\d|((chip|token) )?[+-]?\d{1,2}")
_CARD_WORD = re.compile(r"(?:(?:up|down|discard) )?([a-oq-z]\d{1,2})")


def _quote(text: str) -> str:
    return repr(text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "…")


def _normalise(text: str, names: Mapping[str, int] | None) -> str:
    """Lower case, ASCII signs, single spaces, ``@`` without spaces, Chinese words and
    display names replaced (``bob@2`` -> ``p2@2`` when ``names["bob"] == 1``).

    Raises:
        NotationError: empty input, or not one of the shapes of notation.
    """
    raw = unicodedata.normalize("NFKC", str(text)).translate(_DASHES).lower()
    raw = _CJK_WORDS.sub(lambda m: f" {CHINESE_ALIASES[m.group(0)]} ", raw)
    raw = " ".join(raw.split())
    raw = re.sub(r"@\s+", "@", raw)
    raw = re.sub(r"(?<![a-z0-9])(p\d)\s+@", r"\1@", raw)  # 'p2 @3' is 'p2@3'
    raw = re.sub(r"^flip\s*@?", "flip @", raw) if raw.startswith("flip") else raw
    if not raw:
        raise NotationError(Text("empty input: type an action such as 'draw deck', 'up C7' "
                                 "or 'p2@3'"))
    if names:
        for name in sorted(names, key=len, reverse=True):
            key = " ".join(unicodedata.normalize("NFKC", name).lower().split())
            if key and (raw == key or raw.startswith((key + "@", key + " @"))):
                raw = seat_name(names[name]) + raw[len(key):].lstrip()
                break
    if not _SHAPE.fullmatch(raw):
        raise NotationError(Text("{entry} is not Ratjack notation; for example 'draw deck', "
                                 "'up C7', 'discard W2', 'flip @2', 'p2@3' or '+3'",
                                 entry=_quote(text)))
    card = _CARD_WORD.fullmatch(raw)
    if card and not is_card(card.group(1).upper()):
        raise NotationError(Text("{entry}: {card} is not a card (decks R, B, C and W, values "
                                 "1 to 12)", entry=_quote(text),
                                 card=card.group(1).upper()))
    return raw


def spellings(action: Action, seat: int) -> frozenset[str]:
    """Every normalised entry that names ``action`` of ``seat`` (its notation first)."""
    t = type(action)
    canonical = format_action(action).lower()
    if t is Draw:
        extra = {"deck"} if action.source is Source.DECK else {"pile", "draw pile"}
        return frozenset({canonical, "draw", *extra})
    if t in (Up, Down, Discard):
        return frozenset({canonical, action.card.lower()})
    if t is Flip:
        return frozenset({canonical, f"flip {action.place}", f"@{action.place}"})
    if t is NoFlip:
        return frozenset({canonical, "noflip", "pass", "skip"})
    if t is Target:
        own = {f"@{action.place}"} if action.seat == seat else set()
        return frozenset({canonical, *own})
    if t is Chip:
        size = str(abs(action.face))
        forms = {canonical, size}
        return frozenset(forms | {f"{w} {f}" for w in ("chip", "token") for f in forms})
    return frozenset({canonical})


def parse_among(text: str, legal: list[Action], seat: int, *,
                names: Mapping[str, int] | None = None) -> Action:
    """The action of ``legal`` (``seat``'s legal actions) that ``text`` names.

    Raises:
        NotationError: the text is not notation.
        IllegalActionError: well-formed, but none of ``legal`` (the message lists them).
        AmbiguousActionError: more than one of ``legal``.
    """
    norm = _normalise(text, names)
    hits = [a for a in legal if norm in spellings(a, seat)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousActionError(Text("{entry} matches {n} legal actions: {actions}",
                                        entry=_quote(text), n=len(hits),
                                        actions=", ".join(format_action(a) for a in hits)))
    raise refusal(text, legal, None)


def refusal(text: str, legal: list[Action], why: Text | None) -> IllegalActionError:
    """The error for entry ``text`` that names none of ``legal``: the reason ``why`` if known,
    then every legal action."""
    listed = ", ".join(format_action(a) for a in legal)
    if not legal:
        return IllegalActionError(Text("{entry} is not legal: there is nothing to decide",
                                       entry=_quote(text)))
    if why is not None:
        return IllegalActionError(Text("{entry} is not legal now: {why}; legal: {legal}",
                                       entry=_quote(text), why=why, legal=listed))
    return IllegalActionError(Text("{entry} is not legal now; legal: {legal}",
                                   entry=_quote(text), legal=listed))


def parse_action(text: str, state: State, seat: int, *,
                 names: Mapping[str, int] | None = None) -> Action:
    """Read ``text`` as one of ``seat``'s legal actions in ``state``.

    ``names`` maps players' display names (any case) to seats, so that ``bob@2`` reads as
    the card at place 2 of Bob's display.

    Raises:
        NotationError: the text is not notation at all.
        WrongTurnError: ``seat`` has nothing to decide now.
        IllegalActionError: well-formed but not legal now (with the reason when there is a
            simple one, and the legal actions).
        AmbiguousActionError: it names several legal actions.
    """
    norm = _normalise(text, names)
    acting = to_act(state)
    if seat not in acting:
        if state.phase is Phase.OVER:
            raise WrongTurnError(Text("{entry}: the game is over", entry=_quote(text)))
        raise WrongTurnError(Text("{entry}: it is not your decision now (waiting for {who})",
                                  entry=_quote(text),
                                  who=", ".join(seat_name(q) for q in sorted(acting))))
    legal = legal_actions(state, seat)
    try:
        return parse_among(text, legal, seat, names=names)
    except IllegalActionError:
        raise refusal(text, legal, why_not(state, seat, norm)) from None


def why_not(state: State, seat: int, norm: str) -> Text | None:
    """Why the normalised entry ``norm`` is not legal for ``seat`` now, when a short reason
    exists; read only from ``seat``'s own cards and public facts."""
    phase = state.phase
    words = norm.split()
    if phase is Phase.DRAW and not norm.startswith(("draw", "deck", "pile")):
        return Text("first draw a card: 'draw deck' or 'draw discard'")
    if phase is Phase.DRAW and norm in ("draw discard", "pile", "draw pile"):
        return Text("the discard pile is empty")
    if len(words) == 2 and words[0] in ("up", "down", "discard") and (
            phase is Phase.ACTION or pending_step(state) is not None):
        card = words[1].upper()
        hand = [h.card for h in state.hands[seat]]
        if card not in hand:
            return Text("you do not hold {card}; your hand: {hand}", card=card,
                        hand=", ".join(hand))
        if words[0] == "up" and phase is Phase.ACTION:
            lack = missing(effect_of(card), counts(state, seat, playing=True))
            if lack is not None:
                return Text("{card} cannot be played face up: its effect needs {need}",
                            card=card, need=need_text(*lack))
    if phase is Phase.FLIP and (words[0] == "flip" or norm.startswith("@")):
        return Text("flip one of your hidden cards, or 'no flip'")
    step = pending_step(state)
    if step is not None:
        return step.prompt
    if phase is Phase.ACTION:
        return Text("play a hand card: 'up', 'down' or 'discard' and the card")
    return None
