"""Where the hard AI's strength comes from: hard against easy on one side, with parts of
the hard level swapped out. Run by hand; prints a win rate with a 95 % interval and
writes one JSON line per game, so two runs on the same seeds can be compared game by game:

    python benchmarks/bench_ai_ablation.py --variant full --out full.jsonl
    python benchmarks/bench_ai_ablation.py --variant easy-pick --out easy-pick.jsonl
    python benchmarks/bench_ai_ablation.py --set UNIFORM_MIX=0.1 --out mix.jsonl
    python benchmarks/bench_ai_ablation.py --compare full.jsonl easy-pick.jsonl mix.jsonl

Figures, and the runs behind the AI's tuning constants: ``benchmarks/RESULTS.md``.
Single games swing either way with any change, so compare rates, not game lists alone.

Variants (the hard side's decisions; the other side is always the easy level):

* ``full`` — the hard level as shipped;
* ``easy-pick`` — hard effects, actions points and placements, but the easy card pick;
* ``easy-sequence`` — the hard card pick, everything else played by the easy policy;
* ``easy-setup`` — the hard level everywhere but the setup placements (R4.1, R4.2), which
  the easy policy makes;
* ``oracle-hand`` — a diagnostic ceiling, never a way to play: the card pick is told the
  opponent's real hand (hidden information, R11.2), so it knows the card the easy level
  will pick. It measures what a perfect prediction of the opponent's card would be worth.
  ``--oracle-share F`` tells it in a share ``F`` of the rounds only, the honest model in
  the others: what knowing the card more often is worth. The rounds are drawn by seed and
  round, one draw each, so those of a smaller share are among those of a larger one.
* ``history`` — the raptor's model of the scientist's card from the game's public history
  (R11.1: every card it played, its discard pile after each round), not its view alone: a
  filter over its hand (``fit_pick_model.history_filter``, the current position's liking
  standing in for each past pick's), the easy pick of each hand, mixed with
  ``UNIFORM_MIX``; at the pick under way and the next round's (the lookahead's). The view
  the AI gets holds no such history: this measures what adding it would be worth.
* ``history-cards`` — the same, but the filter reads the cards and piles only (each past
  pick any card of the hand).

``--set NAME=VALUE`` overrides a constant of ``bot.ai.params`` (``HARD_STYLE`` weights of
the hard side as ``W.name=value``; ``WIN_CHANCE.slope`` and ``WIN_CHANCE.offset`` of the
hard side; a constant by side, such as ``HAND_STICKINESS``, for the hard side). Games use
seeds ``first_seed + 2 i`` (+1 when the hard level plays the scientist) and ``iterations``
fixed playouts per decision (20 = the cap of a 0.25 s budget), so a run does the same work
on any machine and repeats exactly.

Each game's JSON line holds its seed, whether the hard side won, why the game ended, its
rounds, the escaped, captured and killed counts, and ``picks`` and ``observed``: the hard
side's card picks, and those made in a round under observation (R5.2: for the raptor, with
the scientist's card shown; for the scientist, its card shown first). The run prints their
totals after the win rate.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import fit_pick_model  # noqa: E402
from bench_ai import wilson  # noqa: E402

import bot.ai as ai  # noqa: E402
import engine  # noqa: E402
from bot.ai import easy, params, pick_model, search  # noqa: E402
from engine import Side  # noqa: E402
from engine.state import SETUP_PHASES  # noqa: E402

VARIANTS = ("full", "easy-pick", "easy-sequence", "easy-setup", "oracle-hand", "history",
            "history-cards")
_TRUE_STATE: list = [None]  # oracle-hand only: the real state of the decision under way
#: oracle-hand only: the share of rounds the oracle is told in (--oracle-share), and the
#: seed of the game under way, which with the round number draws them
_ORACLE: dict[str, float] = {"share": 1.0, "seed": 0}
#: history variants: the real game's public history of the scientist's cards so far,
#: ``(card, discard pile after its round)`` per round
_HISTORY: list[tuple[int, frozenset[int]]] = []


_MODEL = pick_model.opponent_pick_model


def _oracle_pick_model(v, me):
    """The opponent's pick read from the real state (a diagnostic: hidden information), at
    the card pick under way only, in the rounds :func:`_oracle_round` draws; any other
    position (the raptor's lookahead values the next round's pick) or round gets the
    honest model."""
    state, opp = _TRUE_STATE[0], me.other
    if not (v.phase is engine.Phase.PICK and state.phase is engine.Phase.PICK
            and v.round == state.round) or not _oracle_round(state.round):
        return _MODEL(v, me)
    pool, known = pick_model.opponent_pool(v, me)
    if known is not None:
        return {known: 1.0}
    if v.observation and me is Side.SCIENTIST:
        return None
    hand = list(state.hands[opp]) + ([state.picks[opp]] if state.picks[opp] else [])
    return {easy.pick_card(engine.view(state, opp), opp, hand): 1.0}


def _oracle_round(round_no: int) -> bool:
    """Whether the oracle is told the card in this round of the game under way: always
    with the default share 1; else a draw of ``random.Random`` seeded by the game's seed
    and the round number, below the share (so a run repeats exactly)."""
    share = _ORACLE["share"]
    return share >= 1.0 or random.Random(f"oracle:{_ORACLE['seed']}:{round_no}").random() < share


def _history_pick_model(v, me, *, liking: bool = True):
    """The scientist's card from the public history of the game under way (a filter over
    its hand, ``fit_pick_model.history_filter``), at the raptor's pick under way and the
    next round's; elsewhere, or when the history rules out every hand, the shipped model."""
    base = _MODEL(v, me)
    state = _TRUE_STATE[0]
    if (me is not Side.RAPTOR or base is None or len(base) == 1
            or v.phase is not engine.Phase.PICK):
        return base
    history = list(_HISTORY)
    if v.round == state.round + 1:  # the lookahead's next pick: this round played out
        shown = [e for e in v.last_round_events if e.kind == "revealed"]
        if not shown:
            return base
        history.append((shown[-1].value2, frozenset(v.discards[Side.SCIENTIST])))
    elif v.round != state.round:
        return base
    rating = easy.pick_merits(v, Side.SCIENTIST, engine.CARD_VALUES)
    now = tuple(sorted(engine.CARD_VALUES, key=rating.__getitem__, reverse=True))
    past = now if liking else tuple(engine.CARD_VALUES)
    held = fit_pick_model.history_filter([(c, past, pile) for c, pile in history],
                                         0.02 if liking else 1.0)
    if not held:
        return base
    pool, _known = pick_model.opponent_pool(v, me)
    return pick_model.picks_of_hands(pool, rating, list(held), list(held.values()))


