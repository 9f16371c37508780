"""The console of the offline modes' terminal games (``python -m bot play``), any game's:
text wrapped to the terminal's width (Chinese two columns a character), pages of a long
text, lines read from a terminal with line editing, history and Tab completion (the standard
library's :mod:`readline`) or from piped input, on a thread so that Ctrl-C stops at once,
the person's entries with a confirmed resignation (:class:`Prompt`), and the terminal's
settings kept and restored."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import textwrap
import threading
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from engine.messages import Text
from render.text import break_cjk

from ..i18n import Translator, translator

EN = translator("en")


def beside(left: list[str], right: list[str], width: int) -> list[str]:
    """``right``'s lines to the right of ``left``'s when both fit in ``width`` columns, else
    ``right`` under ``left``."""
    wide = max(map(len, left), default=0)
    if wide + 2 + max(map(display_len, right), default=0) > width:
        return left + right
    rows = max(len(left), len(right))
    left = left + [""] * (rows - len(left))
    right = right + [""] * (rows - len(right))
    return [f"{a:<{wide}}  {b}".rstrip() for a, b in zip(left, right, strict=True)]


def terminal_width() -> int:
    """The terminal's width in columns (``COLUMNS`` first, 80 when unknown)."""
    return shutil.get_terminal_size((80, 24)).columns


#: Lines of text a page of ``rules`` or ``cards`` may take: an 80×24 screen less the prompt.
PAGE_LINES = 23


def pages(text: str, word: str, width: int, _: Translator = EN) -> list[str]:
    """``text`` wrapped to ``width`` (:func:`wrapped`) and cut between paragraphs into pages
    of at most :data:`PAGE_LINES` lines, each but the last ending with how to see the next
    (``'<word> 2'``). A paragraph longer than a page is cut between its lines."""
    chunks: list[list[str]] = []
    for para in wrapped(text, width).split("\n\n"):
        lines = para.split("\n")
        while len(lines) > PAGE_LINES - 1:
            chunks.append(lines[:PAGE_LINES - 1])
            lines = lines[PAGE_LINES - 1:]
        chunks.append(lines)
    out: list[list[str]] = [[]]
    for i, chunk in enumerate(chunks):
        room = PAGE_LINES if i == len(chunks) - 1 else PAGE_LINES - 1  # the "more" line
        if out[-1] and len(out[-1]) + 1 + len(chunk) > room:
            out.append([])
        if out[-1]:
            out[-1].append("")
        out[-1].extend(chunk)
    return ["\n".join(page + ([_("(more: '{word} {n}')", word=word, n=n + 2)]
                             if n + 1 < len(out) else []))
            for n, page in enumerate(out)]


def page_text(command: str, text: str, width: int | None = None, _: Translator = EN) -> str:
    """The page that ``command`` (``"rules"``, ``"rules 2"``, ``"cards 2"``...) asks for of
    ``text`` (see :func:`pages`); a page that does not exist says which do."""
    word, _sep, number = command.partition(" ")
    book = pages(text, word, terminal_width() if width is None else width, _)
    n = int(number) if number.isdigit() else 1
    if not 1 <= n <= len(book):
        return _("'{word}' has pages 1 to {n}: type '{word}' or '{word} 2'.", word=word,
                 n=len(book))
    return book[n - 1]



def display_len(text: str) -> int:
    """Columns ``text`` takes on a terminal: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap_wide(line: str, width: int) -> list[str]:
    """A line with wide characters cut to ``width`` columns by the board images' rules
    (:func:`render.text.break_cjk`: between any two wide characters or at a space, never
    inside notation, never before closing punctuation nor after an opening bracket or
    quote, nothing past the width: a terminal would wrap a mark hanging there alone);
    the continuation lines are indented two spaces past the line's own indentation."""
    indent = line[:len(line) - len(line.lstrip(" "))]

    def fits(text: str, n: int) -> bool:
        return display_len(indent + ("  " if n else "") + text) <= width

    lines = break_cjk(line[len(indent):], fits)
    return [indent + ("  " if n else "") + x for n, x in enumerate(lines)]


def wrapped(text: str, width: int) -> str:
    """``text`` with each line longer than ``width`` wrapped at word boundaries (never inside
    a word, so notation and paths stay whole); a wrapped line's continuation is indented two
    spaces past its own indentation. Chinese counts two columns a character and may break
    between characters."""
    out: list[str] = []
    for line in text.split("\n"):
        if display_len(line) != len(line):
            out.extend(wrap_wide(line, width) if display_len(line) > width else [line])
            continue
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip(" "))]
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent + "  ",
                                 break_long_words=False, break_on_hyphens=False))
    return "\n".join(out)


