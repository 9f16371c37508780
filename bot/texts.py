"""Every sentence the Discord bot shows: message texts, the rules summary and card reference.

Pure functions of public data (a :class:`~bot.match.Match`'s public fields, public
:class:`engine.Event` values, a player's own hand). Nothing here imports discord, so the texts
can be checked without a client. A function that takes a player's *private* information
(their hand, their own pick, the card shown to them under observation, R5.2) says so in its
docstring; its text may only be sent to that player (ephemeral message or DM).

Discord markup used: ``<@id>`` mentions, ``<t:unix:R>`` relative timestamps, ``**bold**`` and
`` `code` `` for notation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import engine
from engine import Event, Phase, Piece, Reason, Side
from engine.actions import PIECE_LETTERS
from engine.geometry import CENTRAL_COLUMNS, SQUARE_NAMES
from engine.predicates import ap_total, mother_move_cost, scientists_on_board
from engine.record import ending_banner
from engine.state import SETUP_PHASES

from .match.models import DRAW, ChallengeStatus, EndReason

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
N = SQUARE_NAMES

# --------------------------------------------------------------------------- small pieces


def ts(unix: float, style: str = "R") -> str:
    """A Discord timestamp, shown in each reader's own time zone (``R``: "in 3 hours")."""
    return f"<t:{int(unix)}:{style}>"


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 fire token"``, ``"2 fire tokens"``: a number with its noun in the right number
    (``plural`` for an irregular one, else ``noun + "s"``)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def card_label(side: Side, card: int) -> str:
    """``"5 · Recovery ×2"``: a card's value and title (R9, R10)."""
    return f"{card} · {engine.card_name(side, card)}"


def card_effect(side: Side, card: int) -> str:
    """The effect text of a card, a repeated card's spelled out (R9, R10)."""
    return engine.effect_text(side, card)


def player(match, side: Side) -> str:
    """``"<@123> (raptor)"``; an AI side reads ``"<@bot> (raptor, AI easy)"``."""
    level = match.ai.get(side)
    extra = f", AI {level}" if level else ""
    return f"{mention(match.players[side])} ({side.value}{extra})"


def match_title(match) -> str:
    return f"Match #{match.id}"


PHASE_NAMES = {
    Phase.SETUP_MOTHER: "Setup: the mother",
    Phase.SETUP_BABIES: "Setup: the babies",
    Phase.SETUP_SCIENTISTS: "Setup: the scientists",
    Phase.PICK: "Card pick",
    Phase.EFFECT: "Card effect",
    Phase.AP: "Action points",
    Phase.MOTHER_RETURN: "The mother's return",
    Phase.OVER: "Game over",
}

REASONS = {
    Reason.BABIES_ESCAPED: "three babies escaped",
    Reason.NO_SCIENTISTS: "no scientist is left on the board",
    Reason.MOTHER_ASLEEP: "the mother has five sleep tokens",
    Reason.BABIES_CAPTURED: "three babies were captured",
    EndReason.ENDED_BY_MODERATOR: "ended by a moderator",
}

# --------------------------------------------------------------------------- events


def event_text(e: Event) -> str | None:
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
            text += f" (puts out {count(len(e.cells), 'fire token')})"
        return text
    if k == "escaped":
        return f"{N[e.at]}-{N[e.to]} (a baby escapes!)"
    if k == "disappeared":
        return f"the mother disappears from {N[e.at]}"
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
        return f"{N[e.at]} shoot {N[e.to]} ({count(e.value, 'sleep token')})"
    if k == "killed":
        return f"kill {N[e.at]}"
    if k == "fire_placed":
        return f"fire {N[e.at]}"
    if k == "fire_out":
        return f"out {N[e.at]} ({count(len(e.cells) or 1, 'fire token')})"
    if k == "reinforced":
        return f"R@{N[e.to]}"
    return None


