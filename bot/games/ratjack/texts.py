"""Ratjack's sentences, Discord-free: what a presentation of the game says about a match.

Two layers:

- pieces of any public position, by seat names given by the caller (``names``, one per seat:
  a mention, ``you (p1)``, ``p2 AI (hard)``): the story of events (:func:`story`), what the
  seat to act decides (:func:`your_decision`, :func:`their_decision`), a legal action in
  words (:func:`action_text`), the round's end (:func:`round_end_text`). The offline modes
  use them with their own names;
- sentences of a :class:`bot.match.Match` of Ratjack, its players named as Discord mentions
  (``p1 <@123>``) and its AI seats by level (``p2 AI (hard)``): :func:`match_start_line`,
  :func:`card_head`, :func:`turn_story`, :func:`standings_text`, :func:`round_result_text`,
  :func:`match_result_text`, :func:`status_text`, :func:`ping_text` and, PRIVATE to one
  player, :func:`private_text`.

Every sentence is a :class:`~engine.messages.Text` of the catalog. Everything but
:func:`private_text` and :func:`action_text` (which may name the viewer's own cards) reads
public facts only (RJ11.1): the public view (``view(state, None)``) and the public events
(:class:`engine.ratjack.Event`), which never name a card the table did not see; a card
played face down is "a card", a look (Rat 5) names the card looked at by its place, never
its face. Cards and places are written in notation (``C7``, ``p2@3``, ``+3``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.game import Ending
from engine.messages import Text
from engine.ratjack import (
    DECK_PAIRS,
    EVERYONE,
    Chip,
    Discard,
    Down,
    Draw,
    Event,
    EventKind,
    Flip,
    NoFlip,
    Opponent,
    Phase,
    Reason,
    RoundEnd,
    RoundResult,
    Source,
    State,
    Target,
    Up,
    View,
    effect_of,
    effect_title,
    seat_name,
    view,
)
from engine.ratjack.cards import (
    CHIP_SIZES,
    DECK_BY_LETTER,
    WINNING_VP,
    Kind,
    format_face,
    kind_of,
)
from engine.ratjack.effects import Choose, script

from ...texts import ai_name, mention, ts

#: A seat's name in a sentence, by seat: a :class:`Text` or a plain string.
Names = Sequence[Any]

TITLE = Text("Ratjack")


# --------------------------------------------------------------------------- names
def seat_label(seat: int, who: Any) -> Text:
    """``"p2 AI (hard)"``, ``"p1 <@123>"``: a seat's notation name (``p2@3`` names its
    cards) and who plays it."""
    return Text("{seat} {who}", seat=seat_name(seat), who=who)


def player(match: Any, seat: int) -> Text:
    """The player of ``seat`` of ``match``: ``"p1 <@123>"`` for a person (a Discord
    mention), ``"p2 AI (hard)"`` for an AI seat."""
    p = match.players[seat]
    return seat_label(seat, ai_name(p.ai) if p.ai else f"<@{p.user_id}>")


def player_names(match: Any) -> list[Text]:
    """:func:`player` of every seat, by seat."""
    return [player(match, q) for q in range(match.seats)]


def match_title(match: Any) -> Text:
    return Text("Ratjack match #{id}", id=match.id)


def _and(items: Sequence[Any]) -> Text:
    return Text.joined(" and ", items)


def _decks(decks: str) -> Text:
    """``"Red Rats and Blue Rats"``: the match's two decks (RJ2.1)."""
    return _and([DECK_BY_LETTER[letter].name for letter in DECK_PAIRS[decks]])


def decks_text(decks: str) -> Text:
    """A new match's option in a sentence (a table's message): ``"decks: Red Rats and Blue
    Rats"`` (RJ2.1)."""
    return Text("decks: {decks}", decks=_decks(decks))


# --------------------------------------------------------------------------- the story
#: How a round ended (RJ9.1), after "the round is over: ...".
ROUND_ENDS = {
    RoundEnd.EXACTLY_25: Text("a player reached exactly 25"),
    RoundEnd.LAST_STANDING: Text("one player was left"),
    RoundEnd.NONE_LEFT: Text("no one was left"),
    RoundEnd.DECK_EMPTY: Text("the deck ran out"),
    RoundEnd.GAME_OVER: Text("a player reached 3 VP"),
    RoundEnd.FORFEIT: Text("one player was left in the match"),
}

#: Why a VP was gained (an :data:`EventKind.VP` event's ``target``).
VP_REASONS = {
    "push": Text("for pushing an opponent over 25"),
    RoundEnd.EXACTLY_25.value: Text("for exactly 25"),
    RoundEnd.LAST_STANDING.value: Text("as the last player standing"),
    RoundEnd.DECK_EMPTY.value: Text("for the highest total when the deck ran out"),
}


def _card_and_effect(card: str) -> Text:
    return Text("{card} ({effect})", card=card, effect=effect_title(card))


def _owner(target: str, names: Names) -> Any:
    """The name of the owner of the card ``p2@3``."""
    return names[int(target[1]) - 1]


class _Frame:
    """An effect being resolved, as the story follows it: its card, its decisions so far
    (their notation), how many it has (RJ11.4)."""

    def __init__(self, card: str) -> None:
        self.card = card
        self.picks: list[str] = []
        self.choices = sum(1 for step in script(card) if isinstance(step, Choose))

    @property
    def done(self) -> bool:
        return len(self.picks) >= self.choices


