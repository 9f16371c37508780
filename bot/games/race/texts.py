"""The sentences of Raptor Race about a match: the start, the live card's head and the
turn's story, the result, the status, the ping, and a player's own card in words.

Pure functions of a :class:`bot.match.Match` of the race (its public fields and the public
view of its state, RR9.1) and plain arguments; Discord-free, so the race's Discord
presentation and the offline modes share them, and they are tested without a client.
Every text is a :class:`~engine.messages.Text` of the catalog (the English sentence; a
reader's language renders it). Only :func:`own_card_text` reads a player's card (RR9.2):
its text goes to that player alone (an ephemeral reply or a DM); every other function
reads nothing hidden, so its text may be posted for everyone.

Players: a person is mentioned (``<@123>``), an AI seat reads ``AI (easy)``
(:func:`player`); functions that name players take ``who``, another way to name them (the
offline modes: ``seat 2 (you)``). Discord markup: ``**bold**``, `` `code` `` for notation
and dice, ``<t:unix:R>`` for a deadline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import engine.race as race
from engine.game import Ending, Seat
from engine.messages import N_, Text
from engine.race import CARDS, RAPTOR_NAMES, Phase, RaceState, Raptor, Step
from engine.race.state import BOOSTER
from engine.race.track import TRACKS, row_of, space_name
from render.race.card import BONUS_TEXT, SLOT_TEXTS

from ...match.models import Match
from ...texts import LEVEL_WORDS, ai_name, mention, ts
from . import doing_text, seat_word

#: How a player is named in a sentence: ``who(match, seat)``.
Who = Callable[[Match, Seat], Text | str]


# --------------------------------------------------------------------------- small pieces
def player(match: Match, seat: Seat) -> Text | str:
    """A seat's player in a sentence: a person's mention (``<@123>``), or ``AI (easy)``."""
    level = match.ai_of(seat)
    return ai_name(level) if level else mention(match.user_of(seat))


def match_title(match: Match) -> Text:
    """``"Race #7"``."""
    return Text("Race #{id}", id=match.id)


def board_name(match: Match) -> Text:
    """The side of the board (RR1.1): ``"Desert"`` or ``"Jungle"``."""
    return board_of(match.options)


def board_of(options: Mapping[str, str]) -> Text:
    """The side of the board a race's ``options`` choose (RR1.1): ``"Desert"`` or
    ``"Jungle"``."""
    return Text(TRACKS[race.Board(options.get("board", "desert"))].name)


def dice_text(faces: Sequence[race.Face]) -> str:
    """Dice by letter, canonical order: ``"GGPT"`` (``-`` for none)."""
    return "".join(f.value for f in faces) or "-"


def raptor_name(raptor: Raptor) -> Text:
    """``"Green"`` (RR1.2)."""
    return Text(RAPTOR_NAMES[raptor])


def _players(match: Match, who: Who) -> Text:
    return Text.joined(", ", [who(match, s) for s in range(match.seats)])


# --------------------------------------------------------------------------- the start
def match_start_line(match: Match, who: Who = player) -> Text:
    """The line that announces a new race: ``"**Race #7** — a new race: <@1>, <@2>, AI
    (easy) · Desert · <@2> plays first."`` (the seats in the order of play, RR3.5; the first
    seat drawn, RR3.5); a practice race when people race against the AI."""
    state: RaceState = match.state
    practice = match.practice and any(p.human for p in match.players)
    template = (N_("**{title}** — a new practice race: {players} · {board} · {first} plays "
                   "first.") if practice else
                N_("**{title}** — a new race: {players} · {board} · {first} plays first."))
    return Text(template, title=match_title(match), players=_players(match, who),
                board=board_name(match), first=who(match, state.first))


# --------------------------------------------------------------------------- the live card
def decision_text(state: RaceState) -> Text:
    """What the seat to play decides now, in the race's words: which dice to set aside of
    the roll (RR4.2, RR4.3), which raptor a pending booster moves (RR5.6), or which die of
    the result to use next (RR5.1); public (RR9.1)."""
    if state.phase is Phase.ROLL:
        rolled = dice_text(state.rolled)
        if state.arrow_die is not None and not state.arrow_aside:
            return Text.plural("set aside one or more of the dice rolled, `{dice}`, and the "
                               "arrows die ({n} arrow) too if you like",
                               "set aside one or more of the dice rolled, `{dice}`, and the "
                               "arrows die ({n} arrows) too if you like",
                               state.arrow_die, dice=rolled)
        return Text("set aside one or more of the dice rolled, `{dice}`", dice=rolled)
    if state.pending is not None:
        return Text("{raptor} stands on a booster: give another raptor a step forward",
                    raptor=raptor_name(state.pending))
    left = dice_text(state.left)
    if state.arrows_left:
        return Text.plural("use a die of the result, `{dice}` left ({n} arrow to spend)",
                           "use a die of the result, `{dice}` left ({n} arrows to spend)",
                           state.arrows_left, dice=left)
    return Text("use a die of the result, `{dice}` left", dice=left)


def card_heading(match: Match) -> Text:
    """``"**Race #7 · turn 3**"``; once over, ``"**Race #7 · the finish**"``, or for a
    race ended outside the game (RR3.7, a moderator) ``"**Race #7 · stopped in turn 3**"``."""
    if match.state.is_over:
        return Text("**{title} · the finish**", title=match_title(match))
    if not match.active:
        return Text("**{title} · stopped in turn {n}**", title=match_title(match),
                    n=match.state.turn)
    return Text("**{title} · turn {n}**", title=match_title(match), n=match.state.turn)


def card_head(match: Match, deadline: float | None, who: Who = player) -> Text:
    """The head of the live match card: the turn, whose turn it is and what they decide
    now (:func:`decision_text`), and the ``deadline`` (Unix seconds; None: none). Public."""
    state: RaceState = match.state
    if not match.active or state.is_over:
        return card_heading(match)
    text = Text("{heading} — {player}, your turn: {decision}.", heading=card_heading(match),
                player=who(match, state.seat), decision=decision_text(state))
    if deadline:
        return Text("{text}\nTime runs out {when}.", text=text, when=ts(deadline))
    return text


def step_text(step: Step, board: race.Board) -> Text:
    """One thing the result did (RR5): ``"`G` Green C3 → C4"``, ``"`T` T-Rex: Blue B5 →
    B4"``, ``"`+` booster: Yellow D5 → D6"``, ``"`O` no step"``, ``"`+` booster lost: no
    other raptor could step"``; a crossing says so."""
    if step.raptor is None:
        if step.by == BOOSTER:
            return Text("`+` booster lost: no other raptor could step")
        return Text("`{die}` no step", die=step.by)
    name = raptor_name(step.raptor)
    frm, to = space_name[step.frm], space_name[step.to]
    if TRACKS[board].crossed(step.to):
        move = Text("{raptor} crosses the finish line", raptor=name)
    else:
        move = Text("{raptor} {frm} → {to}", raptor=name, frm=frm, to=to)
    if step.by == BOOSTER:
        return Text("`+` booster: {move}", move=move)
    if step.by == race.Face.T.value:
        return Text("`T` T-Rex: {move}", move=move)
    return Text("`{die}` {move}", die=step.by, move=move)


