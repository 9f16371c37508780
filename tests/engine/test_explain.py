"""Refusal reasons (:func:`engine.explain.why_not`) over seeded random positions: a legal entry
never gets a reason, and each reason given for an illegal one is what the rule's predicate
says (R4.1, R5.4, R7.2, R8.1, R8.5, R9.1, R10.1, R10.3, R10.5)."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine import format_action, legal_actions, square
from engine import predicates as P
from engine.explain import entry_form, why_not
from engine.geometry import BOARD_SQUARES, NEIGHBOURS, RAYS, SQUARE_NAMES, TILE_OF
from engine.state import (
    ACTIVE_SCIENTIST_CODES,
    BABY,
    BABY_CODES,
    EMPTY,
    FIGURINE_CODES,
    FIRE,
    MOTHER,
    SCIENTIST_CODES,
    SLEEPING_BABY_CODES,
    Phase,
    Side,
)

N = SQUARE_NAMES
#: The phase hint of each phase (a refusal for an entry of another phase's form).
HINTS = {"this is the card pick": Phase.PICK, "you are spending action points": Phase.AP,
         "first resolve the effect": Phase.EFFECT, "first put the mother back": Phase.MOTHER_RETURN,
         "this is the setup: place the mother": Phase.SETUP_MOTHER,
         "this is the setup: place a baby": Phase.SETUP_BABIES,
         "this is the setup: place a scientist": Phase.SETUP_SCIENTISTS}
_SQ = re.compile(r"\b[A-M][1-6]\b")


def positions(games: int, every: int) -> list[engine.GameState]:
    """Every ``every``-th state of ``games`` random games from seeds 0.. (manual setup for
    half of them, so setup positions are in)."""
    out = []
    for g in range(games):
        s = engine.new_game(g, setup="manual" if g % 2 else "quick")
        rng = random.Random(g)
        n = 0
        while not s.is_over and s.round < 60:
            side = min(engine.to_act(s))
            if n % every == 0 or s.round == 0:  # every setup step
                out.append(s)
            s = engine.apply(s, side, rng.choice(legal_actions(s, side)))
            n += 1
    return out


POSITIONS = positions(24, 7)


def candidates(s: engine.GameState) -> set[str]:
    """Well-formed entries of every shape around the position's figurines (normalised)."""
    out = {"end", "heal"} | {f"play {c}" for c in range(1, 10)}
    b = s.board
    for q in BOARD_SQUARES:
        n = N[q].lower()
        out |= {f"{w} {n}" for w in ("kill", "wake", "out", "stand", "fear", "gas", "fire")}
        out |= {f"{p}@{n}" for p in "mbsr"}
        if b[q] in FIGURINE_CODES:
            for t in list(NEIGHBOURS[q]) + [t for ray in RAYS[q] for t in ray[:6]]:
                out.add(f"{n}-{N[t].lower()}")
        if b[q] in SCIENTIST_CODES:
            for t in NEIGHBOURS[q]:
                out |= {f"{n} sleep {N[t].lower()}", f"{n} capture {N[t].lower()}"}
            m = s.mother
            if m is not None:
                out.add(f"{n} shoot {N[m].lower()}")
    return out


