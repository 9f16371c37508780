"""Raptor's sentences: its match messages, live card, hands, results, rules summary and card
reference (the platform's own sentences, and the pieces these are built of, are
:mod:`bot.texts`).

Pure functions of public data (a :class:`~bot.match.Match`'s public fields, public
:class:`engine.Event` values, a player's own hand). Nothing here imports discord, so the texts
can be checked without a client. A function that takes a player's *private* information
(their hand, their own pick, the card shown to them under observation, R5.2) says so in its
docstring; its text may only be sent to that player (ephemeral message or DM).

Every text is a :class:`~engine.messages.Text` of the catalog: it *is* the English
sentence, and the Discord layer writes it in its readers' language (``bot.i18n.tr``) when it
sends it. Compose texts with parameters and :meth:`Text.joined`, never with ``+``.

Discord markup used: ``<@id>`` mentions, ``<t:unix:R>`` relative timestamps, ``**bold**`` and
`` `code` `` for notation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import engine
from engine import REASON_WORDS, SIDE_NAMES, Event, Phase, Piece, Side
from engine.actions import PIECE_LETTERS
from engine.geometry import CENTRAL_COLUMNS, SQUARE_NAMES
from engine.messages import N_, Text
from engine.predicates import ap_total, mother_move_cost, scientists_on_board
from engine.record import ending_banner
from engine.state import SETUP_PHASES

from ...match.models import EndReason
from ...texts import LEVEL_WORDS, and_list, mention, ts
from . import SIDE_WORDS
from . import sides as rs
from .sides import DRAW

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
N = SQUARE_NAMES


def card_label(side: Side, card: int) -> Text:
    """``"5 · Recovery ×2"``: a card's value and title (R9, R10)."""
    return Text("{card} · {name}", card=card, name=engine.card_name(side, card))


def card_effect(side: Side, card: int) -> str:
    """The effect text of a card, a repeated card's spelled out (R9, R10)."""
    return engine.effect_text(side, card)


#: The environments and setups as the texts name them.
OPTION_WORDS = {"jungle": Text("jungle"), "savannah": Text("savannah"),
                "quick": Text("quick"), "manual": Text("manual")}


def player(match, side: Side) -> Text:
    """``"<@123> (raptor)"``; an AI side reads ``"<@bot> (raptor, AI easy)"``."""
    level = rs.ai(match, side)
    if level:
        return Text("{mention} ({side}, AI {level})", mention=mention(rs.user(match, side)),
                    side=SIDE_WORDS[side], level=LEVEL_WORDS.get(level, level))
    return Text("{mention} ({side})", mention=mention(rs.user(match, side)),
                side=SIDE_WORDS[side])


def match_title(match) -> Text:
    return Text("Match #{id}", id=match.id)


PHASE_NAMES = {
    Phase.SETUP_MOTHER: Text("Setup: the mother"),
    Phase.SETUP_BABIES: Text("Setup: the babies"),
    Phase.SETUP_SCIENTISTS: Text("Setup: the scientists"),
    Phase.PICK: Text("Card pick"),
    Phase.EFFECT: Text("Card effect"),
    Phase.AP: Text("Action points"),
    Phase.MOTHER_RETURN: Text("The mother's return"),
    Phase.OVER: Text("Game over"),
}
#: The phases in the middle of a sentence ("waiting for your decision (card pick)").
PHASE_WORDS = {
    Phase.SETUP_MOTHER: Text("setup: the mother"),
    Phase.SETUP_BABIES: Text("setup: the babies"),
    Phase.SETUP_SCIENTISTS: Text("setup: the scientists"),
    Phase.PICK: Text("card pick"),
    Phase.EFFECT: Text("card effect"),
    Phase.AP: Text("action points"),
    Phase.MOTHER_RETURN: Text("the mother's return"),
    Phase.OVER: Text("game over"),
}
#: Why a match ended, in words: the game's own ends (R6, :data:`engine.REASON_WORDS`) and
#: the ends outside the game told without naming a player.
REASONS = {
    **REASON_WORDS,
    EndReason.ENDED_BY_MODERATOR: Text("ended by a moderator"),
    EndReason.STOPPED: Text("stopped by its player"),
    EndReason.AI_FAILED: Text("the AI could not decide"),
}


