"""The rules: new games, who acts, legal actions, applying an action, replay.

One source of legality: :func:`legal_actions` enumerates; :func:`apply` accepts exactly
those. Every helper cites the rule of ``docs/RULES.md`` (the rules of record) it implements.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from . import bits
from .actions import (
    Action,
    CallBaby,
    Capture,
    End,
    Frighten,
    Gas,
    Heal,
    Jeep,
    Kill,
    MoveBaby,
    MoveMother,
    MoveScientist,
    Pick,
    PlaceBaby,
    PlaceFire,
    PlaceMother,
    PlaceScientist,
    PutOut,
    Reinforce,
    Shoot,
    SleepBaby,
    Stand,
    Wake,
    format_action,
)
from .bits import (
    NEIGHBOUR_MASK,
    SORTED_NEIGHBOURS,
    by_square,
    byte_table,
    distances,
    from_row,
    rings,
    squares_with,
)
from .cards import CARD_BY_KEY, CARD_VALUES, Unit
from .errors import IllegalActionError, WrongTurnError
from .explain import effect_idle_reason, idle_reason
from .geometry import (
    BOARD_SQUARES,
    CELLS,
    CENTRAL_TILES,
    LONG_EDGE,
    NEIGHBOURS,
    TILE_OF,
    TILE_SQUARES,
    random_layout,
    standard_layout,
)
from .predicates import (
    WALK_PASSES,
    ap_total,
    baby_setup_tiles,
    call_path,
    clear_shot,
    fire_group,
    fire_spots,
    gas_targets,
    jeep_clears,
    jeep_stops,
    mother_move_cost,
    mother_runs,
    scientist_setup_tiles,
    victory,
)
from .state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    EMPTY,
    EXIT,
    FIRE,
    FIRE_TOKENS,
    MOTHER,
    SCIENTIST_ACTIVE,
    SCIENTIST_CODES,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
    SCIENTISTS,
    SETUP_PHASES,
    APState,
    EffectState,
    Event,
    GameState,
    Options,
    Phase,
    Piece,
    Side,
    as_side,
    blank_board,
)

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
# Event pieces as plain strings (an Event holds the values of the vocabulary, R1)
_MOTHER, _BABY, _SCIENTIST = Piece.MOTHER.value, Piece.BABY.value, Piece.SCIENTIST.value
# Phase and Unit members as module constants: ``Phase.X`` is a slower class-attribute lookup.
_PH_AP = Phase.AP
_PH_EFFECT = Phase.EFFECT
_PH_MOTHER_RETURN = Phase.MOTHER_RETURN
_PH_OVER = Phase.OVER
_PH_PICK = Phase.PICK
_U_CALL, _U_FEAR, _U_RECOVER, _U_GAS = Unit.CALL, Unit.FEAR, Unit.RECOVER, Unit.GAS
_U_REINFORCE, _U_JEEP, _U_FIRE = Unit.REINFORCE, Unit.JEEP, Unit.FIRE
_PH_SETUP_BABIES = Phase.SETUP_BABIES
_PH_SETUP_MOTHER = Phase.SETUP_MOTHER
_PH_SETUP_SCIENTISTS = Phase.SETUP_SCIENTISTS


# ----------------------------------------------------------------------------- creation
def new_game(seed: int, *, environment: str = "jungle", layout: str = "random",
             setup: str = "manual") -> GameState:
    """A new game.

    Args:
        seed: any int; it fixes the layout, every shuffle and a quick setup.
        environment: ``"jungle"`` or ``"savannah"`` (R1.3, R2.7).
        layout: ``"random"`` (R2.6, from the seed) or ``"standard"``.
        setup: ``"manual"`` (the players place, R4.1-R4.2) or ``"quick"`` (seeded random
            legal placement, R4.4); a quick game starts at the round-1 card pick.

    Returns:
        The state at the first decision, decks shuffled and 3 cards dealt (R4.3).

    Raises:
        OptionError: an unknown option value (a ValueError too).
    """
    options = Options(environment, layout, setup).check()
    seed = int(seed)
    lay = random_layout(seed, environment) if layout == "random" else standard_layout(environment)
    s = GameState.__new__(GameState)
    s.seed = seed
    s.options = options
    s.layout = lay
    s.board = blank_board(lay)
    s.phase = _PH_SETUP_MOTHER
    s.round = 0
    s.sleep_tokens = 0
    s.mother_off = False
    s.escaped = s.captured = s.killed = 0
    s.reserve = SCIENTISTS - 4
    s.hands, s.decks, s.discards, s.picks = {}, {}, {}, {}
    s.revealed = None
    s.observation = s.observe_next = False
    s.shuffles = 0
    s.effect = s.ap = s.winner = s.reason = None
    s.events = s.round_events = s.last_round_events = ()
    s._legal = {}
    for side in (RAPTOR, SCIENTIST):  # R4.3
        deck = _shuffled(s, CARD_VALUES)
        s.hands[side] = tuple(sorted(deck[:3]))
        s.decks[side] = tuple(deck[3:])
        s.discards[side] = ()
        s.picks[side] = None
    if setup == "quick":  # R4.4
        rng = random.Random(f"raptor:{seed}:quick")
        while s.phase in SETUP_PHASES:
            side = next(iter(to_act(s)))
            s = apply(s, side, rng.choice(legal_actions(s, side)))
    return s


def _shuffled(s: GameState, cards: Iterable[int]) -> list[int]:
    """A seeded shuffle: the n-th shuffle of a game uses its own stream (R4.3, R5.6)."""
    out = list(cards)
    random.Random(f"raptor:{s.seed}:shuffle:{s.shuffles}").shuffle(out)
    s.shuffles += 1
    return out


def replay(seed: int, options: Options | Mapping[str, Any] | None,
           actions: Iterable[tuple[Side | str, Action]]) -> GameState:
    """Rebuild the state reached from a new game by ``actions``.

    Args:
        seed: the game's seed.
        options: an :class:`Options` or a mapping with ``environment``, ``layout``, ``setup``.
        actions: ``(side, action)`` pairs in the order they were applied.

    Raises:
        OptionError: unknown options or sides.
        RaptorError: an action in the log is not legal at its point (a corrupt log).
    """
    if options is None:
        opts: dict[str, Any] = {}
    elif isinstance(options, Options):
        opts = {"environment": options.environment, "layout": options.layout,
                "setup": options.setup}
    else:
        opts = dict(options)
    s = new_game(seed, **opts)
    for side, action in actions:
        s = apply(s, as_side(side), action)
    return s


# ----------------------------------------------------------------------------- who acts
def to_act(state: GameState) -> frozenset[Side]:
    """The sides that must decide now: both during a plain card pick, only the scientist
    first under observation (R5.2), none once the game is over."""
    ph = state.phase
    if ph is _PH_AP:
        return _ONLY[state.ap.side]
    if ph is _PH_PICK:
        if state.picks[SCIENTIST] is None:
            if state.observation or state.picks[RAPTOR] is not None:
                return _ONLY[SCIENTIST]
            return _BOTH
        return _ONLY[RAPTOR] if state.picks[RAPTOR] is None else _NONE
    if ph is _PH_EFFECT:
        return _ONLY[state.effect.side]
    if ph in (_PH_SETUP_MOTHER, _PH_SETUP_BABIES, _PH_MOTHER_RETURN):
        return _ONLY[RAPTOR]
    if ph is _PH_SETUP_SCIENTISTS:
        return _ONLY[SCIENTIST]
    return _NONE


_ONLY = {RAPTOR: frozenset((RAPTOR,)), SCIENTIST: frozenset((SCIENTIST,))}
_BOTH = frozenset((RAPTOR, SCIENTIST))
_NONE: frozenset[Side] = frozenset()


# ----------------------------------------------------------------------------- legality
def legal_actions(state: GameState, side: Side) -> list[Action]:
    """Every legal decision for ``side`` now, in a stable order; empty if it has none.

    ``side`` is a :class:`Side` or its value (``"raptor"``, ``"scientist"``). The returned
    list is shared (cached on the state): do not modify it.

    Raises:
        OptionError: ``side`` is neither.
    """
    if side.__class__ is not Side:
        side = as_side(side)
    cached = state._legal.get(side)
    if cached is not None:
        return cached
    if side not in to_act(state):
        out: list[Action] = []
    else:
        out = _generate(state, side)
    state._legal[side] = out
    return out


_PICK = by_square(Pick, 10)
_PLACEMOTHER = by_square(PlaceMother)
_PLACEBABY = by_square(PlaceBaby)
_PLACESCIENTIST = by_square(PlaceScientist)
_FRIGHTEN = by_square(Frighten)
_WAKE = by_square(Wake)
_GAS = by_square(Gas)
_REINFORCE = by_square(Reinforce)
_PLACEFIRE = by_square(PlaceFire)
_KILL = by_square(Kill)
_PUTOUT = by_square(PutOut)
_STAND = by_square(Stand)
_JEEP_FROM: list = [None] * CELLS
_CALLBABY_FROM: list = [None] * CELLS
_MOVEMOTHER_FROM: list = [None] * CELLS
_MOVEBABY_FROM: list = [None] * CELLS
_SLEEPBABY_FROM: list = [None] * CELLS
_CAPTURE_FROM: list = [None] * CELLS
_SHOOT_FROM: list = [None] * CELLS
_END = End()
_HEAL = Heal()


def _generate(s: GameState, side: Side) -> list[Action]:
    ph = s.phase
    b = s.board
    if ph is _PH_PICK:
        return [_PICK[c] for c in s.hands[side]]
    if ph is _PH_AP:
        acts = _raptor_ap(s) if side is RAPTOR else _scientist_ap(s)
        if acts:
            acts.append(_END)
        return acts
    if ph is _PH_EFFECT:
        units = _effect_units(s)
        if units and s.effect.done >= CARD_BY_KEY[(s.effect.side, s.effect.card)].least:
            units.append(_END)
        return units
    if ph is _PH_SETUP_MOTHER:  # R4.1
        return [_PLACEMOTHER[q] for t in CENTRAL_TILES for q in TILE_SQUARES[t] if b[q] == EMPTY]
    if ph is _PH_SETUP_BABIES:  # R4.1
        return [_PLACEBABY[q] for t in baby_setup_tiles(b) for q in TILE_SQUARES[t]
                if b[q] == EMPTY]
    if ph is _PH_SETUP_SCIENTISTS:  # R4.2
        return [_PLACESCIENTIST[q] for t in scientist_setup_tiles(b) for q in TILE_SQUARES[t]
                if b[q] == EMPTY]
    if ph is _PH_MOTHER_RETURN:  # R9.2
        return [_PLACEMOTHER[q] for q in BOARD_SQUARES if b[q] == EMPTY]
    return []


def _effect_units(s: GameState) -> list[Action]:
    """The next unit of the current card effect, every choice of it (R9, R10)."""
    eff = s.effect
    played = CARD_BY_KEY[(eff.side, eff.card)]
    if eff.done >= played.most:
        return []
    b = s.board
    kind = played.unit
    if kind is _U_CALL:
        return _calls(s)
    if kind is _U_FEAR:  # R9.3, R9.6
        return [_FRIGHTEN[q] for q in squares_with(b, _ACTIVE_SCIENTIST_BYTES)]
    if kind is _U_RECOVER:  # R9.5
        out: list[Action] = [_HEAL] if s.sleep_tokens > 0 else []
        out.extend([_WAKE[q] for q in squares_with(b, _SLEEPING_BABY_BYTES)])
        return out
    if kind is _U_GAS:  # R10.1, R10.4
        return [_GAS[q] for q in gas_targets(b)]
    if kind is _U_REINFORCE:  # R10.2
        if s.reserve <= 0:
            return []
        return [_REINFORCE[q] for q in LONG_EDGE if b[q] == EMPTY]
    if kind is _U_JEEP:  # R10.3
        out = []
        for q in squares_with(b, _ACTIVE_SCIENTIST_BYTES):
            row = _JEEP_FROM[q] or from_row(_JEEP_FROM, Jeep, q)
            out.extend(map(row.__getitem__, jeep_stops(b, q)))
        return out
    if kind is _U_FIRE:  # R10.5: next to a fire token or an active scientist
        if b.count(FIRE) >= FIRE_TOKENS:
            return []
        return [_PLACEFIRE[q] for q in fire_spots(b)]
    return []


def _calls(s: GameState) -> list[Action]:
    """Mother's Call: active babies that reach a free space of the mother's tile along free,
    fire-free spaces (exits never on the path), ending elsewhere than they start (R9.1, R9.4)."""
    b = s.board
    m = s.mother
    if m is None:
        return []
    targets = [q for q in TILE_SQUARES[TILE_OF[m]] if b[q] == EMPTY]
    if not targets:
        return []
    cells = bytes(b)
    free = int.from_bytes(cells.translate(_FREE_BYTES), "little")
    # The free region (byte-lane mask) around each target: a baby reaches the target when
    # one of its neighbours is in it.
    regions = []
    for t in targets:
        for region in regions:
            if bits.has(region, t):
                break
        else:
            region = bits.flood(bits.bit(t), free)
        regions.append(region)
    out: list[Action] = []
    called = s.effect.called if s.effect else ()
    q = cells.find(BABY)
    while q >= 0:
        if q not in called:
            around = NEIGHBOUR_MASK[q]
            row = _CALLBABY_FROM[q] or from_row(_CALLBABY_FROM, CallBaby, q)
            for t, region in zip(targets, regions, strict=True):
                if around & region:
                    out.append(row[t])
        q = cells.find(BABY, q + 1)
    return out


def _raptor_ap(s: GameState) -> list[Action]:
    """R7: the mother's moves, kills, wakes and fire put-outs, then baby moves."""
    b = s.board
    ap = s.ap
    out: list[Action] = []
    m = s.mother
    if m is not None:
        if mother_move_cost(s.sleep_tokens, ap.mother_moved) <= ap.remaining:  # R7.2 wound
            row = _MOVEMOTHER_FROM[m] or from_row(_MOVEMOTHER_FROM, MoveMother, m)
            out.extend(map(row.__getitem__, mother_runs(b, m)))
        for n in NEIGHBOURS[m]:
            c = b[n]
            if c in SCIENTIST_CODES:
                out.append(_KILL[n])  # R7.3
            elif c == BABY_ASLEEP:
                out.append(_WAKE[n])  # R7.4 (not BABY_ASLEEP_NEW)
            elif c == FIRE:
                out.append(_PUTOUT[n])  # R7.5
    cells = bytes(b)
    q = cells.find(BABY)
    while q >= 0:  # R7.1
        row = None
        for n in NEIGHBOURS[q]:
            c = b[n]
            if c == EMPTY or c == EXIT:
                if row is None:
                    row = _MOVEBABY_FROM[q] or from_row(_MOVEBABY_FROM, MoveBaby, q)
                out.append(row[n])
        q = cells.find(BABY, q + 1)
    return out