def terminal_echo(text: str) -> None:
    """Print ``text`` wrapped to the terminal's width (:func:`wrapped`)."""
    print(wrapped(text, terminal_width()), flush=True)


class RawLines:
    """Lines from a file descriptor read with :func:`os.read`, never through ``sys.stdin``.

    The input thread may still be blocked in a read when the program ends (Ctrl-C); reading
    the raw descriptor means it holds no lock of ``sys.stdin``'s buffered reader then, which
    would abort the interpreter at shutdown ("could not acquire lock for <stdin>").
    Text is decoded as UTF-8 (undecodable bytes replaced)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = b""
        self.ended = False

    def readline(self) -> str:
        """The next line without its line break.

        Raises:
            EOFError: end of input and nothing pending.
        """
        while b"\n" not in self.pending and not self.ended:
            chunk = os.read(self.fd, 65536)
            if chunk:
                self.pending += chunk
            else:
                self.ended = True
        if b"\n" in self.pending:
            line, self.pending = self.pending.split(b"\n", 1)
        elif self.pending:
            line, self.pending = self.pending, b""
        else:
            raise EOFError
        return line.decode("utf-8", "replace").rstrip("\r")


_stdin_lines: RawLines | None = None


class LineEditor:
    """Line editing, history and Tab completion for :func:`input` on a terminal, through the
    standard library's :mod:`readline` (GNU readline or libedit) when the platform has it;
    without it, :attr:`available` is False and input is read as plain lines.

    Tab completes from :data:`completions` (the notation of the legal actions now and the
    prompt's own words), taking the whole line typed so far (``kill f`` → ``kill F3``),
    case-insensitively."""

    def __init__(self) -> None:
        self._matches: list[str] = []
        try:
            import readline
        except ImportError:  # e.g. Windows without pyreadline: plain lines
            self.readline = None
            return
        self.readline = readline
        readline.set_completer_delims("")  # complete the whole line, spaces included
        readline.set_completer(self.complete)
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

    @property
    def available(self) -> bool:
        return self.readline is not None

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th word of :data:`completions` that starts
        with ``text`` (case-insensitively), then None."""
        if state == 0:
            typed = text.lower()
            self._matches = [w for w in completions if w.lower().startswith(typed)]
        return self._matches[state] if state < len(self._matches) else None

    def forget_last(self) -> None:
        """Drop the last history entry (an answer to a confirmation is not worth recalling)."""
        if self.readline is not None:
            n = self.readline.get_current_history_length()
            if n:
                self.readline.remove_history_item(n - 1)


_editor: LineEditor | None = None
#: What Tab completes at the prompt now (set by the match loop before each read).
completions: list[str] = []


def editor() -> LineEditor:
    """The process's one :class:`LineEditor`, made (and :mod:`readline` loaded) at first use."""
    global _editor
    if _editor is None:
        _editor = LineEditor()
    return _editor


def stdin_read(prompt: str) -> str:
    """The default ``read`` of :func:`play`: on a terminal :func:`input` with the line editor
    (:class:`LineEditor`); otherwise (piped input) the prompt is written to stdout and the
    line read from file descriptor 0 directly (see :class:`RawLines`) and written after its
    prompt, as a terminal would have echoed it.

    Raises:
        EOFError: end of input.
    """
    global _stdin_lines
    try:
        if sys.stdin is not None and sys.stdin.isatty():
            editor()
            return input(prompt)
        sys.stdout.write(prompt)
        sys.stdout.flush()
        if _stdin_lines is None:
            _stdin_lines = RawLines(0)
        line = _stdin_lines.readline()
    except EOFError:  # Ctrl-D on a terminal or the end of piped input: neither ends the line
        sys.stdout.write("\n")  # what follows starts on its own line, not after the prompt
        sys.stdout.flush()
        raise
    # Piped input is not echoed by a terminal: write it after its prompt, so the output
    # reads as a transcript ("raptor> play 3") instead of prompts running into the replies.
    sys.stdout.write(line + "\n")
    return line


async def read_line(read: Callable[[str], str], prompt: str) -> str:
    """Call ``read(prompt)`` on a daemon thread, so Ctrl-C stops the program at once instead
    of waiting for the line (a worker of the default executor would be waited for).

    Raises:
        EOFError: end of input.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def work() -> None:
        try:
            line = read(prompt)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting coroutine
            loop.call_soon_threadsafe(_settle, future, None, exc)
        else:
            loop.call_soon_threadsafe(_settle, future, line, None)

    threading.Thread(target=work, name="terminal-input", daemon=True).start()
    return await future


def _settle(future: asyncio.Future, value: object, exc: BaseException | None) -> None:
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(value)


def shown_path(path: Path) -> str:
    """``path`` as the player may type it: relative to the working folder when inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)



