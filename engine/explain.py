"""Why a well-formed action is not legal: one short reason for a refusal message.

:func:`why_not` looks at the entry's shape (``kill F3``, ``G2-G5``, ``C2 shoot G5``, …) and at
the public position and the player's own hand, and names the rule that stops it: the phase
(R5), a card not in hand (R5.1), an effect's or the AP phase's own actions (R5.4, R5.5), the
mother's straight runs and stops (R7.2), her reach (R7.3-R7.5), a baby put to sleep this round
(R7.4), a scientist frightened this round (R8.2), one aggressive action per scientist per round
(R8.6), what blocks a shot (R8.5), fire (R3.3, R8.1). It never reads hidden information: only
``state.hands[side]`` of the player who typed the entry.

It states no rule of its own: lines and runs, the wound, walks, calls, gas range, fire spots,
shot blocking and the setup tiles come from :mod:`engine.predicates` and the geometry, the
card facts from :mod:`engine.cards`; this module only words the refusal. For an entry that
is legal it gives no reason (None).
"""

from __future__ import annotations

import re

from .cards import Unit, card
from .geometry import (
    CENTRAL_COLUMNS,
    CENTRAL_TILES,
    L_TILES,
    LONG_EDGE,
    NEIGHBOURS,
    SQUARE_NAMES,
    SQUARE_TILES,
    TILE_NAMES,
    TILE_OF,
    TILE_SQUARES,
    square,
)
from .messages import Text
from .predicates import (
    JEEP_PASSES,
    MOTHER_PASSES,
    baby_setup_tiles,
    call_reaches,
    fire_spots,
    fire_supply,
    gas_tiles,
    line,
    mother_move_cost,
    run_stop,
    scientist_setup_tiles,
    shot_blocker,
    walk_distance,
)
from .state import (
    ACTIVE_SCIENTIST_CODES,
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    EMPTY,
    EXIT,
    FIRE,
    MOTHER,
    ROCK,
    SCIENTIST_ACTIVE,
    SCIENTIST_CODES,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
    SLEEPING_BABY_CODES,
    VOID,
    GameState,
    Phase,
    Side,
)

N = SQUARE_NAMES
_ON = {ROCK: Text("a rock"), FIRE: Text("a fire"), EXIT: Text("an exit"),
       MOTHER: Text("the mother"), BABY: Text("a baby"), BABY_ASLEEP: Text("a sleeping baby"),
       BABY_ASLEEP_NEW: Text("a sleeping baby"), SCIENTIST_ACTIVE: Text("a scientist"),
       SCIENTIST_USED: Text("a scientist"),
       SCIENTIST_FRIGHTENED: Text("a frightened scientist"),
       SCIENTIST_FRIGHTENED_NEW: Text("a frightened scientist")}
_SQUARE = re.compile(r"[a-m][1-6]")
_AP_WORDS = ("kill", "wake", "out", "stand", "sleep", "capture", "shoot")


def _what(state: GameState, q: int) -> Text:
    return _ON.get(state.board[q], Text("nothing"))


def _holds(state: GameState, q: int) -> Text:
    """``"E4 holds a rock"``: what stands on ``q``."""
    return Text("{sq} holds {what}", sq=N[q], what=_what(state, q))


def _off_board(state: GameState, q: int) -> Text | None:
    """The reason for a square outside the board (R2.2), or None."""
    if state.board[q] == VOID:
        return Text("{sq} is not a space of the board (columns A and M hold only the exits)",
                    sq=N[q])
    return None


def entry_form(norm: str) -> str:
    """The entry's form: ``play``, ``move``, ``place``, a word (``kill``, ``shoot``, …),
    ``heal``, ``end`` or ``square``."""
    parts = norm.split()
    if parts[0] == "play":
        return "play"
    if "@" in norm:
        return "place"
    if "-" in norm:
        return "move"
    if len(parts) == 3:
        return parts[1]
    if len(parts) == 2:
        return parts[0]
    return parts[0] if parts[0] in ("heal", "end") else "square"