def event_phrase(e: Event) -> str | None:
    """One public event as a short sentence for an action line ("the mother kills the
    scientist on F3"), or None for events told another way."""
    k = e.kind
    piece = e.piece or ""
    if k == "placed":
        return f"{piece or 'a figurine'} placed on {N[e.to]}"
    if k == "moved":
        verb = {Piece.MOTHER: "the mother runs", Piece.BABY: "a baby steps",
                Piece.SCIENTIST: "a scientist walks"}.get(piece, "moves")
        cost = f" ({e.value} AP)" if piece == Piece.SCIENTIST and e.value and e.value > 1 else ""
        return f"{verb} {N[e.at]}→{N[e.to]}{cost}"
    if k == "called":
        return f"a baby answers the call {N[e.at]}→{N[e.to]}"
    if k == "jeep":
        fires = f", putting out {count(len(e.cells), 'fire token')}" if e.cells else ""
        return f"a jeep drives {N[e.at]}→{N[e.to]}{fires}"
    if k == "escaped":
        return f"a baby escapes through the exit {N[e.to]}! 🦖"
    if k == "disappeared":
        return f"the mother disappears from {N[e.at]}"
    if k == "frightened":
        return f"the scientist on {N[e.at]} is frightened"
    if k == "stood":
        return f"the scientist on {N[e.at]} stands up"
    if k == "slept":
        if e.text == "gas":
            return f"the baby on {N[e.at]} falls asleep"
        return f"the scientist on {N[e.at]} puts the baby on {N[e.to]} to sleep"
    if k == "woken":
        return f"the baby on {N[e.at]} wakes up"
    if k == "healed":
        return f"the mother loses a sleep token ({e.value} left)"
    if k == "captured":
        return f"the scientist on {N[e.at]} captures the baby on {N[e.to]}"
    if k == "shot":
        return (f"the scientist on {N[e.at]} shoots the mother "
                f"({count(e.value, 'sleep token')})")
    if k == "killed":
        return f"the mother kills the scientist on {N[e.at]}"
    if k == "fire_placed":
        return f"fire on {N[e.at]}"
    if k == "fire_out":
        return f"the mother puts out {count(len(e.cells) or 1, 'fire token')}"
    if k == "reinforced":
        return f"a scientist arrives on {N[e.to]}"
    if k == "returned":
        return f"the mother returns on {N[e.to]}"
    return None


def events_line(events: Iterable[Event]) -> str:
    """The notation-like texts of ``events``, comma separated (empty string if none)."""
    return ", ".join(t for t in (event_text(e) for e in events) if t)


def _round_of(events: Sequence[Event], match) -> int:
    for e in events:
        if e.kind == "round_end" and e.value is not None:
            return e.value
    return match.state.round


def round_story(events: Sequence[Event]) -> list[str]:
    """The lines of a round summary, from that round's public events in order: the cards,
    the effect and its choices, the AP and the actions, the mother's return, shuffles."""
    lines: list[str] = []
    section: list[str] | None = None
    placements: list[str] = []
    for e in events:
        k = e.kind
        if k == "placed" and section is None:
            placements.append(event_text(e) or "")
            continue
        if k == "revealed":
            lines.append(f"Cards: raptor **{card_label(RAPTOR, e.value)}**, scientist "
                         f"**{card_label(SCIENTIST, e.value2)}**.")
        elif k == "tie":
            lines.append("Equal cards: nothing happened.")
        elif k == "effect":
            section = []
            lines.append(effect_header(e.side, e.value) + ": ")
        elif k == "ap":
            _close(lines, section)
            section = []
            lines.append(f"{e.side.value.capitalize()} spends {e.value} action point"
                         f"{'s' if e.value != 1 else ''}: ")
        elif k == "returned":
            _close(lines, section)
            section = None
            lines.append(f"The mother returns on {N[e.to]}.")
        elif k == "shuffled":
            _close(lines, section)
            section = None
            lines.append(f"The {e.side.value} shuffles their deck and discard pile (card 1 "
                         "too) into a new deck." if e.value == 1 else
                         f"The {e.side.value} shuffles their discard pile into a new deck.")
        elif k == "game_over":
            _close(lines, section)
            section = None
        elif k == "placed" and section is not None and e.piece == Piece.MOTHER:
            continue  # the mother's return: told by 'returned'
        else:
            text = event_text(e)
            if text and section is not None:
                section.append(text if k in _SENTENCE_EVENTS else f"`{text}`")
    _close(lines, section)
    if placements:
        lines.insert(0, "Placed: " + ", ".join(f"`{p}`" for p in placements) + ".")
    return lines