def event_text(e: Event) -> Text | str | None:
    """One public event as short notation-like text (``"G2-G5"``, ``"kill F3"``,
    ``"B5 shoot G5"``), or None for events that are told another way (picks, reveals, draws,
    round ends). Events never carry hidden information (see :class:`engine.Event`)."""
    k = e.kind
    if k == "placed":
        letter = PIECE_LETTERS.get(e.piece or "", "?")
        return f"{letter}@{N[e.to]}"
    if k in ("moved", "called", "jeep"):
        text = f"{N[e.at]}-{N[e.to]}"
        if k == "jeep" and e.cells:
            return Text.plural("{move} (puts out {n} fire token)",
                               "{move} (puts out {n} fire tokens)", len(e.cells), move=text)
        return text
    if k == "escaped":
        return Text("{move} (a baby escapes!)", move=f"{N[e.at]}-{N[e.to]}")
    if k == "disappeared":
        return Text("the mother disappears from {sq}", sq=N[e.at])
    if k == "frightened":
        return f"fear {N[e.at]}"
    if k == "stood":
        return f"stand {N[e.at]}"
    if k == "slept":
        if e.text == "gas":
            return f"gas {N[e.at]}"
        return f"{N[e.at]} sleep {N[e.to]}"
    if k == "woken":
        return f"wake {N[e.at]}"
    if k == "healed":
        return "heal"
    if k == "captured":
        return f"{N[e.at]} capture {N[e.to]}"
    if k == "shot":
        return Text.plural("{move} ({n} sleep token)", "{move} ({n} sleep tokens)", e.value,
                           move=f"{N[e.at]} shoot {N[e.to]}")
    if k == "killed":
        return f"kill {N[e.at]}"
    if k == "fire_placed":
        return f"fire {N[e.at]}"
    if k == "fire_out":
        n = len(e.cells) or 1
        return Text.plural("{move} ({n} fire token)", "{move} ({n} fire tokens)", n,
                           move=f"out {N[e.at]}")
    if k == "reinforced":
        return f"R@{N[e.to]}"
    return None


_PIECE_WORDS = {Piece.MOTHER: Text("mother"), Piece.BABY: Text("baby"),
                Piece.SCIENTIST: Text("scientist")}


def event_phrase(e: Event) -> Text | None:
    """One public event as a short sentence for an action line ("the mother kills the
    scientist on F3"), or None for events told another way."""
    k = e.kind
    piece = e.piece or ""
    if k == "placed":
        what = _PIECE_WORDS.get(piece, piece) if piece else Text("a figurine")
        return Text("{piece} placed on {sq}", piece=what, sq=N[e.to])
    if k == "moved":
        a, to = N[e.at], N[e.to]
        if piece == Piece.SCIENTIST:
            if e.value and e.value > 1:
                return Text("a scientist walks {a}→{to} ({n} AP)", a=a, to=to, n=e.value)
            return Text("a scientist walks {a}→{to}", a=a, to=to)
        if piece == Piece.MOTHER:
            return Text("the mother runs {a}→{to}", a=a, to=to)
        if piece == Piece.BABY:
            return Text("a baby steps {a}→{to}", a=a, to=to)
        return Text("moves {a}→{to}", a=a, to=to)
    if k == "called":
        return Text("a baby answers the call {a}→{to}", a=N[e.at], to=N[e.to])
    if k == "jeep":
        if e.cells:
            return Text.plural("a jeep drives {a}→{to}, putting out {n} fire token",
                               "a jeep drives {a}→{to}, putting out {n} fire tokens",
                               len(e.cells), a=N[e.at], to=N[e.to])
        return Text("a jeep drives {a}→{to}", a=N[e.at], to=N[e.to])
    if k == "escaped":
        return Text("a baby escapes through the exit {sq}! 🦖", sq=N[e.to])
    if k == "disappeared":
        return Text("the mother disappears from {sq}", sq=N[e.at])
    if k == "frightened":
        return Text("the scientist on {sq} is frightened", sq=N[e.at])
    if k == "stood":
        return Text("the scientist on {sq} stands up", sq=N[e.at])
    if k == "slept":
        if e.text == "gas":
            return Text("the baby on {sq} falls asleep", sq=N[e.at])
        return Text("the scientist on {by} puts the baby on {sq} to sleep", by=N[e.at],
                    sq=N[e.to])
    if k == "woken":
        return Text("the baby on {sq} wakes up", sq=N[e.at])
    if k == "healed":
        return Text("the mother loses a sleep token ({n} left)", n=e.value)
    if k == "captured":
        return Text("the scientist on {by} captures the baby on {sq}", by=N[e.at], sq=N[e.to])
    if k == "shot":
        return Text.plural("the scientist on {by} shoots the mother ({n} sleep token)",
                           "the scientist on {by} shoots the mother ({n} sleep tokens)",
                           e.value, by=N[e.at])
    if k == "killed":
        return Text("the mother kills the scientist on {sq}", sq=N[e.at])
    if k == "fire_placed":
        return Text("fire on {sq}", sq=N[e.at])
    if k == "fire_out":
        n = len(e.cells) or 1
        return Text.plural("the mother puts out {n} fire token",
                           "the mother puts out {n} fire tokens", n)
    if k == "reinforced":
        return Text("a scientist arrives on {sq}", sq=N[e.to])
    if k == "returned":
        return Text("the mother returns on {sq}", sq=N[e.to])
    return None