def terminal_mode() -> list | None:
    """The terminal's settings (termios), to restore at the end: a line editor stopped by
    Ctrl-C in the middle of a line would leave the terminal without echo. None when stdin is
    not a terminal."""
    try:
        import termios

        return termios.tcgetattr(0) if os.isatty(0) else None
    except (ImportError, OSError):
        return None


def restore_terminal(saved: list | None) -> None:
    if saved is None:
        return
    import termios

    try:
        termios.tcsetattr(0, termios.TCSADRAIN, saved)
    except OSError:
        pass


def forget_last() -> None:
    """Drop the last line of the line editor's history, if the editor is in use (an answer
    to a confirmation is not worth recalling)."""
    if _editor is not None:
        _editor.forget_last()


def actions_text(written: Sequence[str], described: Callable[[int], str], *, size:
                 os.terminal_size | None, width: int, _: Translator = EN) -> str:
    """The legal actions for ``?`` at a terminal game's prompt, ``written`` in notation:
    one a line, its notation padded to ``width`` then ``described(i)``, when they fit in the
    terminal's height (``size``, default the terminal's), else their notation in columns
    (every line starts with two spaces) and how many there are."""
    size = size or shutil.get_terminal_size((80, 24))
    if len(written) <= max(8, size.lines - 4):
        return "\n".join(f"  {w:<{width}} {described(i)}" for i, w in enumerate(written))
    column = max(map(len, written)) + 2
    per_line = max(1, (size.columns - 2) // column)
    lines = ["  " + "".join(f"{w:<{column}}" for w in written[i:i + per_line]).rstrip()
             for i in range(0, len(written), per_line)]
    return "\n".join(lines + [_("({n} legal actions; Tab completes them)", n=len(written))])


#: The words that resign at a terminal game's prompt, and the answers that confirm it (the
#: Chinese ones too: 是, 好, 確定).
RESIGN_WORDS = ("resign", "quit", "exit", "q")
YES_WORDS = ("y", "yes", "是", "好", "確定")
#: The words that list the legal actions at a terminal game's prompt.
HELP_WORDS = ("?", "help", "list", "moves")


def words_text(words: Sequence[str]) -> Text:
    """``'?' (or 'help', 'list')``: a prompt word and its synonyms, for a help line."""
    return Text("{word} (or {others})", word=repr(words[0]),
                others=Text.joined(", ", [repr(w) for w in words[1:]]))


#: What :meth:`Prompt.entry` returns when the person resigns.
RESIGNED: Final = object()


class Prompt:
    """The person's entries at a terminal game's prompt, read by ``read`` (on a thread,
    :func:`read_line`) and normalised by ``normalize`` (full-width forms as a Chinese input
    method types them); refusals and notices go to ``echo`` in ``_``'s language.
    :attr:`waiting` is True while a line is being read: a stop (Ctrl-C) then starts its own
    lines on a new one."""

    def __init__(self, read: Callable[[str], str], echo: Callable[[str], None],
                 _: Translator, normalize: Callable[[str], str]) -> None:
        self.read, self.echo, self._, self.normalize = read, echo, _, normalize
        self.waiting = False

    async def line(self, prompt: str) -> str:
        """The next line, normalised.

        Raises:
            EOFError: end of input.
        """
        self.waiting = True
        try:
            text = await read_line(self.read, prompt)
        except EOFError:
            self.waiting = False
            raise
        # (a stop, CancelledError, leaves it True: the cursor is still after the prompt)
        self.waiting = False
        return self.normalize(text)

    async def entry(self, prompt: str, confirm: str) -> Any:
        """The next entry, its spaces collapsed; :data:`RESIGNED` when the person resigns (a
        word of :data:`RESIGN_WORDS` confirmed at the question ``confirm``, or the end of
        input, said so); None when they answer no (said so)."""
        _ = self._
        try:
            text = " ".join((await self.line(prompt)).split())
        except EOFError:
            self.echo(_("End of input: you resign."))
            return RESIGNED
        if text.lower() not in RESIGN_WORDS:
            return text
        try:
            answer = (await self.line(confirm)).strip().lower()
        except EOFError:
            self.echo(_("End of input: you resign."))
            return RESIGNED
        if answer:
            forget_last()
        if answer in YES_WORDS:
            return RESIGNED
        self.echo(_("Not resigned: play on."))
        return None


__all__ = [
    "HELP_WORDS", "LineEditor", "PAGE_LINES", "Prompt", "RESIGNED", "RESIGN_WORDS",
    "actions_text", "RawLines", "YES_WORDS", "beside", "completions", "display_len",
    "editor", "forget_last", "page_text", "pages", "read_line", "restore_terminal",
    "shown_path", "stdin_read", "terminal_echo", "terminal_mode", "terminal_width",
    "words_text", "wrap_wide", "wrapped",
]