_SENTENCE_EVENTS = frozenset({"disappeared"})  # told as words, not in code formatting


def effect_header(side: Side, card: int) -> str:
    """"Scientist resolves card 2 (Reinforcements)": who resolves which card (R5.4)."""
    return f"{side.value.capitalize()} resolves card {card} ({engine.card_name(side, card)})"


def _close(lines: list[str], section: list[str] | None) -> None:
    if section is None or not lines:
        return
    if lines[-1].endswith(": "):
        lines[-1] += (", ".join(section) if section else "nothing") + "."
    section.clear()


def round_summary(match, round_no: int, events: Sequence[Event]) -> str:
    """The public message after a round (R5.6): the round's story, then the score."""
    v = engine.view(match.state, None)
    story = "\n".join(round_story(events)) or "Nothing happened."
    return (f"**{match_title(match)} · Round {round_no} summary**\n{story}\n"
            + score_line(v))


def score_line(v) -> str:
    """Public counters (R11.1): escaped / captured babies, sleep tokens, scientists."""
    on_board = scientists_on_board(v.board)
    return (f"Babies escaped {v.escaped}/3 · captured {v.captured}/3 · sleep tokens "
            f"{v.sleep_tokens}/5 · scientists on the board {on_board} (reserve {v.reserve})")


# --------------------------------------------------------------------------- match messages


def challenge_text(ch) -> str:
    side = {"random": "a random side"}.get(ch.side, f"the {ch.side}")
    return (f"{mention(ch.challenged_id)}, {mention(ch.challenger_id)} challenges you to a game "
            f"of **Raptor**! They want to play {side} · {ch.environment} · {ch.setup} setup.\n"
            f"Accept or decline {ts(ch.expires_at)}.")


def challenge_closed_text(ch, status: str) -> str:
    words = {ChallengeStatus.ACCEPTED: "accepted ✅", ChallengeStatus.DECLINED: "declined",
             ChallengeStatus.CANCELLED: "cancelled", ChallengeStatus.EXPIRED: "expired"}
    return (f"Challenge from {mention(ch.challenger_id)} to {mention(ch.challenged_id)}: "
            f"{words.get(status, status)}.")


def decision_text(match, side: Side) -> str:
    """What ``side`` must decide now (effect, AP, setup, mother's return): public."""
    s = match.state
    ph = s.phase
    if ph is Phase.EFFECT:
        eff = s.effect
        done = f" ({eff.done} done)" if eff.done else ""
        return (f"resolve **{card_label(side, eff.card)}**{done}: "
                f"{card_effect(side, eff.card)}")
    if ph is Phase.AP:
        ap = s.ap
        text = f"spend your action points: **{ap.remaining} AP** left"
        if side is RAPTOR and mother_move_cost(s.sleep_tokens, ap.mother_moved) > 1:  # R7.2
            text += (f" (the mother's first move this round costs "
                     f"{mother_move_cost(s.sleep_tokens, ap.mother_moved)} AP: 1 + her "
                     f"{count(s.sleep_tokens, 'sleep token')})")
        return text + "."
    if ph is Phase.SETUP_MOTHER:
        return (f"place the mother on a free space of the two middle tiles, columns "
                f"{CENTRAL_COLUMNS} (tiles T2 and T5).")
    if ph is Phase.SETUP_BABIES:
        return ("place a baby on each of the five square tiles other than the mother's, "
                "one per tile.")
    if ph is Phase.SETUP_SCIENTISTS:
        return "place a scientist on each L-tile (columns B and L)."
    if ph is Phase.MOTHER_RETURN:
        return "put the mother back on any free space."
    return "decide."