def events_line(events: Iterable[Event]) -> Text:
    """The notation-like texts of ``events``, comma separated (empty string if none)."""
    return Text.joined(", ", [t for t in (event_text(e) for e in events) if t])


def _round_of(events: Sequence[Event], match) -> int:
    for e in events:
        if e.kind == "round_end" and e.value is not None:
            return e.value
    return match.state.round


class _Section:
    """A round summary's line that lists the decisions of an effect or of the AP; ``empty``
    is the whole line when there were none."""

    def __init__(self, head: Text, empty: Text) -> None:
        self.head, self.empty, self.items = head, empty, []

    def line(self) -> Text:
        if not self.items:
            return self.empty
        return Text("{head}: {items}.", head=self.head, items=Text.joined(", ", self.items))


def round_story(events: Sequence[Event], *, open_last: bool = False) -> list[Text]:
    """The lines of a round summary, from that round's public events in order: the cards,
    the effect and its choices, the AP and the actions, the mother's return, shuffles."""
    lines: list[Text | _Section] = []
    section: _Section | None = None
    placements: list = []
    for e in events:
        k = e.kind
        if k == "placed" and section is None:
            placements.append(event_text(e) or "")
            continue
        if k == "revealed":
            lines.append(Text("Cards: raptor **{raptor}**, scientist **{scientist}**.",
                              raptor=card_label(RAPTOR, e.value),
                              scientist=card_label(SCIENTIST, e.value2)))
        elif k == "tie":
            lines.append(Text("Equal cards: nothing happened."))
        elif k == "effect":
            head = effect_header(e.side, e.value)
            section = _Section(head, Text("{head}: no effect.", head=head))
            lines.append(section)
        elif k == "ap":
            section = _Section(Text.plural("{side} spends {n} action point",
                                           "{side} spends {n} action points", e.value,
                                           side=SIDE_HEADS[e.side]),
                               Text.plural("{side} gets {n} action point and uses none.",
                                           "{side} gets {n} action points and uses none.",
                                           e.value, side=SIDE_HEADS[e.side]))
            lines.append(section)
        elif k == "returned":
            section = None
            lines.append(Text("The mother returns on {sq}.", sq=N[e.to]))
        elif k == "shuffled":
            section = None
            lines.append(Text("The {side} shuffles their deck and discard pile (card 1 too) "
                              "into a new deck.", side=SIDE_WORDS[e.side]) if e.value == 1 else
                         Text("The {side} shuffles their discard pile into a new deck.",
                              side=SIDE_WORDS[e.side]))
        elif k == "game_over":
            section = None
        elif k == "placed" and section is not None and e.piece == Piece.MOTHER:
            continue  # the mother's return: told by 'returned'
        else:
            text = event_text(e)
            if text and section is not None:
                section.items.append(text if k in _SENTENCE_EVENTS else Text("`{x}`", x=text))
    if open_last and lines and isinstance(lines[-1], _Section) and not lines[-1].items:
        lines[-1] = Text("{head}: …", head=lines[-1].head)  # being decided now
    out = [x.line() if isinstance(x, _Section) else x for x in lines]
    if placements:
        out.insert(0, Text("Placed: {placements}.", placements=Text.joined(
            ", ", [Text("`{x}`", x=p) for p in placements])))
    return out