def steps_text(steps: Sequence[Step], board: race.Board) -> Text:
    """A turn's steps on one line (:func:`step_text`, joined by ``·``)."""
    return Text.joined(" · ", [step_text(s, board) for s in steps])


def turn_story(match: Match) -> Text:
    """The public story of the current turn so far (RR9.1): the dice set aside (in the
    move, the result), the arrows, and each step; empty before anything was decided."""
    state: RaceState = match.state
    lines: list[Text] = []
    if state.phase is Phase.ROLL and state.kept:
        lines.append(Text("Set aside: `{dice}`", dice=dice_text(state.kept)))
    elif state.phase is Phase.MOVE:
        if state.arrow_die is not None:
            lines.append(Text.plural("The result: `{dice}` and {n} arrow",
                                     "The result: `{dice}` and {n} arrows", state.arrow_die,
                                     dice=dice_text(state.kept)))
        else:
            lines.append(Text("The result: `{dice}`", dice=dice_text(state.kept)))
    if state.steps:
        lines.append(steps_text(state.steps, state.board))
    return Text.joined("\n", lines)


def last_turn_text(match: Match, who: Who = player) -> Text | None:
    """What the turn before did (its player and steps), once the next one has begun; None
    before the first turn ended."""
    state: RaceState = match.state
    if state.last_seat is None:
        return None
    if not state.last_steps:
        return Text("{player}'s turn moved nothing.", player=who(match, state.last_seat))
    return Text("{player}'s turn: {steps}", player=who(match, state.last_seat),
                steps=steps_text(state.last_steps, state.board))