def phase_hint(state: GameState, side: Side) -> Text:
    """What ``side`` must decide now, in a few words (R4, R5)."""
    ph = state.phase
    if ph is Phase.PICK:
        hand = " ".join(str(c) for c in state.hands[side])
        return Text("this is the card pick: play a card from your hand ({hand}) with 'play N'",
                    hand=hand)
    if ph is Phase.EFFECT and state.effect is not None:
        return Text("first resolve the effect of your card {card}", card=state.effect.card)
    if ph is Phase.AP and state.ap is not None:
        return Text("you are spending action points ({n} left); 'end' ends the turn",
                    n=state.ap.remaining)
    if ph is Phase.MOTHER_RETURN:
        return Text("first put the mother back on a free space with 'M@SQ'")
    if ph is Phase.SETUP_MOTHER:
        return Text("this is the setup: place the mother with 'M@SQ'")
    if ph is Phase.SETUP_BABIES:
        return Text("this is the setup: place a baby with 'B@SQ'")
    if ph is Phase.SETUP_SCIENTISTS:
        return Text("this is the setup: place a scientist with 'S@SQ'")
    return Text("the game is over")


def _near_mother(state: GameState, q: int) -> Text | None:
    m = state.mother
    if m is None:
        return Text("the mother is off the board")
    if q not in NEIGHBOURS[m]:
        return Text("the mother (on {at}) is not next to {sq}", at=N[m], sq=N[q])
    return None


def _straight_run(state: GameState, a: int, t: int, passes: frozenset[int], who: Text,
                  not_in_line: Text) -> Text | None:
    """Why ``who`` (the mother, R7.2, or a jeep, R10.3) cannot run from ``a`` to ``t``: not
    in line, or the square that stops the run (:func:`engine.predicates.run_stop`); None if
    it can."""
    if line(a, t) is None:
        return not_in_line
    q = run_stop(state.board, a, t, passes)
    if q is None:
        return None
    if state.board[q] == VOID:
        return Text("{who} stops at the board's edge, before {sq}", who=who, sq=N[q])
    return Text("{who} stops before {what} on {sq}", who=who, what=_what(state, q), sq=N[q])


def _raptor_ap(state: GameState, kind: str, sqs: list[int]) -> Text | None:
    b = state.board
    if kind in ("kill", "wake", "out"):
        q = sqs[0]
        if kind == "kill" and b[q] not in SCIENTIST_CODES:  # R7.3: active or frightened
            return Text("there is no scientist on {sq}", sq=N[q])
        if kind == "wake":
            if b[q] == BABY_ASLEEP_NEW:
                return Text("the baby on {sq} was put to sleep this round: it can be woken "
                            "from the next round on", sq=N[q])
            if b[q] not in SLEEPING_BABY_CODES:
                return Text("there is no sleeping baby on {sq}", sq=N[q])
        if kind == "out" and b[q] != FIRE:
            return Text("there is no fire on {sq}", sq=N[q])
        return _near_mother(state, q)
    if kind == "move":
        a, t = sqs
        if b[a] == MOTHER:
            stop = _straight_run(state, a, t, MOTHER_PASSES, Text("the mother"),
                                 Text("the mother runs along a row or a column"))
            if stop:
                return stop
            if _mother_cost(state) > state.ap.remaining:
                return Text("her {cost}; you have {n}", cost=_mother_cost_text(state),
                            n=state.ap.remaining)
            return None
        if b[a] == BABY_ASLEEP_NEW:
            return Text("the baby on {sq} was put to sleep this round: it cannot move, and "
                        "the mother can wake it from the next round on", sq=N[a])
        if b[a] in SLEEPING_BABY_CODES:
            return Text("the baby on {sq} is asleep: the mother, from a space next to it, or "
                        "a Recovery card must wake it first", sq=N[a])
        if b[a] == BABY:
            off = _off_board(state, t)
            if off:
                return off
            if t not in NEIGHBOURS[a]:
                return Text("a baby moves one space at a time")
            if b[t] == FIRE:
                return Text("raptors never enter fire")
            if b[t] not in (EMPTY, EXIT):
                return _holds(state, t)
            return None
        return Text("there is no raptor figurine on {sq}", sq=N[a])
    if kind in ("stand", "sleep", "capture", "shoot"):
        return Text("that is a scientist's action")
    return None


def _mother_cost(state: GameState) -> int:
    """AP of the mother's next move in the AP phase of ``state`` (R7.2)."""
    return mother_move_cost(state.sleep_tokens, state.ap.mother_moved)