def _seat_of(target: str) -> int:
    """The seat of a choice's notation: ``p2`` or ``p2@3`` -> 1."""
    return int(target[1]) - 1


#: The effects whose decision ``k`` places the bonus token chosen just before it (RJ4.6).
_PLACING = {(Kind.RAT, 1): (1,), (Kind.RAT, 4): (1,), (Kind.RAT, 8): (1,),
            (Kind.RACCOON, 6): (1, 3), (Kind.RACCOON, 8): (1, 3), (Kind.RACCOON, 11): (1,),
            (Kind.WEASEL, 4): (1,)}
#: The effects whose decision turns the chosen card face up (the card shown next).
_REVEALING = {(Kind.RAT, 6, 0), (Kind.RAT, 12, 0), (Kind.RACCOON, 7, 0),
              (Kind.RACCOON, 7, 1)}


def _choice_phrase(frame: _Frame, who: Any, target: str, names: Names,
                   shown: str | None, card: str | None) -> Text | None:
    """The sentence of the next decision of ``frame``'s effect (RJ5-RJ7), ``target`` its
    notation; ``shown``: the card it turned face up (told by the event right after it);
    ``card``: the card it put on the discard pile (Raccoon 10's hand card, Weasel 11's
    hidden card). None for a decision told with the next one (a bonus token chosen before
    the card it goes on, Raccoon 2's own card before the trade)."""
    k = len(frame.picks)
    first = frame.picks[0] if frame.picks else "?"
    kind, value = kind_of(frame.card), int(frame.card[1:])
    if k in _PLACING.get((kind, value), ()):
        return Text("{player} placed the {chip} bonus token on {card}.", player=who,
                    chip=frame.picks[k - 1], card=target)
    if (kind, value, k) in _REVEALING:
        return Text("{player} turned {card} face up: {shown}.", player=who, card=target,
                    shown=shown or "?")
    key = (kind, value, k)
    if key == (Kind.RAT, 5, 0):
        return Text("{player} looked at a hidden card of {owner} ({card}).", player=who,
                    owner=names[_seat_of(target)], card=target)
    if key == (Kind.RAT, 7, 1):
        return Text("{player} swapped {mine} with {card}.", player=who, mine=first,
                    card=target)
    if key == (Kind.RAT, 9, 1):
        return Text("{player} moved the {chip} bonus token onto {card}.", player=who,
                    chip=first, card=target)
    if key == (Kind.RAT, 10, 0):
        return Text("{player} turned {card} face down.", player=who, card=target)
    if key == (Kind.RACCOON, 1, 0):
        return Text("{player} put {card} on the discard pile.", player=who, card=target)
    if key == (Kind.RACCOON, 2, 1):
        return Text("{player} traded their hidden card {mine} for {card}.", player=who,
                    mine=first, card=target)
    if key == (Kind.RACCOON, 4, 0):
        return Text("{player} took {card} into their display face up: {shown}.", player=who,
                    card=target, shown=shown or "?")
    if key == (Kind.RACCOON, 10, 0):
        return Text("{player} discarded {card} from their hand.", player=who,
                    card=card or target)
    if key == (Kind.WEASEL, 1, 0):
        return Text("{player} exchanged hand cards with {opponent}.", player=who,
                    opponent=names[_seat_of(target)])
    if key in ((Kind.WEASEL, 2, 0), (Kind.WEASEL, 10, 0)):
        return Text("{player} returned the {chip} bonus token to the reserve.", player=who,
                    chip=target)
    if key == (Kind.WEASEL, 3, 0):
        return Text("{player} put the card they drew face down at the end of the display "
                    "of {opponent}.", player=who, opponent=names[_seat_of(target)])
    if key == (Kind.WEASEL, 5, 0):
        if shown is not None:
            return Text("{player} turned {card} face up: {shown}.", player=who, card=target,
                        shown=shown)
        return Text("{player} turned {card} face down.", player=who, card=target)
    if key == (Kind.WEASEL, 6, 0):
        return Text("{player} took {card} into their display.", player=who, card=target)
    if key == (Kind.WEASEL, 7, 1):
        return Text("{player} exchanged the {old} bonus token for the {chip} one from the "
                    "reserve.", player=who, old=first, chip=target)
    if key == (Kind.WEASEL, 8, 1):
        return Text("{player} exchanged the {old} and {chip} bonus tokens.", player=who,
                    old=first, chip=target)
    if key == (Kind.WEASEL, 11, 0):
        return Text("{player} put their hidden card {card} on the discard pile: {shown}.",
                    player=who, card=target, shown=card or "?")
    if key == (Kind.WEASEL, 12, 1):
        return Text("{player} gave the {chip} bonus token to {opponent}, who puts it on one "
                    "of their cards.", player=who, chip=first,
                    opponent=names[_seat_of(target)])
    if key == (Kind.WEASEL, 12, 2):
        return Text("{player} put the {chip} bonus token on {card}.", player=who, chip=first,
                    card=target)
    return None


