"""A toy game for the platform's tests: *secret Nim*, 2 to 4 seats, built only on
:mod:`engine.game` (nothing of Raptor), so that a table, a thread, hands, AI seats, timers,
ratings, records and replays proven with it need nothing of Raptor.

Rules: a pile of stones (option ``pile``: 10, 15 or 21). Each seat is dealt a secret card,
a number from 1 to 3, seen only by its holder until the end. Seats take turns in seat order,
from seat 0; a turn takes 1, 2 or 3 stones (never more than the pile holds). The game ends
when the pile is empty. A seat scores the stones it took, and 3 more if it took the last
stone with a take equal to its secret card. Places by score, ties shared. A seat that
forfeits is skipped from then on and keeps its score; when one seat is left it takes the
rest of the pile in one go (its last take counts for its bonus as any other).

Notation: ``take 2``. Record: ``Secret Nim record``, ``Key: value`` header lines, a blank
line, then one line per take, ``<seat> take <n>``, or ``<seat> forfeit``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.game import OptionSpec, Outcome, RecordHeader, Seat, resolve_options


class NimError(ValueError):
    """Anything the toy game refuses (bad notation, an illegal take, not your turn)."""


@dataclass(frozen=True)
class Take:
    """Take ``n`` stones (1 to 3)."""

    n: int


@dataclass(frozen=True)
class NimState:
    """``pile``: stones left; ``turn``: the seat to take; ``cards``: each seat's secret
    card; ``taken``: stones taken per seat; ``out``: seats that forfeited; ``last``: (seat,
    take) of the last take, or None."""

    pile: int
    turn: int
    cards: tuple[int, ...]
    taken: tuple[int, ...]
    out: frozenset[int] = frozenset()
    last: tuple[int, int] | None = None

    @property
    def seats(self) -> int:
        return len(self.cards)


@dataclass(frozen=True)
class NimView:
    """What a seat (or, ``viewer`` None, a spectator) knows: everything but the other
    seats' cards until the end (``cards`` has None for those)."""

    viewer: int | None
    pile: int
    turn: int | None
    cards: tuple[int | None, ...]
    taken: tuple[int, ...]
    out: frozenset[int]
    over: bool