# --------------------------------------------------------------------------- the race's end
def finish_order(state: RaceState) -> Text:
    """The placing (RR6.2): ``"Green · Yellow · Orange = Purple · Blue"``, tied raptors
    (one row) joined by ``=``."""
    groups = race.placing(state.raptors, state.winner)
    return Text.joined(" · ", [Text.joined(" = ", [raptor_name(r) for r in g])
                               for g in groups])


def card_score_text(card: int, score: race.CardScore) -> Text:
    """What one card scored (RR7.1, RR7.2): ``"card #7: Green 10 · Orange 8 · Purple 0 ·
    bonus 3"`` (each slot's raptor and its points, slot 1 first)."""
    parts = [Text("{raptor} {points}", raptor=raptor_name(r), points=p)
             for r, p in zip(CARDS[card], score.slots, strict=True)]
    parts.append(Text("bonus {points}", points=score.bonus))
    return Text("card #{card}: {slots}", card=card, slots=Text.joined(" · ", parts))


def result_lines(match: Match, who: Who = player) -> list[Text]:
    """The result per player of a finished race, best first (RR7.3): place, player,
    points and what their card scored; tied places share a number; a seat that left the
    race is still ranked (RR3.6). Empty when the race did not finish (ended outside the
    game: nothing was scored)."""
    state: RaceState = match.state
    if not state.is_over:
        return []
    outcome = race.outcome(state)
    scores = race.card_scores(state)
    lines = []
    order = sorted(range(state.seats), key=lambda s: (outcome.places[s], s))
    for seat in order:
        place = outcome.places[seat]
        tied = sum(1 for p in outcome.places if p == place) > 1
        line = Text.plural("**{place}.** {player}: **{n}** point — {card}",
                           "**{place}.** {player}: **{n}** points — {card}",
                           scores[seat].total, place=place, player=who(match, seat),
                           card=card_score_text(state.cards[seat], scores[seat]))
        notes = []
        if tied:
            notes.append(Text("tied"))
        if seat in state.forfeited:
            notes.append(Text("left the race"))
        if notes:
            line = Text("{line} ({notes})", line=line, notes=Text.joined(", ", notes))
        lines.append(line)
    return lines


#: Why a race ended outside the game, in words (the platform's endings).
ENDINGS = {
    Ending.RESIGNED: Text("every player left the race"),
    Ending.TIMEOUT: Text("every player ran out of time"),
    Ending.ABANDONED: Text("every player ran out of time"),
    Ending.ENDED_BY_MODERATOR: Text("a moderator ended it"),
    Ending.STOPPED: Text("it was stopped by its player"),
    Ending.AI_FAILED: Text("the AI could not decide"),
    Ending.DRAW_AGREED: Text("the players agreed to end it"),
}