def _mother_cost_text(state: GameState) -> Text:
    """``"first move this round costs 5 AP (1 + her 4 sleep tokens)"``, or ``"next move
    costs 1 AP"`` once she has moved (R7.2)."""
    if state.ap.mother_moved:
        return Text("next move costs 1 AP")
    return Text("first move this round costs {cost} AP (1 + her {tokens} sleep tokens)",
                cost=_mother_cost(state), tokens=state.sleep_tokens)


def idle_reason(state: GameState, side: Side) -> Text:
    """Why ``side``'s action points left buy nothing in ``state`` (an AP phase in which no
    action is legal, which then ends by itself, R5.5): one clause per kind of figurine,
    joined by "; ", e.g. ``"the mother's first move this round costs 5 AP (1 + her 4 sleep
    tokens); no awake baby has a free space to step to"``. Reads the public position only."""
    b = state.board
    out: list[str] = []
    if side is Side.RAPTOR:
        m = state.mother
        if m is not None:
            if any(b[n] == EMPTY for n in NEIGHBOURS[m]):
                out.append(Text("the mother's {cost}", cost=_mother_cost_text(state)))
            else:
                out.append(Text("the mother has no free space next to her to run to"))
        awake = [q for q in range(len(b)) if b[q] == BABY]
        asleep = [q for q in range(len(b)) if b[q] in SLEEPING_BABY_CODES]
        if awake:
            out.append(Text("no awake baby has a free space to step to"))
        elif asleep:
            out.append(Text("every baby on the board is asleep"))
        if m is not None:
            out.extend(_raptor_ap(state, "wake", [q]) or "" for q in NEIGHBOURS[m]
                       if b[q] == BABY_ASLEEP_NEW)
    else:
        new = [N[q] for q in range(len(b)) if b[q] == SCIENTIST_FRIGHTENED_NEW]
        if len(new) > 1:
            out.append(Text("the scientists on {squares} and {last} were frightened this "
                            "round: they can stand up and act from the next round on",
                            squares=Text.joined(", ", new[:-1]), last=new[-1]))
        for q in range(len(b)):
            if b[q] == SCIENTIST_FRIGHTENED_NEW and len(new) == 1 or (
                    b[q] == SCIENTIST_FRIGHTENED):
                out.append(_frightened(state, q))
            elif b[q] in ACTIVE_SCIENTIST_CODES:
                out.append(Text("the scientist on {sq} has no free space to walk to", sq=N[q]))
    parts = [x for x in out if x]
    return Text.joined("; ", parts) if parts else Text("nothing on the board can act")


def effect_idle_reason(state: GameState) -> Text:
    """Why the card effect being resolved in ``state`` has no (further) unit to choose, so
    that it ends by itself with units of the card unused (R5.4: as fully as the position
    allows), e.g. ``"the mother holds no sleep token and no baby is asleep"`` for a
    Recovery (R9.5). Reads the public position only.

    Raises:
        AttributeError: ``state`` resolves no effect (``state.effect`` is None).
    """
    eff = state.effect
    b = state.board
    unit = card(eff.side, eff.card).unit
    if unit is Unit.CALL:  # R9.1, R9.4
        m = state.mother
        if m is None:
            return Text("the mother is off the board")
        tile = TILE_NAMES[TILE_OF[m]]
        if not any(b[q] == EMPTY for q in TILE_SQUARES[TILE_OF[m]]):
            return Text("the mother's tile ({tile}) has no free space left", tile=tile)
        if not any(b[q] == BABY and q not in eff.called for q in range(len(b))):
            return (Text("no other active baby is on the board") if eff.called
                    else Text("no active baby is on the board"))
        return Text("no active baby has a way of free, fire-free spaces to a free space of "
                    "the mother's tile ({tile})", tile=tile)
    if unit is Unit.RECOVER:  # R9.5
        return Text("the mother holds no sleep token and no baby is asleep")
    if unit is Unit.FEAR:  # R9.3, R9.6
        return Text("no standing scientist is left to frighten")
    if unit is Unit.GAS:  # R10.1, R10.4
        if BABY not in b:
            return Text("no baby is standing")
        return Text("no standing baby is on a tile with an active scientist or on a tile next "
                    "to one")
    if unit is Unit.REINFORCE:  # R10.2
        if state.reserve <= 0:
            return Text("the reserve is empty")
        return Text("no space of the long edges (rows 1 and 6, C-K) is free")
    if unit is Unit.JEEP:  # R10.3
        if not any(c in ACTIVE_SCIENTIST_CODES for c in b):
            return Text("no standing scientist is on the board")
        return Text("no standing scientist has a free space in a straight line to drive to")
    if unit is Unit.FIRE:  # R10.5
        if fire_supply(b) <= 0:
            return Text("all 10 fire tokens are on the board")
        return Text("no free space is next to a standing scientist or a fire")
    return Text("nothing on the board can act")