def configure(variant: str, settings: list[str], hard_side: Side,
              oracle_share: float = 1.0) -> None:
    """Patch the AI (``bot.ai`` and its modules) in this process (forked workers inherit
    it)."""
    _ORACLE["share"] = oracle_share
    if variant == "easy-pick":
        search.decide_pick = (
            lambda v, me, hand, rng, styles, clock=None: easy.pick_card(v, me, hand))
    elif variant == "easy-sequence":
        search.decide_sequence = (
            lambda state, me, legal, rng, clock, styles: easy.greedy(state, me, legal))
    elif variant == "easy-setup":
        hard_sequence = search.decide_sequence

        def easy_setup(state, me, legal, rng, clock, styles):
            if state.phase in SETUP_PHASES:
                return easy.greedy(state, me, legal)
            return hard_sequence(state, me, legal, rng, clock, styles)

        search.decide_sequence = easy_setup
    elif variant == "oracle-hand":
        search.opponent_pick_model = _oracle_pick_model
    elif variant == "history":
        search.opponent_pick_model = _history_pick_model
    elif variant == "history-cards":
        search.opponent_pick_model = functools.partial(_history_pick_model, liking=False)
    for item in settings:
        name, _, text = item.partition("=")
        try:
            value = float(text)
        except ValueError:
            raise SystemExit(f"--set {item}: the value must be a number") from None
        if name in ("WIN_CHANCE.slope", "WIN_CHANCE.offset") and hard_side not in params.WIN_CHANCE:
            raise SystemExit(f"--set {item}: the hard {hard_side.value} has no WIN_CHANCE "
                             f"(it values positions in points)")
        if name in ("WIN_CHANCE.slope", "WIN_CHANCE.offset"):
            slope, offset = params.WIN_CHANCE[hard_side]
            pair = (value, offset) if name.endswith("slope") else (slope, value)
            params.WIN_CHANCE = {**params.WIN_CHANCE, hard_side: pair}
        elif name.startswith("W.") and name[2:] in params.HARD_STYLE[hard_side]:
            weights = dict(params.HARD_STYLE[hard_side])
            weights[name[2:]] = value
            params.HARD_STYLE[hard_side] = weights
        elif name.isupper() and isinstance(getattr(params, name, None), (int, float)):
            setattr(params, name, type(getattr(params, name))(value))
        elif name.isupper() and isinstance(getattr(params, name, None), dict) and all(
                isinstance(k, Side) for k in getattr(params, name)):
            per_side = dict(getattr(params, name))  # a constant by side: the hard side's
            old = per_side.get(hard_side)
            per_side[hard_side] = (type(old)(value) if isinstance(old, (int, float))
                                   else value)
            setattr(params, name, per_side)
        else:
            raise SystemExit(
                f"--set {item}: bot.ai.params has no numeric constant or weight {name}")