_SENTENCE_EVENTS = frozenset({"disappeared"})  # told as words, not in code formatting
SIDE_HEADS = SIDE_NAMES  # at a line's start


def effect_header(side: Side, card: int) -> Text:
    """"Scientist resolves card 2 (Reinforcements)": who resolves which card (R5.4)."""
    return Text("{side} resolves card {card} ({name})", side=SIDE_HEADS[side], card=card,
                name=engine.card_name(side, card))


def story_text(events: Sequence[Event]) -> Text:
    """A round's story (:func:`round_story`) as one text of lines, or "Nothing happened."."""
    story = round_story(events)
    return Text.joined("\n", story) if story else Text("Nothing happened.")


def round_summary(match, round_no: int, events: Sequence[Event]) -> Text:
    """The public message after a round (R5.6): the round's story, then the score."""
    v = engine.view(match.state, None)
    return Text("**{title} · Round {n} summary**\n{story}\n{score}", title=match_title(match),
                n=round_no, story=story_text(events), score=score_line(v))


def score_line(v) -> Text:
    """Public counters (R11.1): escaped / captured babies, sleep tokens, scientists."""
    return Text("Babies escaped {escaped}/3 · captured {captured}/3 · sleep tokens {sleep}/5 · "
                "scientists on the board {scientists} (reserve {reserve})", escaped=v.escaped,
                captured=v.captured, sleep=v.sleep_tokens,
                scientists=scientists_on_board(v.board), reserve=v.reserve)


def options_text(options: Mapping[str, str]) -> Text:
    """A new match's options (every one given) in words: ``"jungle · quick setup"``."""
    environment, setup = options["environment"], options["setup"]
    return Text("{environment} · {setup} setup",
                environment=OPTION_WORDS.get(environment, environment),
                setup=OPTION_WORDS.get(setup, setup))


def challenge_text(ch) -> Text:
    wish = rs.wish_word(ch.seat)
    side = (Text("a random side") if wish == "random"
            else Text("the {side}", side=SIDE_WORDS[Side(wish)]))
    o = rs.options(ch)
    return Text("{challenged}, {challenger} challenges you to a game of **Raptor**! They want "
                "to play {side} · {environment} · {setup} setup.\nAccept or decline {when}.",
                challenged=mention(ch.challenged_id), challenger=mention(ch.challenger_id),
                side=side, environment=OPTION_WORDS.get(o.environment, o.environment),
                setup=OPTION_WORDS.get(o.setup, o.setup), when=ts(ch.expires_at))


def decision_text(match, side: Side) -> Text:
    """What ``side`` must decide now (effect, AP, setup, mother's return): public."""
    s = match.state
    ph = s.phase
    if ph is Phase.EFFECT:
        eff = s.effect
        if eff.done:
            return Text("resolve **{card}** ({done} done): {effect}",
                        card=card_label(side, eff.card), done=eff.done,
                        effect=card_effect(side, eff.card))
        return Text("resolve **{card}**: {effect}", card=card_label(side, eff.card),
                    effect=card_effect(side, eff.card))
    if ph is Phase.AP:
        ap = s.ap
        cost = mother_move_cost(s.sleep_tokens, ap.mother_moved)
        if side is RAPTOR and cost > 1:  # R7.2
            return Text.plural("spend your action points: **{ap} AP** left (the mother's first "
                               "move this round costs {cost} AP: 1 + her {n} sleep token).",
                               "spend your action points: **{ap} AP** left (the mother's first "
                               "move this round costs {cost} AP: 1 + her {n} sleep tokens).",
                               s.sleep_tokens, ap=ap.remaining, cost=cost)
        return Text("spend your action points: **{n} AP** left.", n=ap.remaining)
    if ph is Phase.SETUP_MOTHER:
        return Text("place the mother on a free space of the two middle tiles, columns "
                    "{columns} (tiles T2 and T5).", columns=CENTRAL_COLUMNS)
    if ph is Phase.SETUP_BABIES:
        return Text("place a baby on each of the five square tiles other than the mother's, "
                    "one per tile.")
    if ph is Phase.SETUP_SCIENTISTS:
        return Text("place a scientist on each L-tile (columns B and L).")
    if ph is Phase.MOTHER_RETURN:
        return Text("put the mother back on any free space.")
    return Text("decide.")