def _scientist_ap(s: GameState) -> list[Action]:
    """R8: per scientist in square order: moves (R8.1), sleep, capture, shoot (R8.3-R8.6),
    or standing up (R8.2)."""
    b = s.board
    budget = s.ap.remaining
    m = s.mother
    out: list[Action] = []
    cells = bytes(b)
    # Board masks with one byte per square (square i is bit 8*i): free spaces, and free or
    # burning ones (R8.1 ruling: scientists pass through fire but never stop on it).
    free = int.from_bytes(cells.translate(_FREE_BYTES), "little")
    passable = int.from_bytes(cells.translate(_WALK_BYTES), "little")
    scientists = int.from_bytes(cells.translate(_SCIENTIST_BYTES), "little")
    babies = int.from_bytes(cells.translate(_BABY_BYTES), "little")
    while scientists:
        low = scientists & -scientists
        scientists ^= low
        q = low.bit_length() >> 3
        c = b[q]
        if c == SCIENTIST_FRIGHTENED:
            out.append(_STAND[q])
            continue
        if budget == 1:  # one step: the free neighbours, in square order
            row = _MS_ROWS[q] or _ms_row(q)
            for n in SORTED_NEIGHBOURS[q]:
                if b[n] == EMPTY:
                    out.append(row[n << 4 | 1] or _ms(row, q, n << 4 | 1))
        else:
            out.extend(_scientist_moves(q, low, budget, free, passable))
        if c == SCIENTIST_ACTIVE:  # R8.6: one aggressive action per round
            if NEIGHBOUR_MASK[q] & babies:
                for n in NEIGHBOURS[q]:
                    cn = b[n]
                    if cn == BABY:
                        row = _SLEEPBABY_FROM[q] or from_row(_SLEEPBABY_FROM, SleepBaby, q)
                        out.append(row[n])
                    elif cn == BABY_ASLEEP or cn == BABY_ASLEEP_NEW:
                        out.append((_CAPTURE_FROM[q] or from_row(_CAPTURE_FROM, Capture, q))[n])
            if m is not None and clear_shot(b, q, m):  # R8.5
                out.append((_SHOOT_FROM[q] or from_row(_SHOOT_FROM, Shoot, q))[m])
    return out


