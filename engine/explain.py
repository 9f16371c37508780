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
from .predicates import (
    JEEP_PASSES,
    MOTHER_PASSES,
    baby_setup_tiles,
    call_reaches,
    fire_spots,
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
_ON = {ROCK: "a rock", FIRE: "a fire", EXIT: "an exit", MOTHER: "the mother",
       BABY: "a baby", BABY_ASLEEP: "a sleeping baby", BABY_ASLEEP_NEW: "a sleeping baby",
       SCIENTIST_ACTIVE: "a scientist", SCIENTIST_USED: "a scientist",
       SCIENTIST_FRIGHTENED: "a frightened scientist",
       SCIENTIST_FRIGHTENED_NEW: "a frightened scientist"}
_SQUARE = re.compile(r"[a-m][1-6]")
_AP_WORDS = ("kill", "wake", "out", "stand", "sleep", "capture", "shoot")


def _what(state: GameState, q: int) -> str:
    return _ON.get(state.board[q], "nothing")


def _off_board(state: GameState, q: int) -> str | None:
    """The reason for a square outside the board (R2.2), or None."""
    if state.board[q] == VOID:
        return f"{N[q]} is not a space of the board (columns A and M hold only the exits)"
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


def phase_hint(state: GameState, side: Side) -> str:
    """What ``side`` must decide now, in a few words (R4, R5)."""
    ph = state.phase
    if ph is Phase.PICK:
        hand = " ".join(str(c) for c in state.hands[side])
        return f"this is the card pick: play a card from your hand ({hand}) with 'play N'"
    if ph is Phase.EFFECT and state.effect is not None:
        return f"first resolve the effect of your card {state.effect.card}"
    if ph is Phase.AP and state.ap is not None:
        return f"you are spending action points ({state.ap.remaining} left); 'end' ends the turn"
    if ph is Phase.MOTHER_RETURN:
        return "first put the mother back on a free space with 'M@SQ'"
    if ph is Phase.SETUP_MOTHER:
        return "this is the setup: place the mother with 'M@SQ'"
    if ph is Phase.SETUP_BABIES:
        return "this is the setup: place a baby with 'B@SQ'"
    if ph is Phase.SETUP_SCIENTISTS:
        return "this is the setup: place a scientist with 'S@SQ'"
    return "the game is over"


def _near_mother(state: GameState, q: int) -> str | None:
    m = state.mother
    if m is None:
        return "the mother is off the board"
    if q not in NEIGHBOURS[m]:
        return f"the mother (on {N[m]}) is not next to {N[q]}"
    return None


def _straight_run(state: GameState, a: int, t: int, passes: frozenset[int], who: str,
                  not_in_line: str) -> str | None:
    """Why ``who`` (the mother, R7.2, or a jeep, R10.3) cannot run from ``a`` to ``t``: not
    in line, or the square that stops the run (:func:`engine.predicates.run_stop`); None if
    it can."""
    if line(a, t) is None:
        return not_in_line
    q = run_stop(state.board, a, t, passes)
    if q is None:
        return None
    if state.board[q] == VOID:
        return f"{who} stops at the board's edge, before {N[q]}"
    return f"{who} stops before {_what(state, q)} on {N[q]}"


def _raptor_ap(state: GameState, kind: str, sqs: list[int]) -> str | None:
    b = state.board
    if kind in ("kill", "wake", "out"):
        q = sqs[0]
        if kind == "kill" and b[q] not in SCIENTIST_CODES:  # R7.3: active or frightened
            return f"there is no scientist on {N[q]}"
        if kind == "wake":
            if b[q] == BABY_ASLEEP_NEW:
                return (f"the baby on {N[q]} was put to sleep this round: it can be woken from "
                        "the next round on")
            if b[q] not in SLEEPING_BABY_CODES:
                return f"there is no sleeping baby on {N[q]}"
        if kind == "out" and b[q] != FIRE:
            return f"there is no fire on {N[q]}"
        return _near_mother(state, q)
    if kind == "move":
        a, t = sqs
        if b[a] == MOTHER:
            stop = _straight_run(state, a, t, MOTHER_PASSES, "the mother",
                                 "the mother runs along a row or a column")
            if stop:
                return stop
            if _mother_cost(state) > state.ap.remaining:
                return f"her {_mother_cost_text(state)}; you have {state.ap.remaining}"
            return None
        if b[a] == BABY_ASLEEP_NEW:
            return (f"the baby on {N[a]} was put to sleep this round: it cannot move, and the "
                    "mother can wake it from the next round on")
        if b[a] in SLEEPING_BABY_CODES:
            return (f"the baby on {N[a]} is asleep: the mother, from a space next to it, or a "
                    "Recovery card must wake it first")
        if b[a] == BABY:
            off = _off_board(state, t)
            if off:
                return off
            if t not in NEIGHBOURS[a]:
                return "a baby moves one space at a time"
            if b[t] == FIRE:
                return "raptors never enter fire"
            if b[t] not in (EMPTY, EXIT):
                return f"{N[t]} holds {_what(state, t)}"
            return None
        return f"there is no raptor figurine on {N[a]}"
    if kind in ("stand", "sleep", "capture", "shoot"):
        return "that is a scientist's action"
    return None


def _mother_cost(state: GameState) -> int:
    """AP of the mother's next move in the AP phase of ``state`` (R7.2)."""
    return mother_move_cost(state.sleep_tokens, state.ap.mother_moved)


def _mother_cost_text(state: GameState) -> str:
    """``"first move this round costs 5 AP (1 + her 4 sleep tokens)"``, or ``"next move
    costs 1 AP"`` once she has moved (R7.2)."""
    if state.ap.mother_moved:
        return "next move costs 1 AP"
    return (f"first move this round costs {_mother_cost(state)} AP (1 + her "
            f"{state.sleep_tokens} sleep tokens)")


def idle_reason(state: GameState, side: Side) -> str:
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
                out.append(f"the mother's {_mother_cost_text(state)}")
            else:
                out.append("the mother has no free space next to her to run to")
        awake = [q for q in range(len(b)) if b[q] == BABY]
        asleep = [q for q in range(len(b)) if b[q] in SLEEPING_BABY_CODES]
        if awake:
            out.append("no awake baby has a free space to step to")
        elif asleep:
            out.append("every baby on the board is asleep")
        if m is not None:
            out.extend(_raptor_ap(state, "wake", [q]) or "" for q in NEIGHBOURS[m]
                       if b[q] == BABY_ASLEEP_NEW)
    else:
        new = [N[q] for q in range(len(b)) if b[q] == SCIENTIST_FRIGHTENED_NEW]
        if len(new) > 1:
            out.append(f"the scientists on {', '.join(new[:-1])} and {new[-1]} were frightened "
                       "this round: they can stand up and act from the next round on")
        for q in range(len(b)):
            if b[q] == SCIENTIST_FRIGHTENED_NEW and len(new) == 1 or (
                    b[q] == SCIENTIST_FRIGHTENED):
                out.append(_frightened(state, q))
            elif b[q] in ACTIVE_SCIENTIST_CODES:
                out.append(f"the scientist on {N[q]} has no free space to walk to")
    return "; ".join(x for x in out if x) or "nothing on the board can act"


def _frightened(state: GameState, q: int) -> str:
    if state.board[q] == SCIENTIST_FRIGHTENED_NEW:
        return (f"the scientist on {N[q]} was frightened this round: it can stand up and act "
                "from the next round on")
    if state.ap.remaining < 2:
        return (f"the scientist on {N[q]} is frightened: standing it up takes 1 AP, and you "
                f"have {state.ap.remaining}")
    return f"the scientist on {N[q]} is frightened: stand it up first (1 AP)"


def _scientist_ap(state: GameState, kind: str, sqs: list[int]) -> str | None:
    b = state.board
    if kind == "stand":
        q = sqs[0]
        if b[q] == SCIENTIST_FRIGHTENED_NEW:
            return (f"the scientist on {N[q]} was frightened this round: it can stand up from "
                    "the next round on")
        if b[q] != SCIENTIST_FRIGHTENED:
            return f"there is no frightened scientist on {N[q]}"
        return None
    if kind in ("sleep", "capture", "shoot") and len(sqs) == 1:  # 'capture C1', no scientist
        q = sqs[0]
        if kind == "shoot":
            return (f"the mother is not on {N[q]}" if b[q] != MOTHER else "no standing scientist "
                    "with its aggressive action left has a clear line to the mother")
        if kind == "sleep" and b[q] != BABY:
            return f"there is no standing baby on {N[q]}"
        if kind == "capture" and b[q] not in SLEEPING_BABY_CODES:
            return f"there is no sleeping baby on {N[q]}"
        return (f"no standing scientist next to {N[q]} still has its aggressive action this "
                "round")
    if kind in ("sleep", "capture", "shoot"):
        by, q = sqs
        if b[by] == SCIENTIST_USED:
            return (f"the scientist on {N[by]} already made its aggressive action this round "
                    "(one per scientist per round)")
        if b[by] in (SCIENTIST_FRIGHTENED, SCIENTIST_FRIGHTENED_NEW):
            return _frightened(state, by)
        if b[by] not in ACTIVE_SCIENTIST_CODES:
            return f"there is no scientist on {N[by]}"
        if kind == "shoot":
            if b[q] != MOTHER:
                return f"the mother is not on {N[q]}"
            if line(by, q) is None:
                return "a shot goes along a row or a column"
            p = shot_blocker(b, by, q)  # R8.5
            if p is not None:
                return f"{_what(state, p)} on {N[p]} blocks the shot"
            return None
        if kind == "sleep" and b[q] != BABY:
            return (f"the baby on {N[q]} is already asleep" if b[q] in SLEEPING_BABY_CODES
                    else f"there is no standing baby on {N[q]}")
        if kind == "capture" and b[q] not in SLEEPING_BABY_CODES:
            return (f"the baby on {N[q]} is awake: only a sleeping baby can be captured"
                    if b[q] == BABY else f"there is no sleeping baby on {N[q]}")
        if q not in NEIGHBOURS[by]:
            return f"{N[q]} is not next to the scientist on {N[by]}"
        return None
    if kind == "move":
        a, t = sqs
        if b[a] in (SCIENTIST_FRIGHTENED, SCIENTIST_FRIGHTENED_NEW):
            return _frightened(state, a)
        if b[a] not in ACTIVE_SCIENTIST_CODES:
            return f"there is no scientist on {N[a]}"
        off = _off_board(state, t)
        if off:
            return off
        if b[t] == FIRE:
            return "a scientist may walk through fire but not stop on it"
        if b[t] != EMPTY:
            return f"{N[t]} holds {_what(state, t)}"
        steps = walk_distance(b, a, t)  # R8.1
        if steps is None:
            return f"no walk reaches {N[t]}: rocks, figurines or exits wall it off"
        if steps > state.ap.remaining:
            return (f"{N[t]} is out of reach with {state.ap.remaining} AP (one per step, "
                    "around rocks and figurines)")
        return None
    if kind in ("kill", "wake", "out"):
        return "that is a raptor's action"
    return None


def _effect(state: GameState, kind: str, norm: str, sqs: list[int]) -> str | None:
    """Reasons inside a card effect (R9, R10): the target of a unit, or ``end`` refused
    because the first unit is a must (R5.4)."""
    b = state.board
    if kind == "end":
        eff = state.effect
        least = card(eff.side, eff.card).least
        if eff.done >= least:  # R5.4: the optional rest may be skipped
            return None
        if least > 1:
            return (f"all {least} units of this card must be used as far as the position "
                    f"allows ({eff.done} done so far)")
        return ("the card's first unit must be used when the position allows it; 'end' can stop "
                "the optional ones after it")
    q = sqs[0] if sqs else None
    if q is not None:
        off = _off_board(state, q)
        if off:
            return off
    if kind == "fear" and q is not None and b[q] not in ACTIVE_SCIENTIST_CODES:
        return f"there is no standing scientist on {N[q]} to frighten"
    if kind == "gas" and q is not None:
        if b[q] != BABY:
            return f"there is no standing baby on {N[q]}"
        if TILE_OF[q] not in gas_tiles(b):  # R10.1
            return (f"{N[q]} is out of the gas's range: the baby must be on a tile with an "
                    "active scientist or on a tile next to one")
        return None
    if kind == "fire" and q is not None:
        if b[q] != EMPTY:
            return f"{N[q]} holds {_what(state, q)}"
        if q not in fire_spots(b):  # R10.5
            return f"{N[q]} is not next to a standing scientist or a fire"
        return None
    if kind == "wake" and q is not None and b[q] not in SLEEPING_BABY_CODES:
        return f"there is no sleeping baby on {N[q]}"
    if kind == "heal" and state.sleep_tokens == 0:
        return "the mother has no sleep token to remove"
    if kind == "move" and len(sqs) == 2:
        return _call_or_jeep(state, sqs)
    if kind == "place" and q is not None and card(state.effect.side,
                                                  state.effect.card).unit is Unit.REINFORCE:
        if norm[0] != "r":
            return f"reinforcements are written R@SQ, e.g. 'R@{N[q]}'"
        if q not in LONG_EDGE:
            return "reinforcements go on free spaces of the long edges (rows 1 and 6, C-K)"
        if b[q] != EMPTY:
            return f"{N[q]} holds {_what(state, q)}"
    return None


def _place(state: GameState, side: Side, norm: str, sqs: list[int]) -> str | None:
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
        return f"{N[q]} holds {_what(state, q)}"
    piece, tile = norm[0], TILE_OF[q]
    ph = state.phase
    if ph is Phase.SETUP_MOTHER and piece == "m" and tile not in CENTRAL_TILES:
        return (f"the mother starts on T2 or T5, the middle square tiles (columns "
                f"{CENTRAL_COLUMNS})")
    if ph is Phase.SETUP_BABIES and piece == "b":
        if tile not in SQUARE_TILES:
            return "babies start on the square tiles (columns C-K)"
        if tile not in baby_setup_tiles(b):  # R4.1: the mother's tile or one with its baby
            if MOTHER in (b[x] for x in TILE_SQUARES[tile]):
                return (f"{TILE_NAMES[tile]} is the mother's tile: the babies go on the five "
                        "others")
            return f"{TILE_NAMES[tile]} has its baby already: one per tile"
    if ph is Phase.SETUP_SCIENTISTS and piece == "s":
        if tile not in L_TILES:
            return "scientists start on the L-tiles (columns B and L)"
        if tile not in scientist_setup_tiles(b):  # R4.2
            return f"{TILE_NAMES[tile]} has its scientist already: one per L-tile"
    return None


def _call_or_jeep(state: GameState, sqs: list[int]) -> str | None:
    """A Mother's Call (R9.1, R9.4) or a jeep move (R10.3) that is not possible."""
    b = state.board
    a, t = sqs
    if state.effect.side is Side.RAPTOR:
        if b[a] in SLEEPING_BABY_CODES:
            return f"the baby on {N[a]} is asleep: only an active baby answers the call"
        if b[a] != BABY:
            return f"there is no active baby on {N[a]}"
        m = state.mother
        if m is None or TILE_OF[t] != TILE_OF[m]:
            return (f"{N[t]} is not on the mother's tile" + (
                f" ({TILE_NAMES[TILE_OF[m]]})" if m is not None else ""))
        if b[t] != EMPTY:
            return f"{N[t]} holds {_what(state, t)}"
        if a in state.effect.called or t in state.effect.called:
            return "each call moves a different baby"
        if not call_reaches(b, a, t):  # R9.1
            return f"no path of free, fire-free spaces leads the baby from {N[a]} to {N[t]}"
        return None
    if b[a] not in ACTIVE_SCIENTIST_CODES:
        return f"there is no standing scientist on {N[a]} to drive"
    return _straight_run(state, a, t, JEEP_PASSES, "the jeep",
                         "a jeep drives in a straight line along a row or a column")


def _same_square(kind: str, sqs: list[int]) -> str | None:
    if kind == "move" and len(sqs) == 2 and sqs[0] == sqs[1]:
        return f"{N[sqs[0]]} to {N[sqs[0]]} is no move: name the square it goes to"
    return None


def why_not(state: GameState, side: Side, norm: str, legal_forms: set[str]) -> str | None:
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
            return f"cards are numbered 1 to 9; your hand: {hand}"
        if int(number) in state.hands[side] and "play" in legal_forms:
            return None
        return f"you don't hold card {int(number)}; your hand: {hand}"
    same = _same_square(kind, sqs)
    if same and kind in legal_forms:
        return same
    if kind == "square":
        return f"no decision of yours now targets {N[sqs[0]]}; type the action in full"
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
            return "'heal' belongs to the Recovery cards' effect"
        else:
            return phase_hint(state, side)
    if state.phase is Phase.AP and state.ap is not None:
        if side is Side.RAPTOR:
            return _raptor_ap(state, kind, sqs)
        return _scientist_ap(state, kind, sqs)
    return None