def _phrases(events: Sequence[Event], names: Names) -> list[Text | None]:
    """The sentence of each event (None: told with another one), in order: the effects
    being resolved are followed from the events themselves (a card played face up or
    triggered starts one, its decisions follow, RJ4)."""
    out: list[Text | None] = [None] * len(events)
    stack: list[_Frame] = []
    skip: set[int] = set()
    i = 0
    while i < len(events):
        e = events[i]
        kind = e.kind
        who = names[e.seat] if e.seat is not None else ""
        if i in skip:
            i += 1
            continue
        if is_turn_start(e):
            stack.clear()  # a turn begins with no effect being resolved
        if kind == EventKind.ROUND:
            out[i] = Text("Round {n} begins: {player} starts; {card} starts the discard "
                          "pile.", n=e.value, player=who, card=e.card)
        elif kind == EventKind.DRAW_DECK:
            out[i] = Text("{player} drew a card from the deck.", player=who)
        elif kind == EventKind.DRAW_DISCARD:
            out[i] = {"down": Text("{player} put {card} from the discard pile face down in "
                                   "their display.", player=who, card=e.card),
                      "up": Text("{player} put {card} from the discard pile face up in "
                                 "their display.", player=who, card=e.card),
                      }.get(e.target or "", Text("{player} took {card} from the discard "
                                                 "pile.", player=who, card=e.card))
        elif kind == EventKind.UP:
            stack.append(_Frame(e.card))
            out[i] = Text("{player} played {card} face up.", player=who,
                          card=_card_and_effect(e.card))
        elif kind == EventKind.DOWN:
            out[i] = Text("{player} played a card face down.", player=who)
        elif kind == EventKind.DISCARD:
            out[i] = Text("{player} discarded {card}.", player=who, card=e.card)
        elif kind == EventKind.FLIP:
            out[i] = Text("{player} flipped their hidden card {place}: {card}.", player=who,
                          place=e.target, card=e.card)
        elif kind == EventKind.NO_FLIP:
            out[i] = Text("{player} flipped no card.", player=who)
        elif kind == EventKind.TRIGGER:
            stack.append(_Frame(e.card))
            out[i] = Text("{card} triggers.", card=_card_and_effect(e.card))
        elif kind == EventKind.SKIPPED:
            out[i] = Text("{card} cannot be carried out in full: its effect is skipped.",
                          card=_card_and_effect(e.card))
        elif kind == EventKind.CHOICE:
            while stack and stack[-1].done:
                stack.pop()
            following = events[i + 1] if i + 1 < len(events) else None
            shown = card = None
            if following is not None and following.kind == EventKind.REVEALED:
                shown = following.card
                skip.add(i + 1)
            elif (following is not None and following.kind == EventKind.DISCARD
                  and following.target == "hidden"):
                card = following.card
                skip.add(i + 1)
            if e.card is not None:
                card = e.card
            target = e.target or ""
            if target.startswith("discard "):
                target = target.split(" ", 1)[1]
            if stack:
                frame = stack[-1]
                out[i] = _choice_phrase(frame, who, target, names, shown, card)
                frame.picks.append(target)
            if out[i] is None and not stack:
                out[i] = Text("{player} chose {choice}.", player=who, choice=target)
        elif kind == EventKind.REVEALED:
            out[i] = Text("{card} is turned face up: {shown}.", card=e.target, shown=e.card)
        elif kind == EventKind.DECK_DISCARD:
            run = [e.card]
            while i + 1 < len(events) and events[i + 1].kind == EventKind.DECK_DISCARD:
                i += 1
                run.append(events[i].card)
            out[i] = Text("From the deck onto the discard pile: {cards}.",
                          cards=", ".join(run))
        elif kind == EventKind.DECK_DRAW:
            top = stack[-1].card if stack else ""
            if e.target == "display":
                out[i] = Text("{player} put the top card of the deck face down in their "
                              "display.", player=who)
            elif e.target == "look":
                out[i] = Text("{player} drew a card and looked at it.", player=who)
            elif top and (kind_of(top), int(top[1:])) == (Kind.RACCOON, 3):
                out[i] = Text("{player} put their hand card face down in their display and "
                              "drew a card.", player=who)
            else:
                out[i] = Text("{player} drew a card into their hand.", player=who)
        elif kind == EventKind.SHUFFLED:
            out[i] = Text("{player} shuffled the top {n} cards of the discard pile into the "
                          "deck.", player=who, n=e.value)  # always 3 (RJ6.12)
        elif kind == EventKind.EXTRA_TURN:
            out[i] = Text("{player} will play another turn.", player=who)
        elif kind == EventKind.ELIMINATED:
            left = any(x.kind == EventKind.FORFEIT and x.seat == e.seat
                       for x in events[max(0, i - 1):i])
            if left:
                out[i] = None
            elif e.value is None:
                out[i] = Text("{player} is over 25 and out of the round.", player=who)
            else:
                out[i] = Text("{player} is pushed over 25 by {by} and out of the round.",
                              player=who, by=names[e.value])
        elif kind == EventKind.FORFEIT:
            out[i] = Text("{player} left the match.", player=who)
        elif kind == EventKind.VP:
            out[i] = Text("{player} gains {n} VP {why}.", player=who, n=e.value,
                          why=VP_REASONS.get(e.target or "", ""))
        elif kind == EventKind.ROUND_END:
            out[i] = Text("The round is over: {how}.",
                          how=ROUND_ENDS.get(RoundEnd(e.target), e.target))
        elif kind == EventKind.CUT_SHORT:
            out[i] = Text("{card} finds nothing to act on: its effect ends.",
                          card=_card_and_effect(e.card))
        i += 1
    return out