def picks_line(match) -> Text:
    """The card pick as it stands, public facts only (R11.1): "@a (raptor) ✅ · @b
    (scientist) ⏳" — who has a card face down, never which. Under observation (R5.2) the
    scientist is asked first and the raptor only once that card is down."""
    s = match.state
    if s.observation and s.picks[SCIENTIST] is None:
        return Text("{scientist} ⏳ picks first · then {raptor} sees that card and picks "
                    "(observation)", scientist=player(match, SCIENTIST),
                    raptor=player(match, RAPTOR))
    marks = Text.joined(" · ", [_pick_mark(match, side) for side in (RAPTOR, SCIENTIST)])
    return Text("{marks} — pick your card", marks=marks)


def _pick_mark(match, side: Side) -> Text:
    """"@a (raptor) ✅": a player and whether their card is down (never which)."""
    mark = "✅" if match.state.picks[side] is not None else "⏳"
    return Text("{player} {mark}", player=player(match, side), mark=mark)


def card_heading(match) -> Text:
    """The first line of the live match card: match, round (or setup phase)."""
    s = match.state
    if s.phase in SETUP_PHASES:
        return Text("**{title} · {phase}**", title=match_title(match), phase=PHASE_NAMES[s.phase])
    return Text("**{title} · Round {n}**", title=match_title(match), n=s.round)


def card_text(match, deadline: float | None) -> Text:
    """The message text of the live match card: whose move it is and what to decide (the AP
    left), and the deadline. Public."""
    s = match.state
    if s.phase is Phase.PICK:
        move = picks_line(match)
    else:
        sides = sorted(engine.to_act(s))
        if not sides:
            return card_heading(match)
        side = sides[0]
        move = Text("{player}, your move: {decision}", player=player(match, side),
                    decision=decision_text(match, side))
        if s.phase is Phase.EFFECT and s.revealed is not None:  # R5.3-R5.5
            move = Text("{move} Then {player} gets **{n} AP**.", move=move,
                        player=player(match, side.other), n=ap_total(s.revealed))
    text = Text("{heading} — {move}", heading=card_heading(match), move=move)
    if deadline:
        return Text("{text}\nTime runs out {when}.", text=text, when=ts(deadline))
    return text


def card_log(match) -> Text:
    """The live card's log of this round so far (public events only), then the score."""
    s = match.state
    story = round_story(s.round_events, open_last=s.phase in (Phase.EFFECT, Phase.AP))
    return Text.joined("\n", [*story, score_line(engine.view(s, None))])


def card_record(match, round_no: int, events: Sequence[Event]) -> Text:
    """What a finished round's card becomes: the round's story and the score (R5.6); the
    setup's card (round 0) tells the placements."""
    if round_no == 0:
        return Text("**{title} · setup done**\n{story}\n{score}", title=match_title(match),
                    story=Text.joined("\n", round_story(events)),
                    score=score_line(engine.view(match.state, None)))
    return round_summary(match, round_no, events)


def ping_text(match, side: Side) -> Text:
    """The one short message that tells a player the turn passed to them."""
    s = match.state
    what = Text("pick your card") if s.phase is Phase.PICK else decision_text(match, side)
    return Text("🔔 {mention}, your move in {title}: {what}", mention=mention(rs.user(match, side)),
                title=match_title(match), what=what)


CARD_OVER = Text("the match is over: the final board, and the result below.")
MATCH_START_HELP = Text("Every step shows on the match card below, edited in place: use its "
                        "buttons and menus, or type `/raptor act`. `/raptor rules` explains the "
                        "game.")


def match_start_line(match) -> Text:
    """The line that announces a new match (the challenge's or practice's message)."""
    o = rs.options(match)
    template = (N_("**{title}** — a new practice game: {raptor} vs {scientist} · "
                   "{environment} · {setup} setup.") if match.practice else
                N_("**{title}** — a new match: {raptor} vs {scientist} · {environment} · "
                   "{setup} setup."))
    return Text(template, title=match_title(match), raptor=player(match, RAPTOR),
                scientist=player(match, SCIENTIST),
                environment=OPTION_WORDS.get(o.environment, o.environment),
                setup=OPTION_WORDS.get(o.setup, o.setup))


