"""Fit the hard raptor's model of the scientist's card pick
(``bot.ai.params.HAND_STICKINESS`` and ``bot.ai.params.UNIFORM_MIX``). Run by hand; plays
hard raptor vs easy scientist games and, at each card pick of the raptor where the
scientist's card is still hidden (R5.1; not under observation, R5.2), keeps the raptor's
view and the card the easy scientist really picks. Then, for every pair (kappa, mix) of the
grid, it scores ``bot.ai.pick_model.opponent_pick_model`` on those views by the mean
log-likelihood of the real cards (nats; higher is better):

    python benchmarks/fit_pick_model.py --games 60 --first-seed 7001 [--regret]

The real cards are read from the game's state by this script only, to score the model; the
model itself, as in play, reads nothing but the raptor's view.

``--history`` also scores what the public history could add: a filter over the scientist's
hand (``history_filter``: each round it plays the card of its hand the easy pick likes most,
but for a share ``--noise`` any card of its hand, then draws at random), fed with every card
it played, how much it liked each card at each of those picks and its discard pile after
each round (all public, R11.1; the AI sees one view, not this history). It prints the mean
log-likelihood and how often each model's likeliest card is the real one (top-1):

    python benchmarks/fit_pick_model.py --raptor easy --games 200 --history

Figures: ``benchmarks/RESULTS.md`` (the pick model's fit).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import bot.ai as ai  # noqa: E402
import engine  # noqa: E402
from bot.ai import easy, params, pick_model, search  # noqa: E402
from engine import CARD_VALUES, Phase, Side  # noqa: E402

RAPTOR, SCIENTIST = Side.RAPTOR, Side.SCIENTIST


def play_game(job: tuple[int, int, str]) -> list[tuple[engine.View, int, list]]:
    """One game, the raptor of level ``job[2]`` (hard by default) vs easy scientist:
    ``(raptor's view, the scientist's real card, the public history of its picks)`` at
    each raptor pick with the scientist's card unknown to it. The history has one entry
    per round played so far: ``(the card the scientist played, its liking at that pick,
    its discard pile at the round's end)``; a liking is every card, the one the easy
    pick rated best first (:func:`bot.ai.easy.pick_merits` from the raptor's view at the
    pick, so public: R11.1)."""
    seed, iterations, raptor = job
    state = engine.new_game(seed)
    samples: list[tuple[engine.View, int, list]] = []
    history: list[tuple[int, tuple[int, ...], frozenset[int]]] = []
    liking: tuple[int, ...] = ()
    decision = 0
    while not state.is_over and state.round <= 300:
        side = RAPTOR if RAPTOR in engine.to_act(state) else SCIENTIST
        if state.phase is Phase.PICK and state.picks == {RAPTOR: None, SCIENTIST: None}:
            rating = easy.pick_merits(engine.view(state, RAPTOR), SCIENTIST, CARD_VALUES)
            liking = tuple(sorted(CARD_VALUES, key=rating.__getitem__, reverse=True))
        if (side is RAPTOR and state.phase is Phase.PICK and not state.observation
                and state.picks[RAPTOR] is None):
            # the card the easy scientist picks now, or has picked face down (R5.1)
            hand = list(state.hands[SCIENTIST])
            if state.picks[SCIENTIST] is not None:
                hand.append(state.picks[SCIENTIST])
            real = easy.pick_card(engine.view(state, SCIENTIST), SCIENTIST, hand)
            samples.append((engine.view(state, RAPTOR), real, list(history)))
        level = raptor if side is RAPTOR else "easy"
        action = ai.choose_action(engine.view(state, side), level=level,
                                  seed=seed * 100_000 + decision, iterations=iterations)
        decision += 1
        round_no = state.round
        state = engine.apply(state, side, action)
        if state.round > round_no:  # the round is over (R5.6), a tie (R5.3) too
            shown = [e for e in state.last_round_events if e.kind == "revealed"]
            if shown:
                history.append((shown[-1].value2, liking,
                                frozenset(state.discards[SCIENTIST])))
    return samples


def history_filter(history: list[tuple[int, tuple[int, ...], frozenset[int]]],
                   noise: float, size: int = 3) -> dict[tuple[int, ...], float]:
    """The chance of each hand (a sorted tuple of ``size`` cards) that the scientist may
    hold now, given the public ``history`` of its picks (from :func:`play_game`). Model:
    its first hand is any ``size`` of its 9 cards (R4.3); each round it plays the card of
    its hand it likes most (for a share ``noise``, any card of its hand), then draws back
    to ``size`` from its deck, at random (R5.6). Its deck at that draw is every card
    neither in its hand nor in its discard pile after the round: that holds after a
    reshuffle of an empty deck (R5.6) and after a card 1 shuffled its deck and pile
    together (R9.1, R10.1) as well. Empty if the history rules out every hand."""
    cards = tuple(CARD_VALUES)
    dist = dict.fromkeys(itertools.combinations(cards, size), 1.0)
    for card, liking, pile in history:
        rank = {c: i for i, c in enumerate(liking)}
        nxt: dict[tuple[int, ...], float] = {}
        for hand, p in dist.items():
            if card not in hand:
                continue
            top = min(hand, key=rank.__getitem__)
            like = (1.0 - noise) * (card == top) + noise / len(hand)
            if not like:
                continue
            kept = tuple(c for c in hand if c != card)
            if pile & set(kept):
                continue  # a card it kept cannot be in its discard pile
            deck = [c for c in cards if c not in pile and c not in kept]
            for x in deck:
                key = tuple(sorted((*kept, x)))
                nxt[key] = nxt.get(key, 0.0) + p * like / len(deck)
        total = sum(nxt.values())
        if not total:
            return {}
        dist = {h: p / total for h, p in nxt.items()}
    return dist


def report_history(samples: list[tuple[engine.View, int, list]], noise: float) -> None:
    """Print the log-likelihood and top-1 (how often the likeliest card is the real one)
    of the shipped model (its ``HAND_STICKINESS``) and of the history filter
    (``--history``), both mixed with a uniform share of 0.02 (the grid's best mix by
    likelihood, as this benchmark has found it)."""
    mix = 0.02
    saved, params.UNIFORM_MIX = params.UNIFORM_MIX, mix
    shipped_ll = filtered_ll = 0.0
    shipped_top = filtered_top = ruled_out = 0
    for view, real, history in samples:
        probs = pick_model.opponent_pick_model(view, RAPTOR)
        shipped_ll += math.log(probs[real])
        shipped_top += max(probs, key=lambda c, p=probs: (p[c], -c)) == real
        pool, _known = pick_model.opponent_pool(view, RAPTOR)
        held = history_filter(history, noise)
        rating = easy.pick_merits(view, SCIENTIST, CARD_VALUES)
        guess = dict.fromkeys(pool, mix / len(pool))
        for hand, p in held.items():
            top = max(hand, key=rating.__getitem__)
            for c in hand:
                guess[c] += (1.0 - mix) * p * ((1.0 - noise) * (c == top) + noise / len(hand))
        if not held:
            ruled_out += 1
            guess = probs
        filtered_ll += math.log(guess[real])
        filtered_top += max(guess, key=lambda c, g=guess: (g[c], -c)) == real
    params.UNIFORM_MIX = saved
    n = len(samples)
    print(f"the public history (--history, noise {noise:g}, mix {mix:g}), {n} picks"
          + (f" ({ruled_out} whose history the filter ruled out: the shipped model's guess)"
             if ruled_out else "") + ":")
    print(f"  shipped model : log-likelihood {shipped_ll / n:.4f}, top-1 "
          f"{100 * shipped_top / n:.1f} %")
    print(f"  history filter: log-likelihood {filtered_ll / n:.4f}, top-1 "
          f"{100 * filtered_top / n:.1f} %")


def mean_log_likelihood(samples: list[tuple], kappa: float,
                        mix: float) -> float:
    """Mean log-probability (nats) that ``bot.ai.pick_model.opponent_pick_model``, with the
    raptor's stickiness ``kappa`` and the uniform share ``mix``, gives the real card."""
    saved = params.HAND_STICKINESS, params.UNIFORM_MIX
    params.HAND_STICKINESS = {RAPTOR: kappa}
    params.UNIFORM_MIX = mix
    try:
        total = 0.0
        for view, real, *_history in samples:
            probs = pick_model.opponent_pick_model(view, RAPTOR)
            total += math.log(probs[real])
        return total / len(samples)
    finally:
        params.HAND_STICKINESS, params.UNIFORM_MIX = saved


def pair_values(job: tuple[int, engine.View]) -> dict[tuple[int, int], float]:
    """``{(raptor card, scientist card): value}`` for the view of ``job`` (its index
    seeds the determinizations): every card of the raptor's hand against every card the
    scientist may pick, valued at the round's end (``bot.ai.search._pair_values``), as the hard
    pick valued them before its lookahead (``bot.ai.params.PICK_LOOKAHEAD``); that lookahead
    costs ten times more, too much for this benchmark's thousands of picks."""
    index, view = job
    pool, _known = pick_model.opponent_pool(view, RAPTOR)
    styles = {RAPTOR: params.HARD_STYLE[RAPTOR], SCIENTIST: params.W}
    return search._pair_values(view, RAPTOR, sorted(view.hand), pool,
                               random.Random(index), styles)


def mean_regret(samples: list[tuple],
                values: list[dict[tuple[int, int], float]], kappa: float,
                mix: float) -> float:
    """Mean regret (a chance of winning, per pick) of the card the hard pick chooses with
    the model ``(kappa, mix)``: the value of the raptor's best card against the real card,
    minus that of the chosen card (the best expected value over the model, the lower card
    on a tie, as ``bot.ai.search.decide_pick``). ``mix`` 1: a uniform model."""
    saved = params.HAND_STICKINESS, params.UNIFORM_MIX
    params.HAND_STICKINESS = {RAPTOR: kappa}
    params.UNIFORM_MIX = mix
    try:
        total = 0.0
        for (view, real, *_history), table in zip(samples, values, strict=True):
            probs = pick_model.opponent_pick_model(view, RAPTOR)
            hand = sorted(view.hand)
            chosen = max(hand, key=lambda c, probs=probs, table=table: (
                search._expected_value(c, table, probs), -c))
            total += max(table[c, real] for c in hand) - table[chosen, real]
        return total / len(samples)
    finally:
        params.HAND_STICKINESS, params.UNIFORM_MIX = saved


def _positive(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value:g}")
    return value


def _floats(low: float, high: float):
    """argparse type: comma-separated finite numbers from ``low`` to ``high``."""

    def parse(text: str) -> list[float]:
        try:
            values = [float(x) for x in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of "
                                             "numbers") from None
        for v in values:
            if not (math.isfinite(v) and low <= v <= high):
                raise argparse.ArgumentTypeError(f"{v:g} is not between {low:g} and {high:g}")
        return values

    return parse


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Score the hard raptor's model of the scientist's card pick by the "
                    "likelihood of the easy scientist's real picks, over a grid of "
                    "HAND_STICKINESS (kappa) and UNIFORM_MIX (mix).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter, allow_abbrev=False)
    ap.add_argument("--games", type=_positive, default=60, help="raptor vs easy games played")
    ap.add_argument("--raptor", choices=ai.LEVELS, default="hard", help="the raptor's level")
    ap.add_argument("--first-seed", type=int, default=7001,
                    help="games use the consecutive seeds from this one")
    ap.add_argument("--iterations", type=_positive, default=20,
                    help="playouts per hard decision")
    ap.add_argument("--procs", type=_positive, default=os.cpu_count() or 1,
                    help="worker processes")
    ap.add_argument("--kappas", type=_floats(0.0, 20.0), default="0,1,1.5,2,2.5,3,4",
                    help="stickiness values to score, comma-separated")
    ap.add_argument("--mixes", type=_floats(0.0, 1.0), default="0.02,0.05,0.1,0.2,0.3",
                    help="uniform shares to score, comma-separated")
    ap.add_argument("--regret", action="store_true",
                    help="also value every pair of cards and score the picks by regret")
    ap.add_argument("--history", action="store_true",
                    help="also score a filter over the scientist's hand fed by the public "
                         "history")
    ap.add_argument("--noise", type=_share, default=0.02,
                    help="the history filter's share of random picks")
    args = ap.parse_args(argv)
    jobs = [(args.first_seed + i, args.iterations, args.raptor) for i in range(args.games)]
    started = time.perf_counter()
    with Pool(args.procs) as pool:
        samples = [s for game in pool.map(play_game, jobs) for s in game]
    games = f"{args.games} game{'s' * (args.games != 1)}"
    print(f"{games}, {len(samples)} raptor picks with the scientist's card hidden, "
          f"{time.perf_counter() - started:.0f} s")
    if not samples:
        print("no pick to score: play more games")
        return 1
    uniform = sum(math.log(1.0 / len(pick_model.opponent_pool(v, RAPTOR)[0]))
                  for v, *_rest in samples) / len(samples)
    print(f"a uniform pick over the cards outside the discard pile: {uniform:.4f}")
    print("mean log-likelihood of the real card (nats; higher is better), kappa (rows) by mix "
          "(columns):")
    print("kappa " + "".join(f"{m:>9g}" for m in args.mixes))
    best = (-math.inf, 0.0, 0.0)
    for kappa in args.kappas:
        row = []
        for mix in args.mixes:
            ll = mean_log_likelihood(samples, kappa, mix)
            row.append(ll)
            best = max(best, (ll, kappa, mix))
        print(f"{kappa:5g} " + "".join(f"{ll:9.4f}" for ll in row))
    kappa, mix = params.HAND_STICKINESS.get(RAPTOR, 0.0), params.UNIFORM_MIX
    print(f"best: kappa {best[1]:g}, mix {best[2]:g} ({best[0]:.4f}); as shipped: "
          f"kappa {kappa:g}, mix {mix:g} ({mean_log_likelihood(samples, kappa, mix):.4f})")
    if args.history:
        report_history(samples, args.noise)
    if args.regret:
        report_regret(samples, args, kappa, mix)
    return 0


def report_regret(samples: list[tuple], args: argparse.Namespace,
                  kappa: float, mix: float) -> None:
    """Print the mean regret of the picks for every cell of the grid (``--regret``)."""
    started = time.perf_counter()
    hands = [(i, view) for i, (view, *_rest) in enumerate(samples) if len(view.hand) > 1]
    with Pool(args.procs) as pool:
        tables = pool.map(pair_values, hands, chunksize=8)
    # a pick with a single card has no regret; a pair no determinization was found for
    # (``_pair_values`` leaves it out) drops that view
    kept, kept_tables = [], []
    for (i, view), table in zip(hands, tables, strict=True):
        pool_cards, _known = pick_model.opponent_pool(view, RAPTOR)
        if all((c, o) in table for c in view.hand for o in pool_cards):
            kept.append(samples[i])
            kept_tables.append(table)
    print(f"pair values of {len(kept)} picks with two cards or more, "
          f"{time.perf_counter() - started:.0f} s")
    if not kept:
        print("no pick with a choice to score by regret")
        return
    print("mean regret against the real card (a chance of winning per pick; lower is better), "
          "kappa (rows) by mix (columns)")
    print(f"an oracle: 0, a uniform model: "
          f"{mean_regret(kept, kept_tables, 0.0, 1.0):.4f}")
    print("kappa " + "".join(f"{m:>9g}" for m in args.mixes))
    for k in args.kappas:
        print(f"{k:5g} " + "".join(f"{mean_regret(kept, kept_tables, k, m):9.4f}"
                                   for m in args.mixes))
    print(f"as shipped: {mean_regret(kept, kept_tables, kappa, mix):.4f}")


if __name__ == "__main__":
    raise SystemExit(main())