def _frightened(state: GameState, q: int) -> Text:
    if state.board[q] == SCIENTIST_FRIGHTENED_NEW:
        return Text("the scientist on {sq} was frightened this round: it can stand up and "
                    "act from the next round on", sq=N[q])
    if state.ap.remaining < 2:
        return Text("the scientist on {sq} is frightened: standing it up takes 1 AP, and you "
                    "have {n}", sq=N[q], n=state.ap.remaining)
    return Text("the scientist on {sq} is frightened: stand it up first (1 AP)", sq=N[q])


def _scientist_ap(state: GameState, kind: str, sqs: list[int]) -> Text | None:
    b = state.board
    if kind == "stand":
        q = sqs[0]
        if b[q] == SCIENTIST_FRIGHTENED_NEW:
            return Text("the scientist on {sq} was frightened this round: it can stand up "
                        "from the next round on", sq=N[q])
        if b[q] != SCIENTIST_FRIGHTENED:
            return Text("there is no frightened scientist on {sq}", sq=N[q])
        return None
    if kind in ("sleep", "capture", "shoot") and len(sqs) == 1:  # 'capture C1', no scientist
        q = sqs[0]
        if kind == "shoot":
            return (Text("the mother is not on {sq}", sq=N[q]) if b[q] != MOTHER else
                    Text("no standing scientist with its aggressive action left has a clear "
                         "line to the mother"))
        if kind == "sleep" and b[q] != BABY:
            return Text("there is no standing baby on {sq}", sq=N[q])
        if kind == "capture" and b[q] not in SLEEPING_BABY_CODES:
            return Text("there is no sleeping baby on {sq}", sq=N[q])
        return Text("no standing scientist next to {sq} still has its aggressive action this "
                    "round", sq=N[q])
    if kind in ("sleep", "capture", "shoot"):
        by, q = sqs
        if b[by] == SCIENTIST_USED:
            return Text("the scientist on {by} already made its aggressive action this round "
                        "(one per scientist per round)", by=N[by])
        if b[by] in (SCIENTIST_FRIGHTENED, SCIENTIST_FRIGHTENED_NEW):
            return _frightened(state, by)
        if b[by] not in ACTIVE_SCIENTIST_CODES:
            return Text("there is no scientist on {sq}", sq=N[by])
        if kind == "shoot":
            if b[q] != MOTHER:
                return Text("the mother is not on {sq}", sq=N[q])
            if line(by, q) is None:
                return Text("a shot goes along a row or a column")
            p = shot_blocker(b, by, q)  # R8.5
            if p is not None:
                return Text("{what} on {sq} blocks the shot", what=_what(state, p), sq=N[p])
            return None
        if kind == "sleep" and b[q] != BABY:
            return (Text("the baby on {sq} is already asleep", sq=N[q])
                    if b[q] in SLEEPING_BABY_CODES
                    else Text("there is no standing baby on {sq}", sq=N[q]))
        if kind == "capture" and b[q] not in SLEEPING_BABY_CODES:
            return (Text("the baby on {sq} is awake: only a sleeping baby can be captured",
                         sq=N[q])
                    if b[q] == BABY else Text("there is no sleeping baby on {sq}", sq=N[q]))
        if q not in NEIGHBOURS[by]:
            return Text("{sq} is not next to the scientist on {by}", sq=N[q], by=N[by])
        return None
    if kind == "move":
        a, t = sqs
        if b[a] in (SCIENTIST_FRIGHTENED, SCIENTIST_FRIGHTENED_NEW):
            return _frightened(state, a)
        if b[a] not in ACTIVE_SCIENTIST_CODES:
            return Text("there is no scientist on {sq}", sq=N[a])
        off = _off_board(state, t)
        if off:
            return off
        if b[t] == FIRE:
            return Text("a scientist may walk through fire but not stop on it")
        if b[t] != EMPTY:
            return _holds(state, t)
        steps = walk_distance(b, a, t)  # R8.1
        if steps is None:
            return Text("no walk reaches {sq}: rocks, figurines or exits wall it off", sq=N[t])
        if steps > state.ap.remaining:
            return Text("{sq} is out of reach with {n} AP (one per step, around rocks and "
                        "figurines)", sq=N[t], n=state.ap.remaining)
        return None
    if kind in ("kill", "wake", "out"):
        return Text("that is a raptor's action")
    return None