# --------------------------------------------------------------------------- the live card


def picks_line(match) -> str:
    """The card pick as it stands, public facts only (R11.1): "@a (raptor) ✅ · @b
    (scientist) ⏳" — who has a card face down, never which. Under observation (R5.2) the
    scientist is asked first and the raptor only once that card is down."""
    s = match.state
    if s.observation and s.picks[SCIENTIST] is None:
        return (f"{player(match, SCIENTIST)} ⏳ picks first · then {player(match, RAPTOR)} "
                "sees that card and picks (observation)")
    marks = " · ".join(f"{player(match, side)} {'✅' if s.picks[side] is not None else '⏳'}"
                       for side in (RAPTOR, SCIENTIST))
    return f"{marks} — pick your card"


def card_heading(match) -> str:
    """The first line of the live match card: match, round (or setup phase)."""
    s = match.state
    if s.phase in SETUP_PHASES:
        return f"**{match_title(match)} · {PHASE_NAMES[s.phase]}**"
    return f"**{match_title(match)} · Round {s.round}**"


def card_text(match, deadline: float | None) -> str:
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
        move = f"{player(match, side)}, your move: {decision_text(match, side)}"
        if s.phase is Phase.EFFECT and s.revealed is not None:  # R5.3-R5.5
            move += (f" Then {player(match, side.other)} gets "
                     f"**{ap_total(s.revealed)} AP**.")
    text = f"{card_heading(match)} — {move}"
    if deadline:
        text += f"\nTime runs out {ts(deadline)}."
    return text


def card_log(match) -> str:
    """The live card's log of this round so far (public events only), then the score."""
    s = match.state
    story = round_story(s.round_events)
    if story and s.phase in (Phase.EFFECT, Phase.AP) and story[-1].endswith(": nothing."):
        story[-1] = story[-1].removesuffix("nothing.") + "…"  # being decided now
    return "\n".join([*story, score_line(engine.view(s, None))])


def card_record(match, round_no: int, events: Sequence[Event]) -> str:
    """What a finished round's card becomes: the round's story and the score (R5.6); the
    setup's card (round 0) tells the placements."""
    if round_no == 0:
        return (f"**{match_title(match)} · setup done**\n" + "\n".join(round_story(events))
                + "\n" + score_line(engine.view(match.state, None)))
    return round_summary(match, round_no, events)


def ping_text(match, side: Side) -> str:
    """The one short message that tells a player the turn passed to them."""
    s = match.state
    what = "pick your card" if s.phase is Phase.PICK else decision_text(match, side)
    return f"🔔 {mention(match.players[side])}, your move in {match_title(match)}: {what}"


CARD_OVER = "the match is over: the final board, and the result below."
CARD_BELOW = "The match goes on on its card below."

MATCH_START_HELP = ("Every step shows on the match card below, edited in place: use its buttons "
                    "and menus, or type `/raptor act`. `/raptor rules` explains the game.")


def match_start_line(match) -> str:
    """The line that announces a new match (the challenge's or practice's message)."""
    o = match.options
    kind = "practice game" if match.practice else "match"
    return (f"**{match_title(match)}** — a new {kind}: {player(match, RAPTOR)} vs "
            f"{player(match, SCIENTIST)} · {o.environment} · {o.setup} setup.")


# --------------------------------------------------------------------------- threads


def thread_name(match) -> str:
    """The name of a match's thread (Discord: 1-100 characters)."""
    kind = "practice" if match.practice else "match"
    return f"Raptor {kind} #{match.id}"