def result_headline(match: Match, who: Who = player) -> Text:
    """The first line of :func:`result_text`: who won (first place shared on equal points,
    RR7.3) and which raptor crossed the finish line, or why a race ended without a
    result."""
    state: RaceState = match.state
    title = match_title(match)
    if not state.is_over:
        why = ENDINGS.get(match.reason, Text(str(match.reason or "").replace("_", " ")))
        return Text("**{title} is over** without a result: {why}.", title=title, why=why)
    winners = sorted(race.outcome(state).winners)
    names = Text.joined(" and ", [who(match, s) for s in winners])
    crossed = raptor_name(state.winner)
    if len(winners) > 1:
        return Text("🏁 **{title} is over: {players} share first place** — {raptor} crossed "
                    "the finish line in turn {n}.", title=title, players=names,
                    raptor=crossed, n=state.turn)
    return Text("🏁 **{title} is over: {player} wins** — {raptor} crossed the finish line "
                "in turn {n}.", title=title, player=names, raptor=crossed, n=state.turn)


def result_text(match: Match, who: Who = player) -> Text:
    """The public result of a race: :func:`result_headline`, the raptors' order (RR6.2),
    then every player's place, points and card (:func:`result_lines`; every card is shown
    once the race is over, RR7.1)."""
    head = result_headline(match, who)
    state: RaceState = match.state
    if not state.is_over:
        return head
    order = Text("The finish: {order}", order=finish_order(state))
    return Text.joined("\n", [head, order, *result_lines(match, who)])


# --------------------------------------------------------------------------- status and ping
def standings(state: RaceState) -> Text:
    """Where the raptors are, leading first: ``"Green row 7 · Yellow, Orange row 5 ·
    ..."`` (RR6.2's groups by row)."""
    groups = race.placing(state.raptors, state.winner)
    parts = []
    for group in groups:
        row = row_of(state.space_of(group[0]))
        names = Text.joined(", ", [raptor_name(r) for r in group])
        if state.track.crossed(state.space_of(group[0])):
            parts.append(Text("{raptors} beyond the finish line", raptors=names))
        else:
            parts.append(Text("{raptors} row {row}", raptors=names, row=row))
    return Text.joined(" · ", parts)


def status_text(match: Match, who: Who = player) -> Text:
    """The race's status, public facts only (RR9.1): the players and the board, the turn
    and what the seat to play is doing, the dice, where the raptors are, who left, the
    deadline; once over, the result."""
    state: RaceState = match.state
    lines: list[Text] = [Text("**{title}** — {players} · {board}", title=match_title(match),
                              players=_players(match, who), board=board_name(match))]
    if not match.active or state.is_over:
        lines.append(result_text(match, who))
        return Text.joined("\n", lines)
    lines.append(Text("Turn {n}: {player}'s turn: {decision}.", n=state.turn,
                      player=who(match, state.seat), decision=decision_text(state)))
    story = turn_story(match)
    if story:
        lines.append(story)
    lines.append(Text("Raptors: {where}", where=standings(state)))
    if state.forfeited:
        lines.append(Text("Left the race: {players}", players=Text.joined(
            ", ", [who(match, s) for s in state.forfeited])))
    if match.deadline_at:
        lines.append(Text("Time runs out {when}.", when=ts(match.deadline_at)))
    return Text.joined("\n", lines)


def ping_text(match: Match, seat: Seat) -> Text:
    """The short message that tells a person the turn passed to them: ``"🔔 <@2>, your turn
    in Race #7: set aside one or more of the dice rolled, `GGPT`."``"""
    return Text("🔔 {mention}, your turn in {title}: {decision}.",
                mention=mention(match.user_of(seat)), title=match_title(match),
                decision=decision_text(match.state))


# --------------------------------------------------------------------------- on Discord
def seated(match: Match, seat: Seat) -> Text:
    """A player with their seat, as the live card names them beside the track image (which
    names seats): ``"<@123> (seat 2)"``, ``"seat 3 (AI easy)"`` (every AI seat is the bot
    itself, so its seat tells them apart)."""
    level = match.ai_of(seat)
    if level:
        return Text("seat {n} (AI {level})", n=seat + 1, level=LEVEL_WORDS.get(level, level))
    return Text("{mention} (seat {n})", mention=mention(match.user_of(seat)), n=seat + 1)