def _effect(state: GameState, kind: str, norm: str, sqs: list[int]) -> Text | None:
    """Reasons inside a card effect (R9, R10): the target of a unit, or ``end`` refused
    because the first unit is a must (R5.4)."""
    b = state.board
    if kind == "end":
        eff = state.effect
        least = card(eff.side, eff.card).least
        if eff.done >= least:  # R5.4: the optional rest may be skipped
            return None
        if least > 1:
            return Text("all {least} units of this card must be used as far as the position "
                        "allows ({done} done so far)", least=least, done=eff.done)
        return Text("the card's first unit must be used when the position allows it; 'end' "
                    "can stop the optional ones after it")
    q = sqs[0] if sqs else None
    if q is not None:
        off = _off_board(state, q)
        if off:
            return off
    if kind == "fear" and q is not None and b[q] not in ACTIVE_SCIENTIST_CODES:
        return Text("there is no standing scientist on {sq} to frighten", sq=N[q])
    if kind == "gas" and q is not None:
        if b[q] != BABY:
            return Text("there is no standing baby on {sq}", sq=N[q])
        if TILE_OF[q] not in gas_tiles(b):  # R10.1
            return Text("{sq} is out of the gas's range: the baby must be on a tile with an "
                        "active scientist or on a tile next to one", sq=N[q])
        return None
    if kind == "fire" and q is not None:
        if b[q] != EMPTY:
            return _holds(state, q)
        if q not in fire_spots(b):  # R10.5
            return Text("{sq} is not next to a standing scientist or a fire", sq=N[q])
        return None
    if kind == "wake" and q is not None and b[q] not in SLEEPING_BABY_CODES:
        return Text("there is no sleeping baby on {sq}", sq=N[q])
    if kind == "heal" and state.sleep_tokens == 0:
        return Text("the mother has no sleep token to remove")
    if kind == "move" and len(sqs) == 2:
        return _call_or_jeep(state, sqs)
    if kind == "place" and q is not None and card(state.effect.side,
                                                  state.effect.card).unit is Unit.REINFORCE:
        if norm[0] != "r":
            return Text("reinforcements are written R@SQ, e.g. 'R@{sq}'", sq=N[q])
        if q not in LONG_EDGE:
            return Text("reinforcements go on free spaces of the long edges (rows 1 and 6, "
                        "C-K)")
        if b[q] != EMPTY:
            return _holds(state, q)
    return None


def _place(state: GameState, side: Side, norm: str, sqs: list[int]) -> Text | None:
    """Setup placements (R4.1, R4.2) and the mother's return (R9.2)."""
    q = sqs[0]
    b = state.board
    expected = {Phase.SETUP_MOTHER: "m", Phase.SETUP_BABIES: "b", Phase.SETUP_SCIENTISTS: "s",
                Phase.MOTHER_RETURN: "m"}.get(state.phase)
    if expected is not None and norm[0] != expected:
        return phase_hint(state, side)
    off = _off_board(state, q)
    if off:
        return off
    if b[q] != EMPTY:
        return _holds(state, q)
    piece, tile = norm[0], TILE_OF[q]
    ph = state.phase
    if ph is Phase.SETUP_MOTHER and piece == "m" and tile not in CENTRAL_TILES:
        return Text("the mother starts on T2 or T5, the middle square tiles (columns "
                    "{columns})", columns=CENTRAL_COLUMNS)
    if ph is Phase.SETUP_BABIES and piece == "b":
        if tile not in SQUARE_TILES:
            return Text("babies start on the square tiles (columns C-K)")
        if tile not in baby_setup_tiles(b):  # R4.1: the mother's tile or one with its baby
            if MOTHER in (b[x] for x in TILE_SQUARES[tile]):
                return Text("{tile} is the mother's tile: the babies go on the five others",
                            tile=TILE_NAMES[tile])
            return Text("{tile} has its baby already: one per tile", tile=TILE_NAMES[tile])
    if ph is Phase.SETUP_SCIENTISTS and piece == "s":
        if tile not in L_TILES:
            return Text("scientists start on the L-tiles (columns B and L)")
        if tile not in scientist_setup_tiles(b):  # R4.2
            return Text("{tile} has its scientist already: one per L-tile",
                        tile=TILE_NAMES[tile])
    return None


