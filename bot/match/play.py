"""Playing a match: one decision at a time (act, undo), the AI's turns, and the action log
and its replay.

Storage rules (see :mod:`bot.storage.schema` for the tables):

- An action is applied with :func:`engine.apply`, then the new state and the log record are
  written in ONE statement, guarded by the match's ``version``
  (``UPDATE ... WHERE id = ? AND version = ?``): of two simultaneous saves only one
  changes the row. The other decision is applied again to the position now stored, if it
  still applies there (:meth:`PlayService.act`: the simultaneous card pick, R5.1, loses
  neither pick), else it is refused with a sentence that says what changed. The seed plus
  the log rebuild the stored state (:meth:`PlayService.replayed_state`).
- ``version`` increments on every change to the game: an action, an undo, the end of the
  match. Draw offers and reminder flags do not change it, so a button made for the current
  position stays valid while a draw is offered.
- Undo: only the acting side's own action-point actions of the current AP phase (R5.5) can be
  undone. They involve no chance, so undoing one is the same as replaying without it; the log
  keeps the action and appends an undo record. A card pick, an effect or anything that
  ended the AP phase (and so drew cards) cannot be undone.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import weakref
from collections.abc import Callable
from dataclasses import replace

import engine
from engine import Action, GameState, Phase, Side
from engine.messages import Text

from . import deadlines
from .claim_store import ClaimTarget
from .context import MatchContext
from .models import (
    SIDE_WORDS,
    SIDES,
    ActResult,
    InvalidRequestError,
    LogEntry,
    LogKind,
    Match,
    MatchFinishedError,
    MatchStatus,
    NotFoundError,
    NotYourTurnError,
    StaleError,
    effective_log,
)
from .results import record_result

log = logging.getLogger(__name__)

MAX_AI_STEPS = 10_000  # a safety valve for play_ai; a real game is far shorter
#: Saves of one decision tried at most by :meth:`PlayService.act`, each on the newest stored
#: position: a save loses only to another step that was saved, and a card pick has one
#: other side to lose to (R5.1).
SAVE_ATTEMPTS = 4

_DOING = {
    Phase.SETUP_MOTHER: Text("to place the mother"),
    Phase.SETUP_BABIES: Text("to place the babies"),
    Phase.SETUP_SCIENTISTS: Text("to place the scientists"),
    Phase.PICK: Text("to pick a card"),
    Phase.EFFECT: Text("to resolve their card's effect"),
    Phase.AP: Text("to spend their action points"),
    Phase.MOTHER_RETURN: Text("to put the mother back on the board"),
}


def _waiting_text(state: GameState) -> Text:
    acting = sorted(engine.to_act(state))
    doing = _DOING.get(state.phase, Text("to decide"))
    if len(acting) > 1:
        return Text("waiting for the raptor and scientist players {doing}", doing=doing)
    return Text("waiting for the {side} player {doing}", side=SIDE_WORDS[acting[0]],
                doing=doing)


def _not_your_turn(state: GameState, side: Side) -> NotYourTurnError:
    """The refusal of a decision by ``side``, which has nothing to decide in ``state``:
    who is awaited instead, or that nobody is (the game is over)."""
    if not engine.to_act(state):
        return NotYourTurnError("The game is over: nobody has anything left to decide.")
    if state.phase is Phase.PICK and state.picks.get(side) is not None:
        return NotYourTurnError(Text("You have already picked your card: {waiting}.",
                                     waiting=_waiting_text(state)))
    return NotYourTurnError(Text("It's not your turn: {waiting}.", waiting=_waiting_text(state)))


def _only_the_other_picked(m: Match, side: Side, version: int) -> bool:
    """Whether all that changed in ``m`` since ``version`` is the other side's pick in the
    simultaneous card pick (R5.1) that ``side`` still has to make: one step later, the
    same pick (no observation, R5.2: the other pick is not shown), the other side's pick
    made and ``side``'s not. A decision of ``side`` made at ``version`` could not depend on
    that hidden pick, so it still applies."""
    s = m.state
    return (m.version == version + 1 and s.phase is Phase.PICK and not s.observation
            and s.picks[side] is None and s.picks[side.other] is not None)


def _still_applies(m: Match, side: Side, decision: Action | str,
                   expected_version: int | None) -> Action | None:
    """The action of ``decision`` (an action, or its notation) to play for ``side`` in the
    match ``m`` as stored now, after the save of that decision lost to another step; None
    when it no longer applies: ``side`` has nothing to decide, the decision is not legal
    any more, or it was made at ``expected_version`` and more changed since than the other
    side's pick (:func:`_only_the_other_picked`). Without ``expected_version`` the decision
    is taken as if it had arrived a moment later."""
    state = m.state
    if expected_version is not None and not _only_the_other_picked(m, side, expected_version):
        return None
    if side not in engine.to_act(state):
        return None
    try:
        action = (engine.parse_action(decision, state, side) if isinstance(decision, str)
                  else decision)
    except engine.RaptorError:
        return None
    return action if action in engine.legal_actions(state, side) else None


class _SaveLost(Exception):
    """The versioned save of a step changed no row: another step of the match was saved
    first (or the match ended) since it was loaded."""


def ai_seed(match_seed: int, log_length: int, side: Side) -> int:
    """A 63-bit seed for one AI decision, derived one-way from the hidden match seed (the AI
    cannot recover deck orders from it)."""
    digest = hashlib.blake2b(f"raptor-ai:{match_seed}:{log_length}:{side.value}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class PlayService:
    """Decisions in a match, by people and by the AI.

    Args:
        ai_time_budget: seconds of thinking per AI decision, passed to the AI.
        ai_chooser: the AI's ``choose_action(view, *, level, seed, time_budget) -> Action``;
            by default ``bot.ai.choose_action``, imported on first use.
        ai_iterations: when given, the AI's fixed work per decision instead of its clock
            (``iterations`` of :func:`bot.ai.choose_action`, passed to the chooser as
            ``iterations=``): its play is then the same on any machine, however loaded.
    """

    def __init__(self, ctx: MatchContext, *, ai_time_budget: float = 2.0,
                 ai_chooser: Callable[..., Action] | None = None,
                 ai_iterations: int | None = None) -> None:
        self.ctx = ctx
        self.ai_time_budget = ai_time_budget
        self.ai_iterations = ai_iterations
        self._ai_chooser = ai_chooser
        self._ai_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    async def act(self, match_id: int, user_id: int, action: Action | str, *,
                  expected_version: int | None = None,
                  side: Side | str | None = None) -> ActResult:
        """Play one decision for ``user_id`` and save it.

        Another step saved between loading the match and saving this decision (the other
        player's card pick at the same moment, R5.1) makes the versioned save change
        nothing; the match is then loaded again and the decision applied to the position
        now stored, if it still applies there (:func:`_still_applies`; at most
        :data:`SAVE_ATTEMPTS` saves): so neither of two simultaneous picks is lost.

        Args:
            action: an :data:`engine.Action` or its notation (``engine.parse_action``).
            expected_version: the match version the decision was made on (e.g. carried by a
                button); a different stored version raises :class:`StaleError`, unless all
                that changed since is the other side's pick of the card pick that this side
                still has to make (:func:`_only_the_other_picked`).
            side: the side to act for (needed only when one user plays both sides).

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
            NotYourTurnError: the side has nothing to decide now.
            engine.RaptorError: (unchanged from the engine) bad notation, an illegal or
                ambiguous action.
        """
        decision = action
        m, timeout = await self.ctx.match(match_id)
        side = m.acting_side(user_id, side)
        if (expected_version is not None and expected_version != m.version
                and not _only_the_other_picked(m, side, expected_version)):
            raise StaleError("Already done: this position has changed since, so that choice "
                             "no longer applies. Look at the latest message.")
        state = m.state
        if side not in engine.to_act(state):
            raise _not_your_turn(state, side)
        if isinstance(action, str):
            action = engine.parse_action(action, state, side)
        for _ in range(SAVE_ATTEMPTS):
            new = engine.apply(m.state, side, action)
            now = self.ctx.clock()
            deadline, remind = deadlines.timing(m.state, new, m.ai, now, timeout,
                                                m.deadline_at, m.remind_at)
            try:
                after = await self._save_step(m, side, LogKind.ACTION, action, new, now,
                                              deadline, remind)
            except _SaveLost:
                m, timeout = await self.ctx.match(match_id)
                m.acting_side(user_id, side)  # MatchFinishedError if it ended meanwhile
                again = _still_applies(m, side, decision, expected_version)
                if again is None:
                    raise await self._changed_meanwhile(m, side) from None
                action = again
                continue
            return ActResult(after, side, action, new.events,
                             any(e.kind == "round_end" for e in new.events), new.is_over)
        raise await self._changed_meanwhile(m, side)

    async def _changed_meanwhile(self, m: Match, side: Side) -> StaleError:
        """The refusal of a decision of ``side`` that no longer applies to ``m``, whose
        position a step saved at the same moment changed: says whose step it was."""
        last = await self.ctx.matches.last_side(m.id)
        if last is side:
            return StaleError("Already done: your other decision at the same moment was saved "
                              "first, so this one was not played. Look at the latest message.")
        return StaleError(Text("Not played: the {side} player acted at the same moment and "
                               "changed the position, so your choice no longer applies. Look "
                               "at the latest message and choose again.",
                               side=SIDE_WORDS[side.other if last is None else last]))

    async def _save_step(self, m: Match, side: Side, kind: LogKind, action: Action,
                         new: GameState, now: float, deadline: float | None,
                         remind: float | None) -> Match:
        """Save a new state and its log record in one statement, if ``m.version`` is still
        the stored one; finish and rate the match if the game is over (one transaction).
        Returns the match as saved.

        Raises:
            _SaveLost: ``m.version`` is not the stored version any more (or the match is
                not active): nothing was saved.
        """
        keep_reminder = remind is not None and remind == m.remind_at and m.reminded
        result: str | None = None
        reason: engine.Reason | None = None
        status = MatchStatus.ACTIVE
        if new.is_over:
            status, result, reason = MatchStatus.FINISHED, new.winner.value, new.reason
            deadline = remind = None
        text = new.to_json()
        update = self.ctx.matches.step_update(m, side, kind, action, text, now, deadline,
                                              remind, keep_reminder, status, result,
                                              None if reason is None else reason.value)
        if status == MatchStatus.ACTIVE:
            if await self.ctx.db.write(*update) != 1:
                raise _SaveLost
        else:  # the last step and the result (and ratings) in one transaction
            assert reason is not None
            async with self.ctx.db.transaction() as tx:
                if await tx.execute(*update) != 1:
                    raise _SaveLost
                await record_result(self.ctx.results, tx, m, result, reason, now)
        self.ctx.matches.states.put(m.id, text, new)
        return replace(m, state=new, version=m.version + 1, log_length=m.log_length + 1,
                       updated_at=now, last_activity=now, deadline_at=deadline,
                       remind_at=remind, reminded=keep_reminder, draw_offered_by=None,
                       status=status, result=result, reason=reason)

    async def undo(self, match_id: int, user_id: int, *,
                   expected_version: int | None = None) -> Match:
        """Take back the user's last action-point action of the current AP phase (R5.5).

        Appends an undo record; the stored state becomes the replay without that
        action. Clears a standing draw offer.

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError, StaleError (the position
            changed since ``expected_version``, or a decision saved at the same moment
            changed it: nothing was undone; not tried again, since the last action may
            then be another one).
            InvalidRequestError: nothing to undo (not the user's AP phase, or no action of
                this AP phase yet).
        """
        m, timeout = await self.ctx.match(match_id)
        state = m.state
        side = m.side_of(user_id)
        if side is not None and state.phase is Phase.AP and m.players[state.ap.side] == user_id:
            side = state.ap.side
        side = m.acting_side(user_id, side)
        if expected_version is not None and expected_version != m.version:
            raise StaleError("Already done: this position has changed since.")
        nothing = InvalidRequestError("There is nothing to undo: you can only take back your "
                                      "own action-point moves of the current turn.")
        if state.phase is not Phase.AP or state.ap.side is not side:
            raise nothing
        effective = effective_log(await self.ctx.matches.log(match_id))
        if not effective or effective[-1].side is not side:
            raise nothing
        last = effective[-1]
        before = engine.replay(m.seed, m.options, [(e.side, e.action) for e in effective[:-1]])
        if (before.phase is not Phase.AP or before.ap.side is not side
                or before.round != state.round):
            raise nothing
        now = self.ctx.clock()
        deadline, remind = deadlines.timing(state, before, m.ai, now, timeout, m.deadline_at,
                                            m.remind_at)
        try:
            return await self._save_step(m, side, LogKind.UNDO, last.action, before, now,
                                         deadline, remind)
        except _SaveLost:
            raise StaleError("Nothing was undone: another decision was saved in this match "
                             "at the same moment. Look at the latest message.") from None

    # ------------------------------------------------------------------ AI
    def _chooser(self) -> Callable[..., Action]:
        if self._ai_chooser is None:
            from bot import ai  # lazy: the AI is heavy and optional for storage users

            self._ai_chooser = ai.choose_action
        return self._ai_chooser

    async def matches_waiting_for_ai(self) -> list[int]:
        """Ids of active matches of this process's shards where an AI side must act now
        (call :meth:`play_ai` on each after a restart)."""
        return [m.id for m in await self.ctx.matches.active_with_ai()
                if self.ctx.shards.owns(m.guild_id)
                and any(m.ai[s] is not None for s in engine.to_act(m.state))]

    async def play_ai(self, match_id: int, *, max_steps: int | None = None
                      ) -> list[ActResult]:
        """Let the AI act while an AI-controlled side must decide (at most ``max_steps``
        actions if given); returns what it did (empty if no AI side is to act).

        The AI decides from its own :func:`engine.view` only (in the simultaneous pick it never
        sees the human's pick), in a worker thread, with a seed derived one-way from the match
        seed and the log length. Calls for one match take turns; across processes, the
        match is claimed first (renewed at each decision, released at the end): while
        another process holds the claim this returns ``[]``, and once the claim of a process
        that died runs out another one takes over (:meth:`abandoned_ai_matches`).

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
            sides = [s for s in SIDES if s in engine.to_act(m.state) and m.ai[s] is not None]
            if not sides:
                if m.ai_failures or m.ai_retry_at is not None:  # no decision owed any more
                    await self.ctx.matches.clear_ai_failures(match_id)
                break
            if not await self.ctx.claim(ClaimTarget.MATCH, match_id):
                break
            side = sides[0]
            choose = self._chooser()
            work = {} if self.ai_iterations is None else {"iterations": self.ai_iterations}
            action = await asyncio.to_thread(
                choose, engine.view(m.state, side), level=m.ai[side],
                seed=ai_seed(m.seed, m.log_length, side), time_budget=self.ai_time_budget,
                **work)
            try:
                res = await self.act(match_id, m.players[side], action,
                                     expected_version=m.version, side=side)
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
        """Every log record, undo records included, in order.

        Raises:
            NotFoundError: no such match.
        """
        await self.ctx.match(match_id)
        return await self.ctx.matches.log(match_id)

    async def action_log(self, match_id: int) -> list[tuple[int, Side, Action]]:
        """The effective actions ``(seq, side, action)`` in order: undone actions left out.

        Raises:
            NotFoundError: no such match.
        """
        return [(e.seq, e.side, e.action) for e in effective_log(await self.raw_log(match_id))]

    async def replayed_state(self, match_id: int) -> GameState:
        """The state rebuilt by :func:`engine.replay` from the seed and the effective log; it
        equals the stored ``Match.state``.

        Raises:
            NotFoundError; engine.RaptorError or RuntimeError for a corrupt log.
        """
        m, _ = await self.ctx.match(match_id)
        effective = effective_log(await self.ctx.matches.log(match_id))
        return engine.replay(m.seed, m.options, [(e.side, e.action) for e in effective])