def parent_line(match, card_url: str | None) -> str:
    """The match's one line in the channel its thread hangs from: the players, the round and
    whose move it is, then the result; a link to the match card."""
    head = f"**{match_title(match)}** · {player(match, RAPTOR)} vs {player(match, SCIENTIST)}"
    s = match.state
    if not match.active:
        body = result_text(match).splitlines()[0]
    elif s.phase in SETUP_PHASES:
        body = PHASE_NAMES[s.phase]
    else:
        waiting = sorted(match.waiting_for())
        body = f"Round {s.round} · " + (
            "card pick" if s.phase is Phase.PICK and len(waiting) != 1 else
            " and ".join(player(match, side) for side in waiting) + " to move")
    link = f" · [go to the match card]({card_url})" if card_url else ""
    return f"{head}\n{body}{link}"


def threads_setting_text(on: bool, *, changed: bool) -> str:
    """``/raptor-admin threads``: the server's setting, and what it means."""
    now = "**on**: each match gets its own thread" if on else (
        "**off**: matches are played in the channel itself")
    head = "Threads per match are now" if changed else "Threads per match:"
    other = "off" if on else "on"
    return (f"{head} {now}. Matches already running stay where they are. Change it with "
            f"`/raptor-admin threads setting:{other}`.")


THREADS_OFF = ("The match is played here in the channel: this server turned threads off "
               "(`/raptor-admin threads`).")
THREADS_NOT_HERE = ("The match is played here in the channel: this kind of channel can't "
                    "have threads.")


def threads_missing_text(missing: Sequence[str]) -> str:
    """Why a match is played in the channel when the bot may not start a thread there."""
    names = " and ".join(f"**{PERMISSION_NAMES.get(m, m)}**" for m in missing)
    return (f"The match is played here in the channel: I can't start a thread for it (I'm "
            f"missing {names} here). A server admin can grant "
            f"{'them' if len(missing) > 1 else 'it'} so that every match gets its own thread.")


def result_text(match) -> str:
    """The public message at the end of a match: the result and why."""
    reason = match.reason or ""
    if match.result == DRAW:
        return f"**{match_title(match)} is over: a draw**, agreed by both players. 🤝"
    if match.result is None and reason == EndReason.ENDED_BY_MODERATOR:
        return (f"**{match_title(match)} is over**: a moderator ended it, without a result "
                "(not rated).")
    if match.result is None:
        return (f"**{match_title(match)} is over**: both players ran out of time, so it ends "
                "without a result (not rated).")
    winner = Side(match.result)
    loser = winner.other
    if reason == EndReason.RESIGNED:
        why = f"{player(match, loser)} resigned"
    elif reason == EndReason.TIMEOUT:
        why = f"{player(match, loser)} ran out of time"
    else:
        why = REASONS.get(reason, reason)
    return (f"🏆 **{match_title(match)} is over: {player(match, winner)} wins** — {why}.\n"
            + score_line(engine.view(match.state, None)))


def history_reason(match, outcome: str) -> str:
    """Why a finished match ended, told to one of its players whose ``outcome`` was
    ``"won"``, ``"lost"``, ``"draw"`` or ``"no result"`` (``/raptor history``)."""
    reason = match.reason or ""
    if reason in (EndReason.RESIGNED, EndReason.TIMEOUT):
        did = "resigned" if reason == EndReason.RESIGNED else "ran out of time"
        return f"you {did}" if outcome == "lost" else f"your opponent {did}"
    return {EndReason.ABANDONED: "both ran out of time", EndReason.DRAW_AGREED: "agreed"}.get(
        reason, REASONS.get(reason, reason.replace("_", " ")))