class SecretNim:
    """The :class:`engine.game.Game` of secret Nim."""

    name = "nim"
    min_seats = 2
    max_seats = 4
    options = (OptionSpec("pile", ("10", "15", "21"), "15"),)

    def new_game(self, seed: int, seats: int, options: Mapping[str, str]) -> NimState:
        if not self.min_seats <= seats <= self.max_seats:
            raise NimError(f"secret Nim is played by 2 to 4 players, not {seats}")
        opts = resolve_options(self.options, options)
        rng = random.Random(f"nim:{seed}")
        cards = tuple(rng.randint(1, 3) for _ in range(seats))
        return NimState(int(opts["pile"]), 0, cards, (0,) * seats)

    def to_act(self, state: NimState) -> frozenset[Seat]:
        return frozenset() if state.pile == 0 else frozenset({state.turn})

    def legal_actions(self, state: NimState, seat: Seat) -> list[Take]:
        if seat not in self.to_act(state):
            return []
        if len(state.out) == state.seats - 1:
            return [Take(state.pile)]  # the last seat left takes the rest
        return [Take(n) for n in (1, 2, 3) if n <= state.pile]

    def apply(self, state: NimState, seat: Seat, action: Take) -> NimState:
        if seat not in self.to_act(state):
            raise NimError(f"it is seat {state.turn}'s turn, not seat {seat}'s")
        legal = self.legal_actions(state, seat)
        if action not in legal:
            raise NimError(f"you cannot take {action.n}: take "
                           f"{' or '.join(str(a.n) for a in legal)}")
        taken = list(state.taken)
        taken[seat] += action.n
        after = replace(state, pile=state.pile - action.n, taken=tuple(taken),
                        last=(seat, action.n))
        return replace(after, turn=self._next(after, seat))

    def _next(self, state: NimState, seat: Seat) -> int:
        for step in range(1, state.seats + 1):
            nxt = (seat + step) % state.seats
            if nxt not in state.out:
                return nxt
        return seat

    def view(self, state: NimState, seat: Seat | None) -> NimView:
        over = self.is_over(state)
        cards = tuple(c if over or i == seat else None for i, c in enumerate(state.cards))
        return NimView(seat, state.pile, None if over else state.turn, cards, state.taken,
                       state.out, over)

    def is_over(self, state: NimState) -> bool:
        return state.pile == 0

    def scores(self, state: NimState) -> tuple[int, ...]:
        """Stones taken, plus 3 for the seat that took the last stone with its card's
        number."""
        bonus = [0] * state.seats
        if state.pile == 0 and state.last is not None:
            seat, n = state.last
            bonus[seat] = 3 if state.cards[seat] == n else 0
        return tuple(t + b for t, b in zip(state.taken, bonus, strict=True))

    def outcome(self, state: NimState) -> Outcome | None:
        if not self.is_over(state):
            return None
        return Outcome.by_scores(self.scores(state), "pile_empty")

    def forfeit(self, state: NimState, seat: Seat) -> NimState | None:
        if self.is_over(state) or seat in state.out:
            return state
        after = replace(state, out=state.out | {seat})
        if state.turn == seat:
            after = replace(after, turn=self._next(after, seat))
        return after

    def turn(self, state: NimState, seat: Seat) -> None:
        return None

    def may_undo(self, before: NimState, after: NimState, seat: Seat) -> bool:
        return False

    def parse_action(self, text: str, state: NimState, seat: Seat) -> Take:
        words = text.split()
        if len(words) != 2 or words[0].lower() != "take" or not words[1].isdigit():
            raise NimError(f"{text!r} is not a take: write it as 'take 2'")
        action = Take(int(words[1]))
        if action not in self.legal_actions(state, seat):
            legal = self.legal_actions(state, seat)
            raise NimError(f"you cannot take {action.n} now" + (
                f": take {' or '.join(str(a.n) for a in legal)}" if legal else
                ": it is not your turn"))
        return action

    def format_action(self, action: Take) -> str:
        return f"take {action.n}"

    def action_to_json(self, action: Take) -> str:
        return json.dumps({"take": action.n})

    def action_from_json(self, text: str) -> Take:
        try:
            return Take(int(json.loads(text)["take"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise NimError(f"not a take: {text!r}") from exc

    def state_to_json(self, state: NimState) -> str:
        return json.dumps({"pile": state.pile, "turn": state.turn, "cards": state.cards,
                           "taken": state.taken, "out": sorted(state.out),
                           "last": state.last}, sort_keys=True)

    def state_from_json(self, text: str) -> NimState:
        d = json.loads(text)
        return NimState(d["pile"], d["turn"], tuple(d["cards"]), tuple(d["taken"]),
                        frozenset(d["out"]), None if d["last"] is None else tuple(d["last"]))

    def replay(self, seed: int, seats: int, options: Mapping[str, str],
               log: Iterable[tuple[Seat, Take | None]]) -> NimState:
        state = self.new_game(seed, seats, options)
        for seat, action in log:
            state = (self.forfeit(state, seat) if action is None
                     else self.apply(state, seat, action))
        return state

    def write_record(self, seed: int, seats: int, options: Mapping[str, str],
                     log: Sequence[tuple[Seat, Take | None]], header: RecordHeader) -> str:
        state = self.replay(seed, seats, options, log)
        if not self.is_over(state) and header.ending is None:
            raise NimError("the game is still in progress: only a finished game has a record")
        lines = ["Secret Nim record", f"Seed: {seed}", f"Seats: {seats}",
                 f"Pile: {resolve_options(self.options, options)['pile']}",
                 f"Players: {' | '.join(header.players)}",
                 f"Ending: {header.ending or 'pile_empty'}", ""]
        lines += [f"{seat} {'forfeit' if a is None else self.format_action(a)}"
                  for seat, a in log]
        return "\n".join(lines) + "\n"

    def read_record(self, text: str) -> NimState:
        head, _, body = text.partition("\n\n")
        fields = dict(line.split(": ", 1) for line in head.splitlines()[1:])
        seats = int(fields["Seats"])
        log = []
        for line in body.splitlines():
            seat, _, notation = line.partition(" ")
            if notation == "forfeit":
                log.append((int(seat), None))
                continue
            log.append((int(seat), self.parse_action(notation, self.replay(
                int(fields["Seed"]), seats, {"pile": fields["Pile"]}, log), int(seat))))
        return self.replay(int(fields["Seed"]), seats, {"pile": fields["Pile"]}, log)


NIM = SecretNim()