def story(events: Sequence[Event], names: Names) -> list[Text]:
    """The sentences of ``events`` (public events of one round, in order, from the start of
    an effect at least: a decision is told with the effect it belongs to), one a step."""
    return [p for p in _phrases(events, names) if p is not None]


def is_turn_start(e: Event) -> bool:
    """Whether ``e`` begins a turn: the turn's draw (RJ3.1), from the deck or into the hand
    from the discard pile (an effect's draws are other events)."""
    return e.kind == EventKind.DRAW_DECK or (e.kind == EventKind.DRAW_DISCARD
                                             and e.target == "hand")


def story_between(before: State, after: State, names: Names) -> list[Text]:
    """The sentences of what happened from ``before`` to ``after``, a later state of the same
    game (the rest of ``before``'s round when it ended, then ``after``'s round): each
    decision told with the effect it belongs to, however many steps ago that began."""
    done = len(before.events)
    if after.round == before.round:
        return [p for p in _phrases(after.events, names)[done:] if p is not None]
    old = after.last_round.events if after.last_round is not None else ()
    return ([p for p in _phrases(old, names)[done:] if p is not None]
            + story(after.events, names))


def turn_events(state: State) -> list[Event]:
    """The events of the latest turn, going on or just ended: from its draw on (with the
    end of the round before, and the new round's start, when a round has just begun)."""
    events = list(state.events)
    starts = [i for i, e in enumerate(events) if is_turn_start(e)]
    if starts:
        return events[starts[-1]:]
    before = list(state.last_round.events) if state.last_round is not None else []
    starts = [i for i, e in enumerate(before) if is_turn_start(e)]
    return (before[starts[-1]:] if starts else []) + events


# --------------------------------------------------------------------------- decisions
def _pending_chip(v: View) -> str:
    chips = [a.face for a in v.pending.picks if isinstance(a, Chip)] if v.pending else []
    return format_face(chips[0]) if chips else "?"


def your_decision(v: View) -> Text:
    """What the seat to act decides now, said to them (public facts only): ``"draw a card:
    'draw deck', or 'draw discard' for C7"``."""
    if v.phase is Phase.OVER:
        return Text("nothing: the game is over")
    if v.phase is Phase.DRAW:
        if v.discard:
            return Text("draw a card: 'draw deck', or 'draw discard' to take {card}",
                        card=v.discard[-1])
        return Text("draw a card: 'draw deck' (the discard pile is empty)")
    if v.phase is Phase.ACTION:
        return Text("play one of your two cards: 'up', 'down' or 'discard' and the card")
    if v.phase is Phase.FLIP:
        return Text("flip one of your hidden cards face up ('flip @2'), or 'no flip'")
    p = v.pending
    if p.chooser != p.seat:  # Weasel 12: the opponent places the chip (RJ7.12)
        return Text("put the {chip} bonus token on one of your cards ({effect})",
                    chip=_pending_chip(v), effect=effect_title(p.card))
    return Text("{effect}: {prompt}", effect=effect_title(p.card), prompt=p.prompt)


def their_decision(v: View) -> Text:
    """What the seat to act decides now, after "waiting for ... ": ``"to draw a card"``."""
    if v.phase is Phase.DRAW:
        return Text("to draw a card")
    if v.phase is Phase.ACTION:
        return Text("to play a card: up, down or discard")
    if v.phase is Phase.FLIP:
        return Text("to flip a hidden card face up, or not")
    if v.phase is Phase.EFFECT:
        p = v.pending
        if p.chooser != p.seat:
            return Text("to put the {chip} bonus token on one of their cards ({effect})",
                        chip=_pending_chip(v), effect=effect_title(p.card))
        return Text("to resolve {effect}", effect=effect_title(p.card))
    return Text("nothing: the game is over")


def _card_words(v: View, seat: int, place: int) -> Text | str:
    """A display card as ``v``'s viewer knows it: ``"W4"``, ``"W4, face down"``, ``"a
    face-down card"``, with its chips."""
    x = v.displays[seat][place - 1]
    chips = " ".join(format_face(f) for f in x.chips)
    if x.up:
        what: Any = x.card
    elif x.card is not None:
        what = Text("{card}, face down", card=x.card)
    else:
        what = Text("a face-down card")
    if chips:
        return Text("{card} with {chips}", card=what, chips=chips)
    return what