def board_verdict(match) -> str | None:
    """The banner of the board image of a match that ended outside the game (resigned, out
    of time, drawn, abandoned, ended by a moderator), without mentions; None while it runs
    or when the game itself ended (the image then tells the winner, R6)."""
    if match.active or match.state.phase is Phase.OVER:
        return None
    return ending_banner(match.result, match.reason or "")


def status_text(match) -> str:
    """``/raptor status``: public facts only (R11.1): who must decide, deadlines, picks made
    (not their values), AP left, draw offer."""
    s = match.state
    v = engine.view(s, None)
    lines = [f"**{match_title(match)}** — {player(match, RAPTOR)} vs "
             f"{player(match, SCIENTIST)} · {match.options.environment} · "
             f"{match.options.setup} setup"]
    if not match.active:
        lines.append(result_text(match))
        return "\n".join(lines)
    lines.append(f"Round {s.round} · {PHASE_NAMES[s.phase]}")
    waiting = match.waiting_for()
    if waiting:
        lines.append("Waiting for " + " and ".join(player(match, sd) for sd in sorted(waiting)))
    if s.phase is Phase.PICK:
        done = [player(match, sd) for sd in (RAPTOR, SCIENTIST) if v.picked[sd]]
        if done:
            lines.append("Has picked: " + ", ".join(done))
        if s.observation:
            lines.append("Observation: the scientist picks first.")
    if v.revealed:
        lines.append(f"Revealed: raptor {card_label(RAPTOR, v.revealed[0])}, scientist "
                     f"{card_label(SCIENTIST, v.revealed[1])}")
    if s.phase is Phase.AP:
        lines.append(f"The {s.ap.side.value} has {s.ap.remaining} AP left.")
    if match.deadline_at:
        lines.append(f"Time runs out {ts(match.deadline_at)} "
                     f"({ts(match.deadline_at, 'f')}).")
    if match.draw_offered_by:
        lines.append(f"{mention(match.draw_offered_by)} offers a draw (`/raptor draw` to "
                     "accept).")
    lines.append(score_line(v))
    return "\n".join(lines)


# --------------------------------------------------------------------------- the hand (private)


def hand_heading(match, side: Side) -> str:
    """``"**Match #7 · your hand** (raptor, round 3)"``: the first line of a hand message
    (public facts only), kept to retire it."""
    return f"**{match_title(match)} · your hand** ({side.value}, round {match.state.round})"


def hand_text(match, side: Side, *, listed: bool = True, jump: str | None = None) -> str:
    """The player's hand (R11.2): PRIVATE to the player of ``side`` — send it ephemerally or
    by DM to that player only. ``listed``: list the cards with their effects (for a message
    without the hand image, which shows them; its buttons name them); ``jump``: the link to
    the match (:func:`to_match`)."""
    v = engine.view(match.state, side)
    lines = [hand_heading(match, side) + (":" if listed else "")
             + (f" · {jump}" if jump else "")]
    if listed:
        for card in v.hand or ():
            lines.append(f"• **{card_label(side, card)}** — {card_effect(side, card)}")
    if v.shown_pick is not None and side is RAPTOR:
        shown = card_label(SCIENTIST, v.shown_pick)
        lines.append(f"👁 Observation: the scientist has picked **{shown}**.")
    if v.my_pick is not None and v.revealed is None:
        shown = side is SCIENTIST and v.observation  # R5.2: shown to the raptor
        lines.append(f"You picked **{card_label(side, v.my_pick)}** "
                     + ("(shown to the raptor: Observation)." if shown else "(face down)."))
    if v.deck is not None:
        lines.append(f"Deck ({len(v.deck)}): {' '.join(str(c) for c in v.deck) or '-'} · "
                     f"discard: {' '.join(str(c) for c in v.discards[side]) or '-'}")
    return "\n".join(lines)