def thread_name(match) -> Text:
    """The name of a match's thread (Discord: 1-100 characters)."""
    if match.practice:
        return Text("Raptor practice #{id}", id=match.id)
    return Text("Raptor match #{id}", id=match.id)


def parent_line(match, card_url: str | None) -> Text:
    """The match's one line in the channel its thread hangs from: the players, the round and
    whose move it is, then the result; a link to the match card."""
    head = Text("**{title}** · {raptor} vs {scientist}", title=match_title(match),
                raptor=player(match, RAPTOR), scientist=player(match, SCIENTIST))
    s = match.state
    if not match.active:
        body = result_headline(match)
    elif s.phase in SETUP_PHASES:
        body = PHASE_NAMES[s.phase]
    else:
        waiting = rs.waiting(match)
        if s.phase is Phase.PICK and len(waiting) != 1:
            body = Text("Round {n} · card pick", n=s.round)
        else:
            body = Text("Round {n} · {who} to move", n=s.round,
                        who=and_list([player(match, side) for side in waiting]))
    if card_url:
        return Text("{head}\n{body} · [go to the match card]({url})", head=head, body=body,
                    url=card_url)
    return Text("{head}\n{body}", head=head, body=body)


def result_text(match) -> Text:
    """The public message at the end of a match: the result and why (first line: who won and
    how), then the score when someone won."""
    headline = result_headline(match)
    if rs.result(match) is None or rs.result(match) == DRAW:
        return headline
    return Text("{headline}\n{score}", headline=headline,
                score=score_line(engine.view(match.state, None)))


def result_headline(match) -> Text:
    """The first line of :func:`result_text`: the result and why."""
    reason = match.reason or ""
    title = match_title(match)
    if rs.result(match) == DRAW:
        return Text("**{title} is over: a draw**, agreed by both players. 🤝", title=title)
    if rs.result(match) is None and reason == EndReason.AI_FAILED:
        return Text("**{title} is over**: the AI failed to make its decision, again after "
                    "several tries, so the match ends without a result (not rated).",
                    title=title)
    if rs.result(match) is None and reason == EndReason.ENDED_BY_MODERATOR:
        return Text("**{title} is over**: a moderator ended it, without a result (not rated).",
                    title=title)
    if rs.result(match) is None:
        return Text("**{title} is over**: both players ran out of time, so it ends without a "
                    "result (not rated).", title=title)
    winner = Side(rs.result(match))
    loser = winner.other
    if reason == EndReason.RESIGNED:
        why = Text("{player} resigned", player=player(match, loser))
    elif reason == EndReason.TIMEOUT:
        why = Text("{player} ran out of time", player=player(match, loser))
    else:
        why = REASONS.get(reason, reason)
    return Text("🏆 **{title} is over: {winner} wins** — {why}.", title=title,
                winner=player(match, winner), why=why)


def history_reason(match, outcome: str) -> Text:
    """Why a finished match ended, told to one of its players whose ``outcome`` was
    ``"won"``, ``"lost"``, ``"draw"`` or ``"no result"`` (``/raptor history``)."""
    reason = match.reason or ""
    if reason in (EndReason.RESIGNED, EndReason.TIMEOUT):
        if reason == EndReason.RESIGNED:
            return Text("you resigned") if outcome == "lost" else Text("your opponent resigned")
        return (Text("you ran out of time") if outcome == "lost"
                else Text("your opponent ran out of time"))
    return {EndReason.ABANDONED: Text("both ran out of time"),
            EndReason.DRAW_AGREED: Text("agreed")}.get(
        reason, REASONS.get(reason, reason.replace("_", " ")))


def board_verdict(match) -> str | None:
    """The banner of the board image of a match that ended outside the game (resigned, out
    of time, drawn, abandoned, ended by a moderator), without mentions; None while it runs
    or when the game itself ended (the image then tells the winner, R6)."""
    if match.active or match.state.phase is Phase.OVER:
        return None
    return ending_banner(rs.result(match), match.reason or "")