def action_text(v: View, action: Any, names: Names) -> Text | str:
    """A legal action of ``v.viewer`` in words, for a list of choices; it may name the
    viewer's own cards and the cards they know (send it to them only). An opponent is their
    name as given."""
    if isinstance(action, Draw):
        if action.source is Source.DECK:
            return Text("draw the top card of the deck")
        return Text("take {card} from the discard pile", card=v.discard[-1])
    if isinstance(action, Up):
        return Text("play {card} face up: {effect}", card=_card_and_effect(action.card),
                    effect=effect_of(action.card).text)
    if isinstance(action, Down):
        return Text("play {card} face down (no effect; it counts 0 while face down)",
                    card=action.card)
    if isinstance(action, Discard):
        if v.phase is Phase.ACTION:
            return Text("discard {card}, then you may flip one of your hidden cards",
                        card=action.card)
        return Text("discard {card}", card=action.card)
    if isinstance(action, Flip):
        card = v.displays[v.viewer][action.place - 1].card
        return Text("flip your hidden card @{place}: {card}, whose effect triggers",
                    place=action.place, card=_card_and_effect(card) if card else "?")
    if isinstance(action, NoFlip):
        return Text("flip no card")
    if isinstance(action, Target):
        return Text("{owner}: {card}", owner=names[action.seat],
                    card=_card_words(v, action.seat, action.place))
    if isinstance(action, Opponent):
        return names[action.seat]
    if isinstance(action, Chip):
        where = next(((q, i + 1) for q, d in enumerate(v.displays) for i, x in enumerate(d)
                      if action.face in x.chips), None)
        if where is None:
            return Text("the {chip} bonus token, in the reserve",
                        chip=format_face(action.face))
        return Text("the {chip} bonus token, on {card}", chip=format_face(action.face),
                    card=f"{seat_name(where[0])}@{where[1]}")
    raise TypeError(f"not a Ratjack action: {action!r}")


# --------------------------------------------------------------------------- rounds
def display_line(slots: Sequence[Any], signs: Sequence[int] | None = None) -> str:
    """A revealed display in notation, as the round's end shows it (RJ9.7): ``R3[+3] ~C7``
    (``~`` a card that was face down); ``slots`` engine slots (chips by id, faces from
    ``signs``) or view cards (chips by face)."""
    words = []
    for x in slots:
        faces = ([signs[c] * CHIP_SIZES[c] for c in x.chips] if signs is not None
                 else list(x.chips))
        chips = "[" + " ".join(format_face(f) for f in faces) + "]" if faces else ""
        words.append(("" if x.up else "~") + (x.card or "??") + chips)
    return " ".join(words) or "-"


def round_end_text(result: RoundResult, names: Names) -> Text:
    """A finished round (RJ9.7), public: how it ended, who gained VP, then every player's
    total, display (``~`` cards that were face down) and hand, now shown to all; the
    cards of a player who went out stay unrevealed (RJ8.3)."""
    gains = [Text("{player} +{n} VP", player=names[q], n=g)
             for q, g in enumerate(result.gains) if g]
    head = (Text("**Round {n} is over**: {how}; {gains}.", n=result.round,
                 how=ROUND_ENDS[result.end], gains=Text.joined(", ", gains)) if gains else
            Text("**Round {n} is over**: {how}; no VP.", n=result.round,
                 how=ROUND_ENDS[result.end]))
    lines: list[Any] = [head]
    for q, name in enumerate(names):
        display, hand = result.displays[q], result.hands[q]
        if not display and not hand:
            lines.append(Text("{player}: out, cards not shown", player=name))
            continue
        lines.append(Text("{player}: total {total} · {display} · hand {hand}", player=name,
                          total=result.totals[q], display=display_line(display, result.signs),
                          hand=" ".join(hand) or "-"))
    return Text.joined("\n", lines)


# --------------------------------------------------------------------------- a match
#: Why a match ended, in words: the game's ends (RJ9.5, RJ8.4) and those outside it.
REASONS = {
    Reason.THREE_VP: Text("3 VP reached"),
    Reason.LAST_IN_MATCH: Text("everyone else left the match"),
    Ending.RESIGNED: Text("a player resigned"),
    Ending.TIMEOUT: Text("a player ran out of time"),
    Ending.DRAW_AGREED: Text("a draw was agreed"),
    Ending.ABANDONED: Text("every player ran out of time"),
    Ending.ENDED_BY_MODERATOR: Text("ended by a moderator"),
    Ending.STOPPED: Text("stopped by its player"),
    Ending.AI_FAILED: Text("the AI could not decide"),
}

#: Why a seat left a match that went on without it (:attr:`bot.match.Player.left`).
LEFT_WORDS = {Ending.RESIGNED: Text("resigned"), Ending.TIMEOUT: Text("ran out of time")}


def is_practice(match: Any) -> bool:
    """Whether one person plays ``match`` against the AI (a table of several people with
    an AI seat is a match, not a practice game)."""
    return len({p.user_id for p in match.players if p.ai is None}) == 1 and any(
        p.ai is not None for p in match.players)


def _state(match: Any) -> State:
    return match.state


def match_start_line(match: Any) -> Text:
    """The line that announces a new match: its players by seat, its decks, who begins."""
    s = _state(match)
    players = Text.joined(", ", player_names(match))
    if is_practice(match):
        return Text("**{title}** — a new practice game: {players} · {decks} · {first} begins.",
                    title=match_title(match), players=players, decks=_decks(s.decks),
                    first=player(match, s.current))
    return Text("**{title}** — a new match: {players} · {decks} · {first} begins.",
                title=match_title(match), players=players, decks=_decks(s.decks),
                first=player(match, s.current))