def _scientist_moves(q: int, start: int, budget: int, free: int, passable: int) -> list:
    """The moves of the scientist on ``q`` (byte-lane bit ``start``) with ``budget`` AP:
    breadth-first through free or burning spaces, stopping only on free ones (R8.1 ruling),
    in square order, each at its distance in AP. The list is memoised by the exact reach
    (the same neighbourhood gives the same moves) and shared: callers copy it."""
    reach = distances(start, passable, free, budget)  # byte i: AP to free square i, 0: none
    key = (reach << 7) | q
    moves = _MOVES_SEEN.get(key)
    if moves is not None:
        return moves
    keys = []  # to * 16 + cost: sorting gives square order
    x = reach
    while x:
        t_bit = x & -x
        t = t_bit.bit_length() >> 3
        dt = (x >> (t << 3)) & 15
        x ^= dt << (t << 3)
        keys.append(t << 4 | dt)
    row = _MS_ROWS[q] or _ms_row(q)
    moves = [row[k] or _ms(row, q, k) for k in keys]
    if len(_MOVES_SEEN) >= 20_000:
        _MOVES_SEEN.clear()
    _MOVES_SEEN[key] = moves
    return moves


def _walk(b: list[int], frm: int, to: int, cost: int) -> tuple[int, ...]:
    """One shortest walk of ``cost`` steps from ``frm`` to ``to`` through free or burning
    spaces (R8.1 ruling), both ends included: breadth-first layers from ``frm``, then back
    from ``to`` through the lowest-numbered neighbour of each layer. For the move's event,
    so a picture can draw the way the scientist went rather than a straight line."""
    cells = bytes(b)
    passable = int.from_bytes(cells.translate(_WALK_BYTES), "little")
    layers = [bits.bit(frm)]
    layers += rings(layers[0], passable, cost - 1)
    path = [to]
    q = to
    for layer in reversed(layers[1:]):
        for n in SORTED_NEIGHBOURS[q]:
            if bits.has(layer, n):
                q = n
                break
        path.append(q)
    path.append(frm)
    return tuple(reversed(path))


