"""Playing a match: one decision at a time (act, undo), the AI's turns, and the action log
and its replay. Any game: its rules are reached through its plug-in (:mod:`bot.games`).

Storage rules (see :mod:`bot.storage.schema` for the tables):

- An action is applied with the game's ``apply``, then the new state and the log record are
  written in ONE statement, guarded by the match's ``version``
  (``UPDATE ... WHERE id = ? AND version = ?``, :mod:`bot.match.steps`): of two simultaneous
  saves only one changes the row. The other decision is applied again to the position now
  stored, if it still applies there (:meth:`PlayService.act`: a simultaneous decision such
  as Raptor's card pick, R5.1, loses neither pick), else it is refused with a sentence that
  says what changed. The seed plus the log rebuild the stored state
  (:meth:`PlayService.replayed_state`).
- ``version`` increments on every change to the game: an action, an undo, a forfeit, the
  end of the match. Draw offers and reminder flags do not change it, so a button made for
  the current position stays valid while a draw is offered.
- Undo: a seat's own last decision, when its game allows taking it back
  (:meth:`engine.game.Game.may_undo`: only decisions that involve no chance). Undoing one is
  the same as replaying without it; the log keeps the action and appends an undo record.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.game import Seat
from engine.messages import Text

from .. import games
from . import deadlines
from .claim_store import ClaimTarget
from .context import MatchContext
from .models import (
    ActResult,
    InvalidRequestError,
    LogEntry,
    LogKind,
    Match,
    MatchFinishedError,
    NotFoundError,
    NotYourTurnError,
    StaleError,
    effective_log,
)
from .steps import SaveLost, save_step

log = logging.getLogger(__name__)

MAX_AI_STEPS = 10_000  # a safety valve for play_ai; a real game is far shorter
#: Saves of one decision tried at most by :meth:`PlayService.act`, each on the newest stored
#: position: a save loses only to another step that was saved, and a simultaneous decision
#: has as many other seats to lose to.
SAVE_ATTEMPTS = 4


def _only_others_secret(m: Match, seat: Seat, version: int) -> bool:
    """Whether all that changed in ``m`` since ``version`` is one other seat's secret
    decision of a simultaneous choice that ``seat`` still has to make (one step later,
    :meth:`~bot.games.base.GamePlugin.others_secret_only`): a decision of ``seat`` made at
    ``version`` could not depend on it, so it still applies."""
    return (m.version == version + 1
            and games.plugin(m.game).others_secret_only(m.state, seat))


def _still_applies(m: Match, seat: Seat, decision: Any,
                   expected_version: int | None) -> Any | None:
    """The action of ``decision`` (an action, or its notation) to play for ``seat`` in the
    match ``m`` as stored now, after the save of that decision lost to another step; None
    when it no longer applies: ``seat`` has nothing to decide, the decision is not legal
    any more, or it was made at ``expected_version`` and more changed since than another
    seat's secret decision (:func:`_only_others_secret`). Without ``expected_version`` the
    decision is taken as if it had arrived a moment later."""
    plugin = games.plugin(m.game)
    rules = plugin.game
    state = m.state
    if expected_version is not None and not _only_others_secret(m, seat, expected_version):
        return None
    if seat not in rules.to_act(state):
        return None
    try:
        action = (rules.parse_action(decision, state, seat) if isinstance(decision, str)
                  else decision)
    except plugin.errors:
        return None
    return action if action in rules.legal_actions(state, seat) else None


def ai_seed(game: str, match_seed: int, log_length: int, seat_key: str) -> int:
    """A 63-bit seed for one AI decision, derived one-way from the hidden match seed (the AI
    cannot recover deck orders from it)."""
    digest = hashlib.blake2b(f"{game}-ai:{match_seed}:{log_length}:{seat_key}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class PlayService:
    """Decisions in a match, by people and by the AI.

    Args:
        ai_time_budget: seconds of thinking per AI decision, passed to the AI.
        ai_chooser: ``choose_action(view, *, level, seed, time_budget) -> action`` for
            every game (tests); by default each game's AI
            (:meth:`~bot.games.base.GamePlugin.chooser`), imported on first use.
        ai_iterations: when given, the AI's fixed work per decision instead of its clock
            (passed to the chooser as ``iterations=``): its play is then the same on any
            machine, however loaded.
    """

    def __init__(self, ctx: MatchContext, *, ai_time_budget: float = 2.0,
                 ai_chooser: Callable[..., Any] | None = None,
                 ai_iterations: int | None = None) -> None:
        self.ctx = ctx
        self.ai_time_budget = ai_time_budget
        self.ai_iterations = ai_iterations
        self._ai_chooser = ai_chooser
        self._ai_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    async def act(self, match_id: int, user_id: int, action: Any, *,
                  expected_version: int | None = None,
                  seat: Seat | None = None) -> ActResult:
        """Play one decision for ``user_id`` and save it.

        Another step saved between loading the match and saving this decision (another
        seat's decision of a simultaneous choice at the same moment, R5.1) makes the
        versioned save change nothing; the match is then loaded again and the decision
        applied to the position now stored, if it still applies there
        (:func:`_still_applies`; at most :data:`SAVE_ATTEMPTS` saves): so neither of two
        simultaneous picks is lost.

        Args:
            action: an action of the match's game, or its notation (the game's
                ``parse_action``).
            expected_version: the match version the decision was made on (e.g. carried by a
                button); a different stored version raises :class:`StaleError`, unless all
                that changed since is another seat's secret decision of a simultaneous
                choice that this seat still has to make (:func:`_only_others_secret`).
            seat: the seat to act for (needed only when one user plays several).

        Returns:
            The :class:`ActResult`. When the action ends the game, the match is finished and
            the result recorded (and rated) in the same transaction. (A call cancelled while
            saving may still have saved its step, whole: reload the match to know.)

        Raises:
            NotFoundError, NotAPlayerError.
            MatchFinishedError: the match is over (or ended while this was saved).
            StaleError: the position changed since ``expected_version``; or a decision
                saved at the same moment changed the position so that this one no longer
                applies (the sentence says whose it was); nothing was saved.
            NotYourTurnError: the seat has nothing to decide now.
            ValueError: (the game's own refusal, one of its plug-in's ``errors``) bad
                notation, an illegal or ambiguous action.
        """
        decision = action
        m, timeout = await self.ctx.match(match_id)
        seat = m.acting_seat(user_id, seat)
        plugin = games.plugin(m.game)
        rules = plugin.game
        if (expected_version is not None and expected_version != m.version
                and not _only_others_secret(m, seat, expected_version)):
            raise StaleError("Already done: this position has changed since, so that choice "
                             "no longer applies. Look at the latest message.")
        state = m.state
        if seat not in rules.to_act(state):
            raise NotYourTurnError(plugin.waiting_text(state, seat, m.seats))
        if isinstance(action, str):
            action = rules.parse_action(action, state, seat)
        for _ in range(SAVE_ATTEMPTS):
            new = rules.apply(m.state, seat, action)
            now = self.ctx.clock()
            deadline, remind = deadlines.timing(rules, m.state, new,
                                                [p.ai for p in m.players], now, timeout,
                                                m.deadline_at, m.remind_at)
            try:
                after = await save_step(self.ctx, m, seat, LogKind.ACTION, action, new, now,
                                        deadline, remind)
            except SaveLost:
                m, timeout = await self.ctx.match(match_id)
                m.acting_seat(user_id, seat)  # MatchFinishedError if it ended meanwhile
                again = _still_applies(m, seat, decision, expected_version)
                if again is None:
                    raise await self._changed_meanwhile(m, seat) from None
                action = again
                continue
            return ActResult(after, seat, action, not after.active)
        raise await self._changed_meanwhile(m, seat)

    async def _changed_meanwhile(self, m: Match, seat: Seat) -> StaleError:
        """The refusal of a decision of ``seat`` that no longer applies to ``m``, whose
        position a step saved at the same moment changed: says whose step it was."""
        last = await self.ctx.matches.last_seat(m.id)
        if last == seat:
            return StaleError("Already done: your other decision at the same moment was saved "
                              "first, so this one was not played. Look at the latest message.")
        plugin = games.plugin(m.game)
        other = (last if last is not None
                 else next((s for s in range(m.seats) if s != seat), seat))
        return StaleError(Text("Not played: the {side} player acted at the same moment and "
                               "changed the position, so your choice no longer applies. Look "
                               "at the latest message and choose again.",
                               side=plugin.seat_name(other, m.seats)))

    async def undo(self, match_id: int, user_id: int, *,
                   expected_version: int | None = None) -> Match:
        """Take back the user's last decision when its game allows it
        (:meth:`engine.game.Game.may_undo`; Raptor: an action-point action of the current
        AP phase, R5.5).

        Appends an undo record; the stored state becomes the replay without that
        action. Clears a standing draw offer.

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError, StaleError (the position
            changed since ``expected_version``, or a decision saved at the same moment
            changed it: nothing was undone; not tried again, since the last action may
            then be another one).
            InvalidRequestError: nothing to undo (the user's last decision is not theirs
                to take back now).
        """
        m, timeout = await self.ctx.match(match_id)
        plugin = games.plugin(m.game)
        rules = plugin.game
        state = m.state
        acting = rules.to_act(state) if m.active else frozenset()
        seat = next((s for s in m.seats_of(user_id) if s in acting), None)
        seat = m.acting_seat(user_id, seat)
        if expected_version is not None and expected_version != m.version:
            raise StaleError("Already done: this position has changed since.")
        nothing = InvalidRequestError(plugin.nothing_to_undo)
        if seat not in acting:
            raise nothing
        effective = effective_log(await self.ctx.matches.log(m))
        if not effective or effective[-1].seat != seat or effective[-1].kind != LogKind.ACTION:
            raise nothing
        last = effective[-1]
        before = rules.replay(m.seed, m.seats, m.options,
                              [(e.seat, e.action) for e in effective[:-1]])
        if not rules.may_undo(before, state, seat):
            raise nothing
        now = self.ctx.clock()
        deadline, remind = deadlines.timing(rules, state, before, [p.ai for p in m.players],
                                            now, timeout, m.deadline_at, m.remind_at)
        try:
            return await save_step(self.ctx, m, seat, LogKind.UNDO, last.action, before, now,
                                   deadline, remind)
        except SaveLost:
            raise StaleError("Nothing was undone: another decision was saved in this match "
                             "at the same moment. Look at the latest message.") from None

    # ------------------------------------------------------------------ AI
    def _chooser(self, m: Match) -> Callable[..., Any]:
        if self._ai_chooser is not None:
            return self._ai_chooser
        return games.plugin(m.game).chooser()

    async def matches_waiting_for_ai(self) -> list[int]:
        """Ids of active matches of this process's shards where an AI seat must act now
        (call :meth:`play_ai` on each after a restart)."""
        return [m.id for m in await self.ctx.matches.active_with_ai()
                if self.ctx.shards.owns(m.guild_id)
                and any(m.ai_of(s) is not None for s in m.to_act())]

    async def play_ai(self, match_id: int, *, max_steps: int | None = None
                      ) -> list[ActResult]:
        """Let the AI act while an AI seat must decide (at most ``max_steps`` actions if
        given); returns what it did (empty if no AI seat is to act).

        The AI decides from its own seat's view only (:meth:`engine.game.Game.view`: in a
        simultaneous decision it never sees the others'), in a worker thread, with a seed
        derived one-way from the match seed and the log length. Calls for one match take
        turns; across processes, the match is claimed first (renewed at each decision,
        released at the end): while another process holds the claim this returns ``[]``,
        and once the claim of a process that died runs out another one takes over
        (:meth:`abandoned_ai_matches`).

        When the AI (or anything on its way) raises, the failure is counted in the match and
        a retry time stored (:func:`deadlines.ai_retry_at`: 5, 10, 20 s after failures 1, 2,
        3 in a row), which :meth:`ai_retries_due` then lists for the timer loop; after
        :data:`~bot.match.deadlines.AI_FAILURE_LIMIT` failures in a row the timers end the
        match without a result (:meth:`TimerService.process_timers`). A decision made resets
        the count.

        Raises:
            NotFoundError; whatever the AI raises (after counting it).
        """
        lock = self._ai_locks.get(match_id)
        if lock is None:
            lock = self._ai_locks[match_id] = asyncio.Lock()
        results: list[ActResult] = []
        limit = MAX_AI_STEPS if max_steps is None else max_steps
        async with lock:
            try:
                await self._play_ai_claimed(match_id, limit, results)
            except NotFoundError:
                raise
            except Exception:
                await self._ai_failed(match_id)
                raise
            finally:
                await self.ctx.release(ClaimTarget.MATCH, match_id)
        return results

    async def _ai_failed(self, match_id: int) -> None:
        """Count a failure of the AI in the active match and store when it is tried again
        (:func:`deadlines.ai_retry_at`). A failure to store it is logged, not raised: the
        AI's own error is the one the caller gets."""
        try:
            m, _ = await self.ctx.match(match_id)
            if m.active:
                failures = m.ai_failures + 1
                await self.ctx.matches.set_ai_failures(
                    match_id, failures, deadlines.ai_retry_at(failures, self.ctx.clock()))
        except Exception:
            log.exception("match %d: counting the AI's failure failed", match_id)

    async def ai_retries_due(self) -> list[int]:
        """Ids of active matches of this process's shards whose AI failed and is due to be
        tried again now (fewer than :data:`~bot.match.deadlines.AI_FAILURE_LIMIT` failures
        in a row, not claimed by a live process): call :meth:`play_ai` on each."""
        due = await self.ctx.matches.ai_retries_due(self.ctx.clock(),
                                                    deadlines.AI_FAILURE_LIMIT)
        return [m.id for m in due if self.ctx.shards.owns(m.guild_id)]

    async def _play_ai_claimed(self, match_id: int, limit: int,
                               results: list[ActResult]) -> None:
        """The loop of :meth:`play_ai`, each decision under this process's claim."""
        for _ in range(MAX_AI_STEPS):
            if len(results) >= limit:
                break
            m, _ = await self.ctx.match(match_id)
            if not m.active:
                break
            seats = [s for s in sorted(m.to_act()) if m.ai_of(s) is not None]
            if not seats:
                if m.ai_failures or m.ai_retry_at is not None:  # no decision owed any more
                    await self.ctx.matches.clear_ai_failures(match_id)
                break
            if not await self.ctx.claim(ClaimTarget.MATCH, match_id):
                break
            seat = seats[0]
            plugin = games.plugin(m.game)
            choose = self._chooser(m)
            work = {} if self.ai_iterations is None else {"iterations": self.ai_iterations}
            action = await asyncio.to_thread(
                choose, plugin.game.view(m.state, seat), level=m.ai_of(seat),
                seed=ai_seed(m.game, m.seed, m.log_length, plugin.seat_key(seat)),
                time_budget=self.ai_time_budget, **work)
            try:
                res = await self.act(match_id, m.user_of(seat), action,
                                     expected_version=m.version, seat=seat)
            except (StaleError, MatchFinishedError):
                continue  # the match changed while the AI thought: look again
            if m.ai_failures or m.ai_retry_at is not None:  # it decided: failures forgotten
                await self.ctx.matches.clear_ai_failures(match_id)
                res = replace(res, match=replace(res.match, ai_failures=0, ai_retry_at=None))
            results.append(res)

    async def abandoned_ai_matches(self) -> list[int]:
        """Ids of active AI matches whose claim ran out without being given up (the process
        playing their AI died): :meth:`play_ai` takes them over."""
        return await self.ctx.claims.abandoned_ai_matches(self.ctx.clock())

    # ------------------------------------------------------------------ log
    async def raw_log(self, match_id: int) -> list[LogEntry]:
        """Every log record, undo and forfeit records included, in order.

        Raises:
            NotFoundError: no such match.
        """
        m, _ = await self.ctx.match(match_id)
        return await self.ctx.matches.log(m)

    async def action_log(self, match_id: int) -> list[tuple[int, Seat, Any]]:
        """The effective steps ``(seq, seat, action)`` in order: undone actions left out; a
        seat's forfeit has the action None.

        Raises:
            NotFoundError: no such match.
        """
        return [(e.seq, e.seat, e.action) for e in effective_log(await self.raw_log(match_id))]

    async def replayed_state(self, match_id: int) -> Any:
        """The state rebuilt by the game's ``replay`` from the seed and the effective log;
        it equals the stored ``Match.state``.

        Raises:
            NotFoundError; the game's error or RuntimeError for a corrupt log.
        """
        m, _ = await self.ctx.match(match_id)
        effective = effective_log(await self.ctx.matches.log(m))
        return games.plugin(m.game).game.replay(m.seed, m.seats, m.options,
                                                [(e.seat, e.action) for e in effective])