def _call_or_jeep(state: GameState, sqs: list[int]) -> Text | None:
    """A Mother's Call (R9.1, R9.4) or a jeep move (R10.3) that is not possible."""
    b = state.board
    a, t = sqs
    if state.effect.side is Side.RAPTOR:
        if b[a] in SLEEPING_BABY_CODES:
            return Text("the baby on {sq} is asleep: only an active baby answers the call",
                        sq=N[a])
        if b[a] != BABY:
            return Text("there is no active baby on {sq}", sq=N[a])
        m = state.mother
        if m is None:
            return Text("{sq} is not on the mother's tile", sq=N[t])
        if TILE_OF[t] != TILE_OF[m]:
            return Text("{sq} is not on the mother's tile ({tile})", sq=N[t],
                        tile=TILE_NAMES[TILE_OF[m]])
        if b[t] != EMPTY:
            return _holds(state, t)
        if a in state.effect.called or t in state.effect.called:
            return Text("each call moves a different baby")
        if not call_reaches(b, a, t):  # R9.1
            return Text("no path of free, fire-free spaces leads the baby from {a} to {to}",
                        a=N[a], to=N[t])
        return None
    if b[a] not in ACTIVE_SCIENTIST_CODES:
        return Text("there is no standing scientist on {sq} to drive", sq=N[a])
    return _straight_run(state, a, t, JEEP_PASSES, Text("the jeep"),
                         Text("a jeep drives in a straight line along a row or a column"))


def _same_square(kind: str, sqs: list[int]) -> Text | None:
    if kind == "move" and len(sqs) == 2 and sqs[0] == sqs[1]:
        return Text("{sq} to {sq} is no move: name the square it goes to", sq=N[sqs[0]])
    return None


def why_not(state: GameState, side: Side, norm: str, legal_forms: set[str]) -> Text | None:
    """One reason why the normalised entry ``norm`` (as :mod:`engine.notation` writes it:
    ``"kill f3"``, ``"g2-g5"``, ``"c2 shoot g5"``) is not among ``side``'s legal actions now,
    or None when no simple reason applies. ``legal_forms`` holds the forms
    (:func:`entry_form`) of the legal actions: an entry of another form gets the phase's hint.

    Reads the public position and ``side``'s own hand only (R11)."""
    kind = entry_form(norm)
    sqs = [square(t) for t in _SQUARE.findall(norm)]
    if kind == "play" and state.phase is Phase.PICK:
        number = norm.split()[1]
        hand = " ".join(str(c) for c in state.hands[side])
        if len(number) > 1 or number == "0":
            return Text("cards are numbered 1 to 9; your hand: {hand}", hand=hand)
        if int(number) in state.hands[side] and "play" in legal_forms:
            return None
        return Text("you don't hold card {card}; your hand: {hand}", card=int(number),
                    hand=hand)
    same = _same_square(kind, sqs)
    if same and kind in legal_forms:
        return same
    if kind == "square":
        return Text("no decision of yours now targets {sq}; type the action in full",
                    sq=N[sqs[0]])
    eff = state.effect
    recovery = (state.phase is Phase.EFFECT and eff is not None and eff.side is Side.RAPTOR
                and card(eff.side, eff.card).unit is Unit.RECOVER
                and kind in ("heal", "wake"))  # R9.5: heal or wake
    if state.phase is Phase.EFFECT and (kind in legal_forms or kind == "end" or recovery):
        return _effect(state, kind, norm, sqs)
    if kind == "end":
        return None if "end" in legal_forms else phase_hint(state, side)
    if kind == "place" and kind in legal_forms:
        return _place(state, side, norm, sqs)
    if kind not in legal_forms:
        if state.phase is Phase.AP and state.ap is not None and kind in _AP_WORDS + ("move",):
            pass  # an AP action that is not possible now: say why below
        elif kind == "heal":
            return Text("'heal' belongs to the Recovery cards' effect")
        else:
            return phase_hint(state, side)
    if state.phase is Phase.AP and state.ap is not None:
        if side is Side.RAPTOR:
            return _raptor_ap(state, kind, sqs)
        return _scientist_ap(state, kind, sqs)
    return None