def _ms_row(q: int) -> list:
    """The shared moves of a scientist leaving ``q``, indexed by ``to * 16 + cost`` (R8.1:
    cost 1 to 8 AP, R5.5); each built on first use by :func:`_ms`."""
    row = _MS_ROWS[q] = [None] * (CELLS * 16)
    return row


def _ms(row: list, q: int, key: int) -> MoveScientist:
    a = row[key] = MoveScientist(q, key >> 4, key & 15)
    return a


# Shared MoveScientist actions: ``_MS_ROWS[frm][to * 16 + cost]`` (see _ms_row).
_MS_ROWS: list = [None] * CELLS
# Recent move lists by (reach, square): the same neighbourhood gives the same moves.
_MOVES_SEEN: dict[int, list] = {}
_FREE_BYTES = byte_table(EMPTY)
_WALK_BYTES = byte_table(*WALK_PASSES)  # R8.1 ruling: free or burning
_SCIENTIST_BYTES = byte_table(SCIENTIST_ACTIVE, SCIENTIST_USED, SCIENTIST_FRIGHTENED)
_BABY_BYTES = byte_table(BABY, BABY_ASLEEP, BABY_ASLEEP_NEW)
_ACTIVE_SCIENTIST_BYTES = byte_table(SCIENTIST_ACTIVE, SCIENTIST_USED)
_SLEEPING_BABY_BYTES = byte_table(BABY_ASLEEP, BABY_ASLEEP_NEW)