START_HELP = Text("Play your turn with the controls of the race's card below, or type it "
                  "with `/race act`. Your Top-3 card is secret: **Your Top-3 card** on the "
                  "card (or `/race hand`) shows it to you alone.")


def card_story(match: Match, who: Who = seated) -> Text:
    """The live card's embed, public facts only (RR9.1): this turn's dice and steps so far
    (:func:`turn_story`), what the turn before did, where the raptors are, who left."""
    state: RaceState = match.state
    lines: list[Text] = []
    story = turn_story(match)
    if story:
        lines.append(story)
    last = last_turn_text(match, who)
    if last is not None:
        lines.append(last)
    lines.append(Text("Raptors: {where}", where=standings(state)))
    if state.forfeited:
        lines.append(Text("Left the race: {players}", players=Text.joined(
            ", ", [who(match, s) for s in state.forfeited])))
    return Text.joined("\n", lines)


def card_record(match: Match, key: int, who: Who = seated) -> Text:
    """What the card of turn ``key`` becomes once later turns began: its heading — the
    turns it covers, when the AI seats played the turns after it before a card was due —
    and what the last of them did (:func:`last_turn_text`)."""
    state: RaceState = match.state
    title = match_title(match)
    end = state.turn - 1
    heading = (Text("**{title} · turn {n}**", title=title, n=key) if end <= key else
               Text("**{title} · turns {first}–{last}**", title=title, first=key, last=end))
    last = last_turn_text(match, who) if end >= key else None
    return heading if last is None else Text("{heading} — {last}", heading=heading, last=last)


def stale_turn(key: int, now: int) -> Text:
    """Why a control of turn ``key``'s card is out of date in turn ``now``."""
    return Text(" (It was for turn {n}; the race is in turn {now}.)", n=key, now=now)


def reminder_text(match: Match, user_ids: Sequence[int]) -> Text:
    """The public reminder to ``user_ids`` (the seat to play) that the race waits for
    them, what they decide and the deadline."""
    params = dict(who=" ".join(mention(u) for u in user_ids), title=match_title(match),
                  decision=decision_text(match.state))
    if match.deadline_at:
        return Text("⏰ {who}, {title} is waiting for your turn: {decision}. Time runs out "
                    "{when}.", when=ts(match.deadline_at), **params)
    return Text("⏰ {who}, {title} is waiting for your turn: {decision}.", **params)


def parent_line(match: Match, card_url: str | None, who: Who = seated) -> Text:
    """The race's line in the channel its thread hangs from: the players and the board,
    then the turn and what the seat to play does, or the result; a link to the card."""
    head = Text("**{title}** · {players} · {board}", title=match_title(match),
                players=_players(match, who), board=board_name(match))
    if not match.active:
        body = result_headline(match, who)
    else:
        body = waiting_line(match, who)
    if card_url:
        return Text("{head}\n{body} · [go to the race's card]({url})", head=head, body=body,
                    url=card_url)
    return Text("{head}\n{body}", head=head, body=body)


def challenge_text(ch) -> Text:
    """The public message of a challenge to a two-player race (a rematch): who, the
    board, the expiry."""
    board = Text(TRACKS[race.Board(ch.options.get("board", "desert"))].name)
    return Text("{challenged}, {challenger} challenges you to a **Raptor Race** on the "
                "{board} board!\nAccept or decline {when}.",
                challenged=mention(ch.challenged_id), challenger=mention(ch.challenger_id),
                board=board, when=ts(ch.expires_at))