def status_text(match) -> Text:
    """``/raptor status``: public facts only (R11.1): who must decide, deadlines, picks made
    (not their values), AP left, draw offer."""
    s = match.state
    v = engine.view(s, None)
    o = rs.options(match)
    lines: list = [Text("**{title}** — {raptor} vs {scientist} · {environment} · {setup} setup",
                        title=match_title(match), raptor=player(match, RAPTOR),
                        scientist=player(match, SCIENTIST),
                        environment=OPTION_WORDS.get(o.environment, o.environment),
                        setup=OPTION_WORDS.get(o.setup, o.setup))]
    if not match.active:
        lines.append(result_text(match))
        return Text.joined("\n", lines)
    lines.append(Text("Round {n} · {phase}", n=s.round, phase=PHASE_NAMES[s.phase]))
    waiting = rs.waiting(match)
    if waiting:
        lines.append(Text("Waiting for {who}",
                          who=and_list([player(match, sd) for sd in sorted(waiting)])))
    if s.phase is Phase.PICK:
        done = [player(match, sd) for sd in (RAPTOR, SCIENTIST) if v.picked[sd]]
        if done:
            lines.append(Text("Has picked: {who}", who=Text.joined(", ", done)))
        if s.observation:
            lines.append(Text("Observation: the scientist picks first."))
    if v.revealed:
        lines.append(Text("Revealed: raptor {raptor}, scientist {scientist}",
                          raptor=card_label(RAPTOR, v.revealed[0]),
                          scientist=card_label(SCIENTIST, v.revealed[1])))
    if s.phase is Phase.AP:
        lines.append(Text("The {side} has {n} AP left.", side=SIDE_WORDS[s.ap.side],
                          n=s.ap.remaining))
    if match.deadline_at:
        lines.append(Text("Time runs out {when} ({date}).", when=ts(match.deadline_at),
                          date=ts(match.deadline_at, "f")))
    if match.draw_offered_by:
        lines.append(Text("{who} offers a draw (`/raptor draw` to accept).",
                          who=mention(match.draw_offered_by)))
    lines.append(score_line(v))
    return Text.joined("\n", lines)


def hand_heading(match, side: Side) -> Text:
    """``"**Match #7 · your hand** (raptor, round 3)"``: the first line of a hand message
    (public facts only), kept to retire it."""
    return Text("**{title} · your hand** ({side}, round {n})", title=match_title(match),
                side=SIDE_WORDS[side], n=match.state.round)


def hand_text(match, side: Side, *, listed: bool = True, jump: str | None = None) -> Text:
    """The player's hand (R11.2): PRIVATE to the player of ``side`` — send it ephemerally or
    by DM to that player only. ``listed``: list the cards with their effects (for a message
    without the hand image, which shows them; its buttons name them); ``jump``: the link to
    the match (:func:`to_match`)."""
    v = engine.view(match.state, side)
    head = Text("{heading}:", heading=hand_heading(match, side)) if listed else hand_heading(
        match, side)
    if jump:
        head = Text("{heading} · {jump}", heading=head, jump=jump)
    lines: list = [head]
    if listed:
        for card in v.hand or ():
            lines.append(Text("• **{card}** — {effect}", card=card_label(side, card),
                              effect=card_effect(side, card)))
    if v.shown_pick is not None and side is RAPTOR:
        lines.append(Text("👁 Observation: the scientist has picked **{card}**.",
                          card=card_label(SCIENTIST, v.shown_pick)))
    if v.my_pick is not None and v.revealed is None:
        shown = side is SCIENTIST and v.observation  # R5.2: shown to the raptor
        lines.append(Text("You picked **{card}** (shown to the raptor: Observation).",
                          card=card_label(side, v.my_pick)) if shown else
                     Text("You picked **{card}** (face down).", card=card_label(side, v.my_pick)))
    if v.deck is not None:
        lines.append(Text("Deck ({n}): {deck} · discard: {pile}", n=len(v.deck),
                          deck=" ".join(str(c) for c in v.deck) or "-",
                          pile=" ".join(str(c) for c in v.discards[side]) or "-"))
    return Text.joined("\n", lines)