def check_reason(s: engine.GameState, side, norm: str, why: str) -> None:
    """The reason agrees with the predicate it names."""
    b = s.board
    sq = [square(x) for x in _SQ.findall(why)]
    ent = [square(x) for x in re.findall(r"[a-m][1-6]", norm)]
    if "blocks the shot" in why:
        assert P.shot_blocker(b, ent[0], ent[1]) == sq[0]
    elif " stops before " in why or "stops at the board's edge" in why:
        who = P.MOTHER_PASSES if why.startswith("the mother") else P.JEEP_PASSES
        assert P.run_stop(b, ent[0], ent[1], who) == sq[-1]
        if why.startswith("the jeep"):
            assert ent[1] not in P.jeep_stops(b, ent[0])
        else:
            assert ent[1] not in P.mother_runs(b, ent[0])
    elif "first move this round costs" in why:
        cost = P.mother_move_cost(s.sleep_tokens, s.ap.mother_moved)
        assert f"costs {cost} AP" in why and cost > s.ap.remaining
    elif "out of the gas's range" in why:
        assert b[ent[0]] == BABY and TILE_OF[ent[0]] not in P.gas_tiles(b)
    elif "is not next to a standing scientist or a fire" in why:
        assert ent[0] not in P.fire_spots(b)
    elif "no walk reaches" in why:
        assert P.walk_distance(b, ent[0], ent[1]) is None
    elif "is out of reach with" in why:
        assert P.walk_distance(b, ent[0], ent[1]) > s.ap.remaining
    elif "no path of free, fire-free spaces" in why:
        assert not P.call_reaches(b, ent[0], ent[1])
    elif "has its baby already" in why or "is the mother's tile" in why:
        assert TILE_OF[ent[0]] not in P.baby_setup_tiles(b)
    elif "has its scientist already" in why:
        assert TILE_OF[ent[0]] not in P.scientist_setup_tiles(b)
    elif "units of this card must be used" in why or "first unit must be used" in why:
        assert s.effect.done < engine.card(s.effect.side, s.effect.card).least
    elif "there is no scientist on" in why:
        assert b[sq[0]] not in SCIENTIST_CODES
    elif "there is no standing scientist on" in why:
        assert b[sq[0]] not in ACTIVE_SCIENTIST_CODES
    elif "there is no standing baby on" in why or "there is no active baby on" in why:
        assert b[sq[0]] != BABY
    elif "the mother is not on" in why:
        assert b[sq[0]] != MOTHER
    elif "there is no raptor figurine on" in why:
        assert b[sq[0]] not in BABY_CODES | {MOTHER}
    elif "there is no sleeping baby on" in why:
        assert b[sq[0]] not in SLEEPING_BABY_CODES
    elif "there is no fire on" in why:
        assert b[sq[0]] != FIRE
    elif "the mother (on " in why:
        assert sq[0] == s.mother and sq[1] not in NEIGHBOURS[s.mother]
    elif "a baby moves one space at a time" in why:
        assert ent[1] not in NEIGHBOURS[ent[0]]
    elif re.fullmatch(r"[A-M][1-6] holds .*", why):
        assert b[sq[0]] != EMPTY
    elif why.startswith("that is a scientist's action"):
        assert side is Side.RAPTOR
    elif why.startswith("that is a raptor's action"):
        assert side is Side.SCIENTIST
    else:
        for start, phase in HINTS.items():
            if why.startswith(start):
                assert s.phase is phase


#: A quarter of the positions each (about 320,000 entries, some 5 CPU seconds): the default
#: run checks the first quarter, ``pytest -m soak`` the other three.
CHUNKS = [0, *(pytest.param(c, marks=pytest.mark.soak) for c in (1, 2, 3))]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_why_not_gives_no_reason_for_a_legal_entry_and_the_rules_reason_otherwise(chunk):
    checked = reasons = 0
    seen_kinds: set[str] = set()
    for s in POSITIONS[chunk::4]:
        for side in engine.to_act(s):
            legal = {format_action(a).lower() for a in legal_actions(s, side)}
            forms = {entry_form(k) for k in legal}
            for norm in legal:
                assert why_not(s, side, norm, forms) is None, (engine.to_diagram(s), norm)
            for norm in candidates(s) - legal:
                why = why_not(s, side, norm, forms)
                checked += 1
                if why is not None:
                    reasons += 1
                    seen_kinds.add(s.phase.value)
                    check_reason(s, side, norm, why)
    assert checked > 1000 and reasons > 500
    assert {Phase.PICK.value, Phase.AP.value} <= seen_kinds


def test_the_positions_cover_setup_effects_and_both_AP_phases():
    phases = {s.phase for s in POSITIONS}
    assert {Phase.SETUP_MOTHER, Phase.SETUP_BABIES, Phase.SETUP_SCIENTISTS, Phase.PICK,
            Phase.EFFECT, Phase.AP} <= phases
    assert {s.ap.side for s in POSITIONS if s.ap is not None} == {engine.Side.RAPTOR,
                                                                   engine.Side.SCIENTIST}