# ----------------------------------------------------------------------------- applying
def apply(state: GameState, side: Side, action: Action) -> GameState:
    """Apply one decision and return the new state (``state`` is left untouched).

    The new state's ``events`` list what this step did, including any automatic steps that
    followed (the reveal, an effect with no choice, end of round, draws, victory).

    Raises:
        WrongTurnError: ``side`` has nothing to decide now (other side's turn, game over).
        IllegalActionError: ``action`` is not in ``legal_actions(state, side)``.
        OptionError: ``side`` is not a side.
    """
    if side.__class__ is not Side:
        side = as_side(side)
    acting = to_act(state)
    if side not in acting:
        if state.phase is _PH_OVER:
            raise WrongTurnError(f"the game is over: no action is legal ({action!r})")
        who = " and ".join(sorted(x.value for x in acting))
        raise WrongTurnError(f"it is not the {side.value}'s decision now "
                             f"({state.phase.value}: waiting for the {who})")
    legal = state._legal.get(side)
    if legal is None:
        legal = legal_actions(state, side)
    for known in legal:  # identity first: generated actions are shared objects
        if known is action:
            break
    else:
        if action not in legal:
            _refuse(side, action, legal)
    s = state.copy()
    s.events = []  # type: ignore[assignment]
    round_before = s.round
    _do(s, side, action)
    _settle(s)
    ev = tuple(s.events)
    s.events = ev
    if s.round == round_before or s.phase is _PH_OVER:
        s.round_events = s.round_events + ev
    return s