def card_head(match: Any, deadline: float | None) -> Text:
    """The head of the live match card: the round and turn, whose decision it is and what
    to decide now, and ``deadline`` (Unix seconds, None: no deadline). Public."""
    s = _state(match)
    v = view(s, None)
    head = Text("**{title} · round {n}, turn {t}**", title=match_title(match), n=s.round,
                t=s.turn)
    if not match.active or not v.to_act:
        return Text("{head} — the match is over.", head=head)
    (seat,) = sorted(v.to_act)
    p = match.players[seat]
    if p.ai:
        move = Text("waiting for {player} {doing}.", player=player(match, seat),
                    doing=their_decision(v))
    else:
        move = Text("{player}, your decision: {decision}.", player=player(match, seat),
                    decision=your_decision(v))
    text = Text("{head} — {move}", head=head, move=move)
    if deadline:
        return Text("{text}\nTime runs out {when}.", text=text, when=ts(deadline))
    return text


def turn_story(match: Any) -> Text:
    """The story of the latest turn, going on or just ended (:func:`turn_events`), one
    sentence a line; public events only."""
    return Text.joined("\n", story(turn_events(_state(match)), player_names(match)))


def _standing(match: Any, v: View, q: int) -> Text:
    name = player(match, q)
    if v.forfeited[q]:
        return Text("{player}: {vp} VP · left the match", player=name, vp=v.vp[q])
    if v.out[q] and v.phase is not Phase.OVER:
        return Text("{player}: {vp} VP · out this round", player=name, vp=v.vp[q])
    return Text("{player}: {vp} VP · total {total}", player=name, vp=v.vp[q],
                total=v.totals[q])


def standings_text(match: Any) -> Text:
    """Every player's VP and this round's total (RJ1.3, RJ4.1), one a line, after a line
    that says how many VP win. Public."""
    v = view(_state(match), None)
    head = Text("VP ({n} win) and totals (exactly 25, never more):", n=WINNING_VP)
    return Text.joined("\n", [head, *[_standing(match, v, q) for q in range(v.seats)]])


def round_result_text(match: Any, result: RoundResult | None = None) -> Text:
    """The round just finished (``result``, default the match's last one): how it ended,
    the VP gained, every display and hand shown (RJ9.7). Public; empty before the first
    round ends."""
    result = result if result is not None else _state(match).last_round
    if result is None:
        return Text("No round has ended yet.")
    return round_end_text(result, player_names(match))


def match_result_text(match: Any, names: Names | None = None) -> Text:
    """The end of the match: the winners and why, then every player's place and VP (the
    places and scores stored for its players), the players named by ``names`` (default
    :func:`player_names`). Public."""
    s = _state(match)
    names = player_names(match) if names is None else names
    lines: list[Any] = [_result_head(match, names)]
    ranked = sorted(match.players, key=lambda p: (p.place is None, p.place or 0, p.seat))
    for p in ranked:
        vp = int(p.score) if p.score is not None else s.vp[p.seat]
        if p.place is None:
            line = Text("{player} — {vp} VP", player=names[p.seat], vp=vp)
        else:
            line = Text("{place}. {player} — {vp} VP", place=p.place, player=names[p.seat],
                        vp=vp)
        left = LEFT_WORDS.get(p.left or "")
        if left is not None:
            line = Text("{line} ({left})", line=line, left=left)
        lines.append(line)
    return Text.joined("\n", lines)


def status_text(match: Any) -> Text:
    """A match's public facts (RJ11.1): its players and decks, the round and turn, who is
    to decide what, the deck and discard pile, the reserve, the standings and the
    deadline; the result once it is over."""
    s = _state(match)
    v = view(s, None)
    lines: list[Any] = [Text("**{title}** — {players} · {decks}", title=match_title(match),
                             players=Text.joined(", ", player_names(match)),
                             decks=_decks(s.decks))]
    if not match.active or not v.to_act:
        lines.append(match_result_text(match))
        return Text.joined("\n", lines)
    (seat,) = sorted(v.to_act)
    lines.append(Text("Round {n}, turn {t}: waiting for {player} {doing}.", n=s.round,
                      t=s.turn, player=player(match, seat), doing=their_decision(v)))
    top = v.discard[-1] if v.discard else Text("empty")
    lines.append(Text.plural("Deck: {n} card · discard pile: {top} on top · reserve: "
                             "{reserve}", "Deck: {n} cards · discard pile: {top} on top · "
                             "reserve: {reserve}", v.deck_size, top=top,
                             reserve=" ".join(format_face(f) for f in v.reserve) or "-"))
    if v.extra_turns:
        lines.append(Text.plural("{player} has {n} extra turn to come.",
                                 "{player} has {n} extra turns to come.", v.extra_turns,
                                 player=player(match, v.current)))
    lines.append(standings_text(match))
    if match.deadline_at:
        lines.append(Text("Time runs out {when} ({date}).", when=ts(match.deadline_at),
                          date=ts(match.deadline_at, "f")))
    return Text.joined("\n", lines)


def ping_text(match: Any, seat: int) -> Text:
    """The short message that tells the player of ``seat`` it is their decision."""
    v = view(_state(match), None)
    return Text("🔔 <@{id}>, your decision in {title}: {decision}.",
                id=match.players[seat].user_id, title=match_title(match),
                decision=your_decision(v))


def private_heading(match: Any, seat: int) -> Text:
    """``"**Ratjack match #7 · your cards** (p1, round 2)"``: the first line of a player's
    private view (public facts only: it stays when a DM copy is retired)."""
    return Text("**{title} · your cards** ({seat}, round {n})", title=match_title(match),
                seat=seat_name(seat), n=_state(match).round)