def board_verdict(match: Match) -> Text | None:
    """The banner of the track image of a race that ended outside the game (RR3.7: no seat
    left, a moderator), without markup; None while it runs or once a raptor crossed the
    line (the image shows the finish)."""
    if match.active or match.state.is_over:
        return None
    why = ENDINGS.get(match.reason, Text(str(match.reason or "").replace("_", " ")))
    return Text("{title} is over without a result: {why}", title=match_title(match), why=why)


def private_heading(match: Match, seat: Seat) -> Text:
    """The first line of a player's private view: ``"**Race #7** · your Top-3 card (seat
    2)"`` (it names no card: it stays when a DM copy is retired)."""
    return Text("**{title}** · your Top-3 card ({seat})", title=match_title(match),
                seat=seat_word(seat))


RULES_SUMMARY = Text("""\
**Raptor Race** is a race of five raptors (Blue, Green, Orange, Purple, Yellow) for 2 to 5 \
players. Nobody owns a raptor: each player holds a secret **Top-3 card** naming three of them.

**Your turn**
• Roll the four footprint dice (on the Jungle, the arrows die too). Set aside one or more of \
them, roll the rest again; stop when all are set aside (at most four rolls).
• Then use every die set aside, in the order you like: a colour moves its raptor one space \
forward (sideways when blocked, on the Jungle), the T-Rex moves any raptor one space back. A \
raptor that lands on a booster ➕ gives another raptor a step forward. On the Jungle each \
arrow makes a step diagonal.

**The finish**
The race ends when a raptor crosses the line. Each card scores: 10 if its first raptor won, \
8 if its second is first or second, 5 if its third is in the top three, and 3 more when its \
three raptors are the top three. The most points wins.

**On Discord**
Set dice aside with the menu of the race's card (**Keep all** ends the rolling), then use \
the dice with its menu; or type `/race act` (`keep GGT`, `G>C4`, `TB>B3`, `+Y>D6`). \
**Your Top-3 card** shows your card to you alone. A player who leaves (resigns or runs out \
of time) is skipped from then on; their card still scores at the end.""")


# --------------------------------------------------------------------------- private
def own_card_text(match: Match, seat: Seat) -> Text:
    """PRIVATE to ``seat`` (RR9.2): its Top-3 card in words, slot by slot with what each
    scores (RR7.1), and once the race is over the points it scored."""
    view = race.view(match.state, seat)
    card = view.my_card
    slots = [Text("{slot}. **{raptor}** — {rule}", slot=n + 1, raptor=raptor_name(r),
                  rule=rule)
             for n, (r, rule) in enumerate(zip(CARDS[card], SLOT_TEXTS, strict=True))]
    lines = [Text("**Your Top-3 card** (#{card}, {title}, {seat}):", card=card,
                  title=match_title(match), seat=seat_word(seat)),
             *slots, BONUS_TEXT]
    if view.scores is not None:
        score = view.scores[seat]
        lines.append(Text.plural("It scored **{n}** point ({card}).",
                                 "It scored **{n}** points ({card}).", score.total,
                                 card=card_score_text(card, score)))
    return Text.joined("\n", lines)


def waiting_line(match: Match, who: Who = player) -> Text:
    """``"Turn 3: <@2> is setting dice aside."``: whose turn it is and what they are doing
    (public)."""
    state: RaceState = match.state
    return Text("Turn {n}: {doing}.", n=state.turn,
                doing=doing_text(state, who(match, state.seat)))


__all__ = [
    "ENDINGS", "RULES_SUMMARY", "START_HELP", "board_verdict", "card_record", "card_story",
    "challenge_text", "parent_line", "private_heading", "reminder_text", "seated",
    "stale_turn", "Who", "board_name", "card_head", "card_heading",
    "card_score_text", "decision_text", "dice_text", "finish_order", "last_turn_text",
    "match_start_line", "match_title", "own_card_text", "ping_text", "player",
    "raptor_name", "result_headline", "result_lines", "result_text", "standings",
    "status_text", "step_text", "steps_text", "turn_story", "waiting_line",
]