def _refuse(side: Side, action: Action, legal: list[Action]) -> None:
    """Raise the refusal of ``action``, quoting it and the first legal actions."""
    try:
        shown = format_action(action)
    except Exception:  # noqa: BLE001 - any odd object still gets a message
        shown = repr(action)
    sample = ", ".join(format_action(a) for a in legal[:12])
    more = f" (and {len(legal) - 12} more)" if len(legal) > 12 else ""
    raise IllegalActionError(f"{shown!r} is not legal for the {side.value} now; legal: "
                             f"{sample}{more}")


def _emit(s: GameState, kind: str, side: Side | None = None, at: int | None = None,
          to: int | None = None, cells: tuple[int, ...] = (), value: int | None = None,
          value2: int | None = None, piece: str | None = None, text: str | None = None) -> None:
    s.events.append(_new_tuple(Event, (kind, side, at, to, cells, value, value2, piece, text)))


_new_tuple = tuple.__new__  # builds an Event from its fields in order, without keyword parsing



def _do(s: GameState, side: Side, a: Action) -> None:
    b = s.board
    t = type(a)
    if t is Pick:  # R5.1, R5.2
        hand = list(s.hands[side])
        hand.remove(a.card)
        s.hands[side] = tuple(hand)
        s.picks[side] = a.card
        _emit(s, "picked", side=side)
        if s.observation and side is SCIENTIST:
            _emit(s, "shown", side=SCIENTIST)
        if s.picks[RAPTOR] is not None and s.picks[SCIENTIST] is not None:
            _reveal(s)
        return
    if s.phase is _PH_AP:
        _do_ap(s, side, a)
        return
    if t is End:  # R5.4: the optional rest of an effect is skipped
        _finish_effect(s)
        return
    if s.phase is _PH_EFFECT:
        _do_effect(s, a)
        return
    # setup and the mother's return
    if t is PlaceMother:
        b[a.to] = MOTHER
        _emit(s, "placed", side=RAPTOR, to=a.to, piece=_MOTHER)
        if s.phase is _PH_MOTHER_RETURN:  # R9.2
            s.mother_off = False
            _emit(s, "returned", side=RAPTOR, to=a.to, piece=_MOTHER)
            _end_round(s)
        else:
            s.phase = _PH_SETUP_BABIES
    elif t is PlaceBaby:
        b[a.to] = BABY
        _emit(s, "placed", side=RAPTOR, to=a.to, piece=_BABY)
        if sum(1 for q in BOARD_SQUARES if b[q] == BABY) == 5:
            s.phase = _PH_SETUP_SCIENTISTS
    elif t is PlaceScientist:
        b[a.to] = SCIENTIST_ACTIVE
        _emit(s, "placed", side=SCIENTIST, to=a.to, piece=_SCIENTIST)
        if sum(1 for q in BOARD_SQUARES if b[q] == SCIENTIST_ACTIVE) == 4:
            s.last_round_events = s.round_events + tuple(s.events)
            s.round_events = ()
            s.round = 1
            s.phase = _PH_PICK


def _reveal(s: GameState) -> None:
    """Both picks revealed (R5.1): tie (R5.3) or the lower card's effect (R5.4)."""
    rv, sv = s.picks[RAPTOR], s.picks[SCIENTIST]
    s.revealed = (rv, sv)
    _emit(s, "revealed", value=rv, value2=sv)
    if rv == sv:
        _emit(s, "tie", value=rv)
        _end_round(s)
        return
    lower = RAPTOR if rv < sv else SCIENTIST
    value = min(rv, sv)
    s.effect = EffectState(lower, value)
    s.phase = _PH_EFFECT
    _emit(s, "effect", side=lower, value=value)
    if CARD_BY_KEY[(lower, value)].disappears:  # R9.2 Disappearance
        m = s.mother
        s.board[m] = EMPTY
        s.mother_off = True
        s.observe_next = True
        _emit(s, "disappeared", side=RAPTOR, at=m, piece=_MOTHER)