def private_text(match: Any, seat: int) -> Text:
    """The cards the player of ``seat`` knows and others do not (RJ11.2): PRIVATE to that
    player — send it to them only. Their hand and their hidden cards with the effects, the
    card Weasel 3 had them draw, and the cards of others they know (a card they looked
    at, gave away or were shown) with where they lie."""
    v = view(_state(match), seat)
    names = player_names(match)
    lines: list[Any] = [private_heading(match, seat)]
    hand = [h.card for h in v.hands[seat] if h.card is not None]
    if hand:
        lines.append(Text("Your hand:"))
        lines += [Text("• **{card}** — {effect}", card=_card_and_effect(c),
                       effect=effect_of(c).text) for c in hand]
    else:
        lines.append(Text("Your hand: no card."))
    if v.drawn is not None:
        lines.append(Text("You drew **{card}** with Weasel 3: choose the opponent who gets it "
                          "face down.", card=v.drawn))
    hidden = [(i + 1, x.card) for i, x in enumerate(v.displays[seat]) if not x.up]
    if hidden:
        lines.append(Text("Your face-down cards (they count 0 until turned face up):"))
        lines += [Text("• @{place} **{card}** — {effect}", place=place,
                       card=_card_and_effect(card), effect=effect_of(card).text)
                  for place, card in hidden if card is not None]
    known: list[Any] = []
    for q in range(v.seats):
        if q == seat:
            continue
        for i, x in enumerate(v.displays[q]):
            if not x.up and x.card is not None and EVERYONE not in x.seen:
                known.append(Text("• {where} **{card}**, face down in the display of "
                                  "{owner}", where=f"{seat_name(q)}@{i + 1}", card=x.card,
                                  owner=names[q]))
        for h in v.hands[q]:
            if h.card is not None and EVERYONE not in h.seen:
                known.append(Text("• **{card}** in the hand of {owner}", card=h.card,
                                  owner=names[q]))
    if known:
        lines.append(Text("Cards of others that you know:"))
        lines += known
    return Text.joined("\n", lines)


# --------------------------------------------------------------------------- on Discord
#: The line under a new match's announcement: where it is played and how.
START_HELP = Text("Every turn shows on the match card below, edited in place. Click **Your "
                  "cards** on it to see your hand and face-down cards (only you see them) and "
                  "to make your decisions, or type `/ratjack act`. `/ratjack rules` explains "
                  "the game.")

#: How to start a Ratjack match.
START_HINT = Text("Start a new one with `/ratjack practice`, or `/ratjack table` to play with "
                  "friends.")

#: The label of the card's button that opens a player's private view.
YOUR_CARDS = Text("Your cards")

#: How many lines of the round's story the match card shows (the latest).
STORY_LINES = 12


def thread_name(match: Any) -> Text:
    """The name of a match's thread (Discord: 1-100 characters)."""
    if is_practice(match):
        return Text("Ratjack practice #{id}", id=match.id)
    return Text("Ratjack match #{id}", id=match.id)


def _result_head(match: Any, names: Names | None = None) -> Text:
    """The first line of :func:`match_result_text`: the winners and why."""
    reason = match.reason or ""
    why = REASONS.get(reason, str(reason).replace("_", " "))
    winners = sorted(match.winners)
    names = player_names(match) if names is None else names
    title = match_title(match)
    if not winners:
        return Text("**{title} is over** without a result ({why}).", title=title, why=why)
    return Text.plural("🏆 **{title} is over: {winners} wins** ({why}).",
                       "🏆 **{title} is over: {winners} win** ({why}).", len(winners),
                       title=title, winners=_and([names[q] for q in winners]), why=why)


def parent_line(match: Any, card_url: str | None) -> Text:
    """The match's one line in the channel its thread hangs from: the players, the round
    and whose decision it is, then the result; a link to the match card. Public."""
    head = Text("**{title}** · {players}", title=match_title(match),
                players=Text.joined(", ", player_names(match)))
    s = _state(match)
    v = view(s, None)
    if not match.active or not v.to_act:
        body: Any = _result_head(match)
    else:
        (seat,) = sorted(v.to_act)
        body = Text("Round {n} · {player} to decide", n=s.round, player=player(match, seat))
    if card_url:
        return Text("{head}\n{body} · [go to the match card]({url})", head=head, body=body,
                    url=card_url)
    return Text("{head}\n{body}", head=head, body=body)


def reminder_text(match: Any, user_ids: Sequence[int]) -> Text:
    """A public reminder that ``user_ids`` have a decision pending, and its deadline."""
    who = " ".join(mention(u) for u in user_ids)
    if match.deadline_at:
        return Text("⏰ {who}, {title} is waiting for your decision. Time runs out {when}.",
                    who=who, title=match_title(match), when=ts(match.deadline_at))
    return Text("⏰ {who}, {title} is waiting for your decision.", who=who,
                title=match_title(match))


def card_story(match: Any) -> Text:
    """The match card's embed: the latest sentences of this round's story (public events
    only, RJ11.1) and the standings."""
    s = _state(match)
    lines = story(s.events, player_names(match))
    if not lines:
        lines = [Text("Round {n} begins.", n=s.round)]
    shown: list[Any] = list(lines[-STORY_LINES:])
    if len(lines) > STORY_LINES:
        shown.insert(0, "…")
    return Text("{story}\n\n{standings}", story=Text.joined("\n", shown),
                standings=standings_text(match))


