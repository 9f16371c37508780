"""Stopping the running bot gracefully: on SIGTERM or SIGINT, within :data:`STOP_SECONDS`.

SIGTERM is how container runtimes (``docker stop``), service managers (``systemctl stop``) and
hosts stop a process; SIGINT is Ctrl-C. :func:`serve` runs the bot until one arrives, then
:meth:`bot.discord.app.RaptorBot.close` stops it in this order:

1. the :class:`Gate` closes: an interaction arriving from now on changes nothing and gets an
   ephemeral "the bot is stopping" answer (:data:`bot.texts.STOPPING`; an autocomplete gets
   an empty list of suggestions);
2. the interactions already admitted run to their end (:meth:`Gate.drain`, at most
   :data:`DRAIN_SECONDS`): their writes finish and their answers are posted. One still running
   then is cancelled; every save is one statement or one transaction, so a cancelled handler
   leaves no half-saved step (``bot.storage``);
3. the timer loop stops, then the render workers (``bot.discord.flow.Flow.stop``);
4. the Discord session closes (gateway and HTTP);
5. :func:`bot.discord.app.run` closes the database (after the write in flight, if any) and the
   process exits with status 0.

A second signal while stopping is only logged: the steps above are bounded in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator
from typing import Protocol

import discord
from discord import app_commands

from .. import texts

log = logging.getLogger(__name__)

#: Seconds the interactions in flight get to finish once a stop was asked for.
DRAIN_SECONDS = 5.0
#: Seconds from the signal to the end of the process (the promised limit; a container runtime
#: such as Docker kills the process 10 s after its SIGTERM by default).
STOP_SECONDS = 10.0
#: The signals that stop the bot.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Gate:
    """Admits interactions while the bot runs and remembers the tasks handling them; once
    :meth:`close`\\ d, admits none. One per bot (``bot.gate``)."""

    def __init__(self) -> None:
        self.stopping = False
        self._tasks: set[asyncio.Task[object]] = set()

    def admit(self) -> bool:
        """Called at the start of each interaction's handling, in the task that handles it.

        Returns:
            True while the bot runs; False once it is stopping (the caller then answers
            with :data:`bot.texts.STOPPING` and does nothing else). Either way the current
            task is remembered until it ends, so :meth:`drain` also waits for that answer.
        """
        task = asyncio.current_task()
        if task is not None and task not in self._tasks:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return not self.stopping

    def close(self) -> None:
        """Admit no new interaction from now on."""
        self.stopping = True

    @property
    def in_flight(self) -> int:
        """How many admitted (or refused but still answering) interactions are running."""
        return sum(1 for t in self._tasks if not t.done())

    async def drain(self, timeout: float = DRAIN_SECONDS) -> int:
        """Close the gate and wait up to ``timeout`` seconds for the interactions in flight
        (the calling task excepted) to end; cancel those still running then.

        Returns:
            How many were cancelled (0 when all finished in time).
        """
        self.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        me = asyncio.current_task()
        while True:
            pending = {t for t in self._tasks if t is not me and not t.done()}
            left = deadline - loop.time()
            if not pending or left <= 0:
                break
            await asyncio.wait(pending, timeout=left)
        for task in pending:
            task.cancel()
        if pending:
            log.warning("stopping: %d interactions still running after %.0f s were cancelled",
                        len(pending), timeout)
            await asyncio.wait(pending, timeout=1.0)
        return len(pending)


class RaptorTree(app_commands.CommandTree):
    """The bot's command tree: application commands and autocompletes pass the bot's
    :class:`Gate` first."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        gate: Gate = self.client.gate  # type: ignore[attr-defined]
        if gate.admit():
            return True
        if not interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                if interaction.type is discord.InteractionType.autocomplete:
                    await interaction.response.autocomplete([])
                else:
                    await interaction.response.send_message(
                        texts.STOPPING, ephemeral=True,
                        allowed_mentions=discord.AllowedMentions.none())
        return False


@contextlib.asynccontextmanager
async def stop_signals() -> AsyncIterator[asyncio.Event]:
    """While the block runs, SIGTERM and SIGINT set the yielded event instead of ending the
    process (the first one is logged at INFO, later ones as "already stopping").

    Where the event loop cannot take signal handlers (Windows, or not the main thread),
    nothing is installed: Ctrl-C then raises ``KeyboardInterrupt`` as usual.
    """
    loop = asyncio.get_running_loop()
    event = asyncio.Event()

    def on_signal(sig: signal.Signals) -> None:
        if event.is_set():
            log.info("%s received: already stopping", sig.name)
            return
        log.info("%s received: stopping", sig.name)
        event.set()

    installed = []
    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, on_signal, sig)
        except (NotImplementedError, RuntimeError, ValueError):
            continue
        installed.append(sig)
    try:
        yield event
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


class GatedBot(Protocol):
    """What :func:`serve` needs of the bot (:class:`bot.discord.app.RaptorBot`)."""

    gate: Gate

    async def start(self, token: str) -> None: ...

    async def close(self) -> None: ...


async def serve(bot: GatedBot, token: str, stop: asyncio.Event) -> None:
    """Run ``bot`` (``bot.start(token)``: log in, connect) until it ends by itself or
    ``stop`` is set; then close it gracefully (see the module docstring).

    Raises:
        Whatever ``bot.start`` raises before a stop was asked for (``discord.LoginFailure``,
        connection errors).
    """
    if stop.is_set():
        return
    runner = asyncio.create_task(bot.start(token), name="raptor-discord")
    waiter = asyncio.create_task(stop.wait(), name="raptor-stop-signal")
    try:
        await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
    if runner.done():
        runner.result()
        return
    loop = asyncio.get_running_loop()
    began = loop.time()
    log.info("stopping: no new interactions; waiting for the %d in flight", bot.gate.in_flight)
    await bot.close()
    done, _ = await asyncio.wait({runner}, timeout=max(0.1, STOP_SECONDS - DRAIN_SECONDS - 1.0))
    if not done:
        log.warning("stopping: the Discord connection did not end in time; leaving it")
        runner.cancel()
    elif not runner.cancelled() and runner.exception() is not None:
        # the connection ended with an error because it was closed under it
        log.debug("stopping: the Discord connection ended with %s",
                  type(runner.exception()).__name__)
    log.info("stopped the Discord session in %.1f s", loop.time() - began)