def _finish_effect(s: GameState) -> None:
    """End the effect: the shuffle of card 1 (R9.1, R10.1), then the AP phase (R5.5)."""
    eff = s.effect
    if CARD_BY_KEY[(eff.side, eff.card)].shuffles:
        side = eff.side
        s.decks[side] = tuple(_shuffled(s, s.decks[side] + s.discards[side] + (eff.card,)))
        s.discards[side] = ()
        s.picks[side] = None  # the card went into the deck, not the discard pile
        _emit(s, "shuffled", side=side, value=eff.card)  # value: the card that shuffles
    s.effect = None
    higher = SCIENTIST if eff.side is RAPTOR else RAPTOR
    total = ap_total(s.revealed)  # R5.5
    s.ap = APState(higher, total)
    s.phase = _PH_AP
    _emit(s, "ap", side=higher, value=total)


def _do_effect(s: GameState, a: Action) -> None:
    b = s.board
    eff = s.effect
    t = type(a)
    if t is CallBaby:
        path = call_path(b, a.frm, a.to) or (a.frm, a.to)  # the way the baby went (R9.1)
        b[a.frm] = EMPTY
        b[a.to] = BABY
        eff = _new_tuple(EffectState, (eff.side, eff.card, eff.done, eff.called + (a.to,)))
        _emit(s, "called", side=RAPTOR, at=a.frm, to=a.to, piece=_BABY, cells=path)
    elif t is Frighten:
        b[a.at] = SCIENTIST_FRIGHTENED_NEW
        _emit(s, "frightened", side=RAPTOR, at=a.at)
    elif t is Heal:
        s.sleep_tokens -= 1
        _emit(s, "healed", side=RAPTOR, value=s.sleep_tokens)
    elif t is Wake:
        b[a.at] = BABY
        _emit(s, "woken", side=RAPTOR, at=a.at)
    elif t is Gas:
        b[a.at] = BABY_ASLEEP_NEW
        _emit(s, "slept", side=SCIENTIST, at=a.at, text="gas")
    elif t is Reinforce:
        b[a.to] = SCIENTIST_ACTIVE
        s.reserve -= 1
        _emit(s, "reinforced", side=SCIENTIST, to=a.to)
    elif t is Jeep:  # R10.3
        cleared = jeep_clears(b, a.frm, a.to)
        for q in cleared:
            b[q] = EMPTY
        b[a.to] = b[a.frm]
        b[a.frm] = EMPTY
        _emit(s, "jeep", side=SCIENTIST, at=a.frm, to=a.to, cells=cleared)
    elif t is PlaceFire:
        b[a.at] = FIRE
        _emit(s, "fire_placed", side=SCIENTIST, at=a.at)
    s.effect = _new_tuple(EffectState, (eff.side, eff.card, eff.done + 1, eff.called))


def _do_ap(s: GameState, side: Side, a: Action) -> None:
    b = s.board
    ap = s.ap
    t = type(a)
    if t is End:
        _end_ap(s)
        return
    cost = 1
    if t is MoveMother:  # R7.2
        cost = mother_move_cost(s.sleep_tokens, ap.mother_moved)
        b[a.frm] = EMPTY
        b[a.to] = MOTHER
        ap = _new_tuple(APState, (ap.side, ap.remaining, True))
        _emit(s, "moved", side=RAPTOR, at=a.frm, to=a.to, piece=_MOTHER)
    elif t is MoveBaby:  # R7.1
        b[a.frm] = EMPTY
        if b[a.to] == EXIT:
            s.escaped += 1
            _emit(s, "escaped", side=RAPTOR, at=a.frm, to=a.to, piece=_BABY)
        else:
            b[a.to] = BABY
            _emit(s, "moved", side=RAPTOR, at=a.frm, to=a.to, piece=_BABY)
    elif t is Kill:  # R7.3
        b[a.at] = EMPTY
        s.killed += 1
        _emit(s, "killed", side=RAPTOR, at=a.at, to=s.mother)
    elif t is Wake:  # R7.4
        b[a.at] = BABY
        _emit(s, "woken", side=RAPTOR, at=a.at, to=s.mother)
    elif t is PutOut:  # R7.5
        group = fire_group(b, a.at)
        for q in group:
            b[q] = EMPTY
        _emit(s, "fire_out", side=RAPTOR, at=a.at, cells=group)
    elif t is MoveScientist:  # R8.1
        cost = a.cost
        path = _walk(b, a.frm, a.to, cost) if cost > 1 else ()
        b[a.to] = b[a.frm]
        b[a.frm] = EMPTY
        _emit(s, "moved", side=SCIENTIST, at=a.frm, to=a.to, piece=_SCIENTIST,
              value=a.cost, cells=path)
    elif t is Stand:  # R8.2
        b[a.at] = SCIENTIST_ACTIVE
        _emit(s, "stood", side=SCIENTIST, at=a.at)
    elif t is SleepBaby:  # R8.3
        b[a.at] = BABY_ASLEEP_NEW
        b[a.by] = SCIENTIST_USED
        _emit(s, "slept", side=SCIENTIST, at=a.by, to=a.at, text="shot")
    elif t is Capture:  # R8.4
        b[a.at] = EMPTY
        b[a.by] = SCIENTIST_USED
        s.captured += 1
        _emit(s, "captured", side=SCIENTIST, at=a.by, to=a.at)
    elif t is Shoot:  # R8.5
        b[a.by] = SCIENTIST_USED
        s.sleep_tokens += 1
        _emit(s, "shot", side=SCIENTIST, at=a.by, to=a.at, value=s.sleep_tokens)
    s.ap = _new_tuple(APState, (ap.side, ap.remaining - cost, ap.mother_moved))
    if t in _MAY_END_GAME:
        _check_victory(s)