def pick_prompt(match, side: Side, *, in_dm: bool = False) -> Text:
    """What the player of ``side`` can do with their hand now; ``in_dm``: the message is a
    DM, where no ``/raptor`` command runs, so none is suggested."""
    s = match.state
    if s.phase is not Phase.PICK:
        return Text("Picking is closed now.")
    if side not in engine.to_act(s):
        if s.picks[side] is not None:
            return Text("You have picked; waiting for your opponent.")
        return Text("Under observation the scientist picks first: wait for their card.")
    if in_dm:
        return Text("Pick a card with the buttons below.")
    return Text("Pick a card with the buttons below (or `/raptor act play <n>`).")


def own_pick_text(side: Side, card: int, round_no: int) -> Text:
    """The answer to the player's own card button: PRIVATE (it names their pick)."""
    return Text("You picked **{card}** for round {n}.", card=card_label(side, card), n=round_no)


def picked_elsewhere_text(side: Side, card: int) -> Text:
    """A DM hand retired because its player picked in the channel: PRIVATE (names the
    pick)."""
    return Text("You picked **{card}** in the match's channel.", card=card_label(side, card))


NO_MATCH_HERE = Text("There is no match in this channel. Start one with `/raptor challenge` or "
                     "`/raptor practice`.")


def reminder_text(match, user_ids: Sequence[int]) -> Text:
    """A public reminder that ``user_ids`` have a decision pending (and its deadline)."""
    params = dict(who=" ".join(mention(u) for u in user_ids), title=match_title(match),
                  phase=PHASE_WORDS[match.state.phase])
    if match.deadline_at:
        return Text("⏰ {who}, {title} is waiting for your decision ({phase}). Time runs out "
                    "{when}.", when=ts(match.deadline_at), **params)
    return Text("⏰ {who}, {title} is waiting for your decision ({phase}).", **params)


RULES_SUMMARY = Text("""\
**Raptor** is a duel on a 6×13 grid (columns A–M, rows 1–6). One player leads the **raptors**: \
a mother and five babies. The other leads the **scientists**, who want the babies for a zoo.

**How to win**
• Raptor: 3 babies escape through the exits, or no scientist is left on the board.
• Scientist: the mother carries 5 sleep tokens, or 3 babies are captured.

**A round**
1. Both players secretly pick one of their 3 cards (values 1–9), then both are revealed.
2. Equal cards: nothing happens.
3. The **lower** card's owner resolves that card's effect (as fully as possible: where a card \
says "1 or 2" or "1 to 3", the first is a must, the rest optional).
4. The **higher** card's owner gets action points (AP) = the difference, spends any of them, \
then ends the turn. Unspent AP are lost.
5. Both draw back to 3 cards.

**Raptor actions (1 AP each)** — a baby steps to a free neighbouring space or out through an \
exit; the mother runs any distance in a straight line, stopping before a rock, fire, figurine, \
exit or the edge (her first move of a round also costs one AP per sleep token); the mother kills \
an adjacent scientist, wakes an adjacent sleeping baby (not one put to sleep this round) or puts \
out an adjacent fire (with every fire connected to it). Raptors never enter or cross fire.
**Scientist actions** — a scientist walks one space per AP (through fire, never stopping on it); \
stands up if frightened (not the round it was frightened); puts an adjacent baby to sleep, \
captures an adjacent sleeping baby, or shoots the mother along a clear line (rocks and standing \
scientists block). Each scientist makes at most one of those three aggressive actions per round.
**Observation** — after the raptor's Disappearance (2 or 6) took effect as the lower card, \
next round the scientist picks first and the raptor sees that card before picking.

**Playing here** — click *Pick your card* each round; when it is your move use the menus, or \
type `/raptor act` (e.g. `G2-G5`, `kill F3`, `B5 shoot G5`, `fire E4`, `end`). \
`/raptor board` shows the board, `/raptor status` whose move it is.""")


def card_reference(side: Side) -> Text:
    """The nine cards of a side with their effects (R9 / R10), from the engine's card texts."""
    head = (Text("**Raptor cards** (the effect applies only to the lower card)")
            if side is RAPTOR else
            Text("**Scientist cards** (the effect applies only to the lower card)"))
    lines = [head]
    for card in range(1, 10):
        lines.append(Text("**{card}** — {effect}", card=card_label(side, card),
                          effect=engine.card_text(side, card)))
    return Text.joined("\n", lines)
