"""Command line for the renderer.

``python -m render replay RECORD --out DIR [--limit MIB]``: checks a match record
(``docs/RECORD.md``; ``-`` reads stdin) as ``python -m engine replay`` does, then writes
``DIR/after-round-NNN.png`` (the board after each round: its highlights, its number and both
cards; the last one the final board) and the animation ``DIR/replay.gif`` (at most
``--limit`` MiB, 10 by default: frames scaled down or dropped to fit, and said so). A record
it refuses gets one line naming the line and the reason; so does an empty ``--out`` (an unset
shell variable, most likely: the current folder is ``--out .``). Exit status as ``python -m
engine``'s (:data:`engine.cli.EXIT_STATUS`): 2 for every usage error.

It lives here, not in ``python -m engine``, because the engine imports nothing of the
renderer (nor Pillow).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

import engine
from engine.__main__ import ending_line, load_record
from engine.cli import EXIT_STATUS
from engine.messages import Text
from engine.record import Ending, MatchRecord, ending_banner

from .animation import DEFAULT_BYTE_LIMIT, Animation, ReplayError, frames
from .replay import frame_pngs, render_replay


def record_views(record: MatchRecord) -> tuple[list[engine.View], str | None, engine.Side | None]:
    """The public views of a record's rounds, and the verdict and winner of its last frame
    when it ended outside the game (else None, None)."""
    views = [engine.view(s, None) for s in record.round_states()]
    if isinstance(record.reason, Ending):
        winner = engine.Side(record.result) if record.result in ("raptor", "scientist") else None
        return views, ending_banner(record.result, record.reason), winner
    return views, None, None


def write_replay(record: MatchRecord, out: Path, *, byte_limit: int = DEFAULT_BYTE_LIMIT
                 ) -> tuple[list[Path], Animation]:
    """Write the images after each round and ``replay.gif`` of ``record`` into ``out``
    (created if needed); returns the PNG paths and the animation.

    Raises:
        ReplayError: nothing to show (a match ended during setup) or ``byte_limit`` too
            small (see :func:`render.replay.render_replay`).
        OSError: ``out`` cannot be written.
    """
    views, verdict, winner = record_views(record)
    anim = render_replay(views, byte_limit=byte_limit, verdict=verdict, winner=winner)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for v, png in zip(views, frame_pngs(views, verdict=verdict, winner=winner), strict=True):
        number = v.round if v.phase is not engine.Phase.PICK else v.round - 1
        path = out / f"after-round-{number:03d}.png"
        path.write_bytes(png)
        paths.append(path)
    (out / "replay.gif").write_bytes(anim.data)
    return paths, anim


def folder_arg(text: str) -> Path:
    """argparse type: an output folder, not an empty path (which would mean the current
    folder without saying so)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the folder name is empty: give one ('.' is the "
                                         "current folder)")
    return Path(text)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__.split("\n")[0],
                                     epilog=f"{EXIT_STATUS}.")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="the images and animation of a match record",
                        epilog=f"{EXIT_STATUS}.")
    rp.add_argument("record", help="the record file (docs/RECORD.md), or - for stdin")
    rp.add_argument("--out", type=folder_arg, required=True,
                    help="output folder (not empty: '.' is the current one)")
    rp.add_argument("--limit", type=float, default=DEFAULT_BYTE_LIMIT / 1024 / 1024,
                    help="largest replay.gif in MiB (default 10)")
    args = parser.parse_args(argv)
    if args.out.exists() and not args.out.is_dir():
        rp.error(f"{args.out} exists and is not a folder")
    if not args.limit > 0:
        rp.error("--limit must be more than 0")
    try:
        record = load_record(args.record)
    except OSError as exc:
        print(f"render replay: cannot read {args.record}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except engine.MatchRecordError as exc:
        print(f"render replay: {args.record}: {exc}", file=sys.stderr)
        return 2
    try:
        paths, anim = write_replay(record, args.out, byte_limit=int(args.limit * 1024 * 1024))
    except ReplayError as exc:
        print(f"render replay: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"render replay: cannot write to {args.out}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    print(ending_line(record))
    names = f"{paths[0].name} … {paths[-1].name}" if len(paths) > 1 else paths[0].name
    kib = round(len(anim.data) / 1024)
    print(Text.plural("Wrote {n} board image ({names}) and replay.gif ({frames}, {kib} KiB) "
                      "to {out}.", "Wrote {n} board images ({names}) and replay.gif ({frames}, "
                      "{kib} KiB) to {out}.", len(paths), names=names, frames=frames(anim.frames),
                      kib=kib, out=args.out))
    if anim.note:
        print(anim.note)
    return 0


def entry(argv: list[str] | None = None) -> int:
    """:func:`main` as the process runs it: a reader gone from stdout (``| head``) ends it
    quietly with status 1, Ctrl-C with "Stopped." and 130, as the engine's and the bot's
    commands do."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):  # no traceback as the buffer empties
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(entry())