_MAY_END_GAME = frozenset({MoveBaby, Kill, Capture, Shoot})


def _check_victory(s: GameState) -> None:
    """R6 / R5.7: the game ends the moment a victory condition holds."""
    outcome = victory(s)
    if outcome is not None:
        s.winner, s.reason = winner, reason = outcome
        s.phase = _PH_OVER
        s.effect = s.ap = None
        _emit(s, "game_over", side=winner, text=reason.value)


def _end_ap(s: GameState) -> None:
    """R5.5 end of the AP phase; then the mother's return if she disappeared (R9.2)."""
    s.ap = None
    if s.mother_off:
        s.phase = _PH_MOTHER_RETURN
    else:
        _end_round(s)


_SETTLE_BYTES = bytes(
    {BABY_ASLEEP_NEW: BABY_ASLEEP, SCIENTIST_USED: SCIENTIST_ACTIVE,
     SCIENTIST_FRIGHTENED_NEW: SCIENTIST_FRIGHTENED}.get(i, i) for i in range(256))


def _end_round(s: GameState) -> None:
    """R5.6: cards to the discard piles, draw back to 3 (reshuffling an empty deck)."""
    for side in (RAPTOR, SCIENTIST):
        played = s.picks[side]
        if played is not None:
            s.discards[side] = s.discards[side] + (played,)
            s.picks[side] = None
        hand = list(s.hands[side])
        drawn = 0
        while len(hand) < 3:
            deck = s.decks[side]
            if not deck:
                s.decks[side] = deck = tuple(_shuffled(s, s.discards[side]))
                s.discards[side] = ()
                _emit(s, "shuffled", side=side)
            hand.append(deck[0])
            s.decks[side] = deck[1:]
            drawn += 1
        s.hands[side] = tuple(sorted(hand))
        if drawn:
            _emit(s, "drew", side=side, value=drawn)
    s.board[:] = bytes(s.board).translate(_SETTLE_BYTES)  # this round's marks fade (R7.4,
    # R8.2, R8.6): new sleepers, used and newly frightened scientists become plain ones
    _emit(s, "round_end", value=s.round)
    s.last_round_events = s.round_events + tuple(s.events)
    s.round_events = ()
    s.round += 1
    s.revealed = None
    s.observation = s.observe_next
    s.observe_next = False
    s.phase = _PH_PICK


def _settle(s: GameState) -> None:
    """Run the steps that need no decision: an effect with nothing (more) to choose, an AP
    phase with nothing affordable (R5.4, R5.5)."""
    while True:
        ph = s.phase
        if ph is _PH_EFFECT:
            eff = s.effect
            acts = _generate(s, eff.side)
            if acts:
                s._legal = {eff.side: acts}
                return
            left = CARD_BY_KEY[(eff.side, eff.card)].most - eff.done
            if left > 0:  # R5.4: units the card allows that nothing can use, and why
                _emit(s, "effect_lost", side=eff.side, value=left, value2=eff.card,
                      text=effect_idle_reason(s))
            _finish_effect(s)
        elif ph is _PH_AP:
            side = s.ap.side
            acts = _generate(s, side) if s.ap.remaining > 0 else []
            if acts:
                s._legal = {side: acts}
                return
            if s.ap.remaining > 0:  # R5.5: AP left that nothing can use, and why
                _emit(s, "ap_lost", side=side, value=s.ap.remaining,
                      text=idle_reason(s, side))
            _end_ap(s)
        else:
            return