def pick_prompt(match, side: Side, *, in_dm: bool = False) -> str:
    """What the player of ``side`` can do with their hand now; ``in_dm``: the message is a
    DM, where no ``/raptor`` command runs, so none is suggested."""
    s = match.state
    if s.phase is not Phase.PICK:
        return "Picking is closed now."
    if side not in engine.to_act(s):
        if s.picks[side] is not None:
            return "You have picked; waiting for your opponent."
        return "Under observation the scientist picks first: wait for their card."
    if in_dm:
        return "Pick a card with the buttons below."
    return "Pick a card with the buttons below (or `/raptor act play <n>`)."


def to_match(match, link: str) -> str:
    """A jump link to the match, for a private message (a DM) that refers to it."""
    return f"[↪ back to {match_title(match)}]({link})"


def own_pick_text(side: Side, card: int, round_no: int) -> str:
    """The answer to the player's own card button: PRIVATE (it names their pick)."""
    return f"You picked **{card_label(side, card)}** for round {round_no}."


def hand_retired_text(heading: str, line: str, jump: str | None = None) -> str:
    """A DM hand whose buttons are retired: its heading, ``✔ line``, the link to the match
    (:func:`to_match`)."""
    return f"{heading}\n✔ {line}" + (f" {jump}" if jump else "")


def picked_elsewhere_text(side: Side, card: int) -> str:
    """A DM hand retired because its player picked in the channel: PRIVATE (names the
    pick)."""
    return f"You picked **{card_label(side, card)}** in the match's channel."


HAND_SENT_TO_DM = "I sent your hand to your DMs. 📬"
HAND_SUPERSEDED = "A newer message with your hand follows."
HAND_MATCH_OVER = "The match is over."
MATCH_OVER = "This match is over: nothing can be changed in it any more."


# --------------------------------------------------------------------------- notices

STOPPING = ("I'm stopping for a moment (a restart or an upgrade), so nothing was done. "
            "Try again in a minute.")
NOT_YOUR_MATCH = "This isn't your match: only its two players can use these controls."
NO_MATCH_HERE = ("There is no match in this channel. Start one with `/raptor challenge` or "
                 "`/raptor practice`.")
def match_elsewhere_text(match) -> str:
    """A command typed where no match runs, by a player whose match runs elsewhere (its
    thread, say)."""
    return (f"There is no match in this channel: yours, {match_title(match)}, is played in "
            f"<#{match.channel_id}>. Use the command there.")


DM_CLOSED = ("I couldn't send you a direct message (your DMs are closed for this server), so "
             "in this match your hand shows here, as a message only you can see.")

PERMISSION_NAMES = {
    "send_messages": "Send Messages",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
    "view_channel": "View Channel",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


def missing_permissions_text(missing: Sequence[str]) -> str:
    names = ", ".join(f"**{PERMISSION_NAMES.get(m, m)}**" for m in missing)
    return (f"I can't run a match in this channel: I'm missing the {names} permission"
            f"{'s' if len(missing) > 1 else ''} here. A server admin must grant "
            f"{'them' if len(missing) > 1 else 'it'} to me (channel settings → Permissions), "
            "or play in another channel.")


def stale_text(what: str = "control", *, jump: str | None = None) -> str:
    """A click on an out-of-date control; ``jump``: the link to the match
    (:func:`to_match`), for a click in a DM, where ``/raptor status`` does not run."""
    head = (f"This {what} is out of date: the match has moved on since it was posted, so "
            "nothing was changed.")
    if jump:
        return f"{head} {jump}"
    return f"{head} Use the latest message, or `/raptor status`."


# --------------------------------------------------------------------------- rules


RULES_SUMMARY = """\
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
`/raptor board` shows the board, `/raptor status` whose move it is."""


def card_reference(side: Side) -> str:
    """The nine cards of a side with their effects (R9 / R10), from the engine's card texts."""
    lines = [f"**{side.value.capitalize()} cards** (the effect applies only to the lower card)"]
    for card in range(1, 10):
        lines.append(f"**{card_label(side, card)}** — {engine.card_text(side, card)}")
    return "\n".join(lines)