def play(job: tuple) -> dict:
    seed, hard_side, iterations, max_rounds = job
    levels = {hard_side: "hard", hard_side.other: "easy"}
    state = engine.new_game(seed)
    decision = 0
    _HISTORY.clear()
    _ORACLE["seed"] = seed
    picks = observed = 0  # the hard side's card picks, and those under observation (R5.2)
    while not state.is_over and state.round <= max_rounds:
        for side in (Side.RAPTOR, Side.SCIENTIST):
            if side not in engine.to_act(state):
                continue
            _TRUE_STATE[0] = state
            if side is hard_side and state.phase is engine.Phase.PICK:
                picks += 1
                observed += bool(state.observation)
            action = ai.choose_action(engine.view(state, side), level=levels[side],
                                      seed=seed * 100_000 + decision, iterations=iterations)
            decision += 1
            round_no = state.round
            state = engine.apply(state, side, action)
            if state.round > round_no:  # R5.6: the round's cards are public (R11.1)
                shown = [e for e in state.last_round_events if e.kind == "revealed"]
                if shown:
                    _HISTORY.append((shown[-1].value2,
                                     frozenset(state.discards[Side.SCIENTIST])))
    return {"seed": seed, "win": state.winner is hard_side,
            "reason": state.reason.value if state.reason else None, "rounds": state.round,
            "escaped": state.escaped, "captured": state.captured, "killed": state.killed,
            "picks": picks, "observed": observed}


def compare(paths: list[str]) -> None:
    runs = []
    for path in paths:
        try:
            with open(path) as f:
                runs.append({r["seed"]: r["win"] for r in map(json.loads, f)})
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}: not a readable --out file of this benchmark ({exc})"
                             ) from None
    base = runs[0]
    for path, run in zip(paths, runs, strict=True):
        common = sorted(set(base) & set(run))
        won = sum(run[s] for s in common)
        gained = sum(1 for s in common if run[s] and not base[s])
        lost = sum(1 for s in common if base[s] and not run[s])
        lo, hi = wilson(won, len(common))
        print(f"{path}: {won}/{len(common)} = {100 * won / max(1, len(common)):.1f} % "
              f"[{100 * lo:.1f} %, {100 * hi:.1f} %]; against {paths[0]}: +{gained} -{lost}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="full", choices=VARIANTS)
    parser.add_argument("--side", default="raptor", choices=("raptor", "scientist"),
                        help="the side the hard level plays (raptor)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--max-rounds", type=int, default=300)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--oracle-share", type=float, metavar="F",
                        help="oracle-hand: the share of rounds (0 to 1) it is told the card "
                             "in (default 1: every round)")
    parser.add_argument("--out", help="JSON lines, one per game (default: none)")
    parser.add_argument("--compare", nargs="+", metavar="JSONL",
                        help="compare earlier --out files game by game (the first is the base)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.iterations < 1 or args.processes < 1:
        parser.error("--games, --iterations and --processes must be at least 1")
    if args.compare:
        compare(args.compare)
        return 0
    if args.oracle_share is not None and args.variant != "oracle-hand":
        parser.error("--oracle-share goes with --variant oracle-hand")
    share = 1.0 if args.oracle_share is None else args.oracle_share
    if not 0.0 <= share <= 1.0:
        parser.error("--oracle-share must be between 0 and 1")
    hard_side = Side(args.side)
    configure(args.variant, args.set, hard_side, share)
    offset = 0 if hard_side is Side.RAPTOR else 1
    jobs = [(args.first_seed + 2 * i + offset, hard_side, args.iterations, args.max_rounds)
            for i in range(args.games)]
    told = f", oracle share {share}" if share != 1.0 else ""
    print(f"hard ({args.variant}{told}{', ' + ', '.join(args.set) if args.set else ''}) as "
          f"{hard_side.value} against easy: {args.games} games, seeds {jobs[0][0]}.."
          f"{jobs[-1][0]} step 2, {args.iterations} playouts per decision", flush=True)
    try:
        out = open(args.out, "w") if args.out else None  # noqa: SIM115 - closed below
    except OSError as exc:
        raise SystemExit(f"--out {args.out}: {exc.strerror}") from None
    start = time.perf_counter()
    results = []
    try:
        with Pool(args.processes) as pool:
            for res in pool.imap_unordered(play, jobs):
                results.append(res)
                if out:
                    out.write(json.dumps(res) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
    won = sum(r["win"] for r in results)
    lo, hi = wilson(won, len(results))
    print(f"  hard wins {won}/{len(results)} = {100 * won / len(results):.1f} % "
          f"[{100 * lo:.1f} %, {100 * hi:.1f} %] in {time.perf_counter() - start:.0f} s")
    picks = sum(r["picks"] for r in results)
    observed = sum(r["observed"] for r in results)
    print(f"  its card picks under observation (R5.2): {observed} of {picks} "
          f"({100 * observed / max(1, picks):.1f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