def card_closed(match: Any, round_no: int) -> Text:
    """What the card of the finished round ``round_no`` becomes: that round's result with
    every card shown (RJ9.7), or its heading alone for a round it did not show."""
    s = _state(match)
    result = s.last_round
    if result is not None and result.round == round_no:
        return Text("**{title} · round {n}**\n{result}", title=match_title(match),
                    n=round_no, result=round_end_text(result, player_names(match)))
    return Text("**{title} · round {n}**", title=match_title(match), n=round_no)


def board_verdict(match: Any) -> Text | None:
    """The banner of the table image of a match that ended outside the game (a
    resignation that left one player, a moderator, ...), without names; None while it runs
    or when the game itself ended (the image then names the winners)."""
    if match.active or _state(match).phase is Phase.OVER:
        return None
    reason = match.reason or ""
    return Text("Match over: {why}", why=REASONS.get(reason, reason.replace("_", " ")))


def decision_prompt(match: Any, seat: int, *, in_dm: bool) -> Text:
    """The line under a player's private view: their decision now and how to make it (the
    menus below; in the server also ``/ratjack act``), or whom the match waits for."""
    v = view(_state(match), None)
    if not match.active or not v.to_act:
        return Text("The match is over.")
    if seat not in v.to_act:
        (other,) = sorted(v.to_act)
        return Text("Waiting for {player} {doing}.", player=player(match, other),
                    doing=their_decision(v))
    if in_dm:
        return Text("**Your decision**: {decision}. Choose below.",
                    decision=your_decision(v))
    return Text("**Your decision**: {decision}. Choose below, or type `/ratjack act`.",
                decision=your_decision(v))


def hand_line(match: Any, seat: int) -> Text:
    """``"Your hand: **R3** (Rat 3), **C7** (Raccoon 7)"``: the cards ``seat`` holds —
    PRIVATE to its player (RJ11.2)."""
    v = view(_state(match), seat)
    cards = [Text("**{card}** ({effect})", card=h.card, effect=effect_title(h.card))
             for h in v.hands[seat] if h.card is not None]
    return Text("Your hand: {cards}", cards=Text.joined(", ", cards) if cards else "-")


def resign_question(match: Any) -> Text:
    """The confirmation asked before resigning (RJ8.4): with two players the other wins,
    with more the others play on."""
    if sum(1 for forfeited in _state(match).forfeited if not forfeited) <= 2:
        return Text("Really resign {title}? The other player wins. Click **Resign** to "
                    "confirm, or dismiss this message.", title=match_title(match))
    return Text("Really resign {title}? You leave the match and rank after everyone who "
                "stays; the others play on. Click **Resign** to confirm, or dismiss this "
                "message.", title=match_title(match))


def challenge_text(ch: Any) -> Text:
    """The public message of a challenge to a game of Ratjack (a rematch of two players)."""
    return Text("{challenged}, {challenger} challenges you to a game of **Ratjack**!\n"
                "Accept or decline {when}.", challenged=mention(ch.challenged_id),
                challenger=mention(ch.challenger_id), when=ts(ch.expires_at))


RULES_SUMMARY = Text("""\
**Ratjack** is played by 2 to 4 players. Build a row of cards (your **display**) whose \
**total** is exactly **25**, never more. Face-up cards count their value and their bonus \
tokens; face-down cards count 0 until turned face up.

**A turn**
1. Draw the top card of the deck (`draw deck`) or of the discard pile (`draw discard`): you \
hold two cards.
2. Play one of them: **up** (face up, its effect happens; only if it can happen in full), \
**down** (face down: no effect, counts 0) or **discard** (then you may flip one of your \
face-down cards face up: its effect happens).

**Scoring**
• An effect that pushes an opponent over 25 knocks them out of the round: +1 VP for you.
• Over 25 at the end of your own turn: you are out of the round.
• At the end of a turn: exactly 25 gives +1 VP and ends the round; so does being the last \
player in; when the deck runs out, the highest total gains +1 VP.
• **3 VP** win the match.

**On Discord** click **Your cards** on the match card: your hand and face-down cards, only \
for you, with the decisions to make; or type `/ratjack act` (start typing to see the legal \
ones). Cards are named `C7`, places in a display `p2@3`, bonus tokens by face (`+3`).""")


def deck_reference(letter: str) -> Text:
    """Every effect of one deck (``R``, ``B``, ``C`` or ``W``), one a line: ``**7** text``."""
    look = DECK_BY_LETTER[letter]
    lines: list[Any] = [Text("**{deck}** (`{letter}`)", deck=look.name, letter=letter)]
    lines += [Text("**{value}** {effect}", value=n, effect=effect_of(f"{letter}{n}").text)
              for n in range(1, 13)]
    return Text.joined("\n", lines)

__all__ = [
    "REASONS", "ROUND_ENDS", "TITLE", "action_text", "card_head",
    "display_line", "is_turn_start", "match_result_text", "match_start_line", "match_title",
    "ping_text", "player", "player_names", "private_text", "round_end_text",
    "round_result_text", "seat_label", "standings_text", "status_text", "story",
    "story_between", "their_decision", "turn_events", "turn_story", "your_decision",
]
