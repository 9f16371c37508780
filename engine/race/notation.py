"""Reading what a player types as one of their legal actions (RR9.3, RR9.4), and labels.

The canonical notation is :func:`engine.race.format_action`'s (``keep OOT a``, ``O>B4``,
``TG>C2``, ``+Y>D6``, ``O-``). :func:`parse_action` is forgiving: case and spaces do not
matter (``keep o o t a``, ``o > b4``), full-width forms are read as ordinary ones, ``->``
and ``→`` stand for ``>``, ``keep all`` sets aside every die just rolled, and a part that
only one legal action fits may be left out: ``O`` is the orange die's step when it has a
single end, ``TG`` a T-Rex step of the green raptor, ``+Y`` a booster's step of the yellow
raptor, ``B4`` the one step that ends on B4. Chinese words may replace the letters
(:data:`CHINESE_ALIASES`). It then *chooses among* :func:`engine.race.legal_actions`; it
restates no rule, and its refusals read only the public position (RR9.2).
"""

from __future__ import annotations

import re
import unicodedata

from ..messages import Text
from .actions import Action, Boost, Keep, Move, NoStep, format_action
from .components import RAPTOR_NAMES, Face, Raptor, sorted_faces
from .errors import AmbiguousActionError, IllegalActionError, NotationError, WrongTurnError
from .predicates import is_diagonal
from .rules import die_steps, legal_actions
from .state import Phase, RaceState
from .track import space_name

QUOTE_LIMIT = 40  # characters of an entry quoted back in a message

#: Chinese words typed for the notation's letters and words (Traditional and Simplified):
#: the raptors' colours, the T-Rex, ``keep``, the arrows die, ``all``.
CHINESE_ALIASES = {
    "藍": "B", "蓝": "B", "綠": "G", "绿": "G", "橙": "O", "橘": "O", "紫": "P", "黃": "Y",
    "黄": "Y", "暴龍": "T", "暴龙": "T", "暴": "T", "保留": "KEEP ", "留下": "KEEP ",
    "留": "KEEP ", "箭頭": " A", "箭头": " A", "箭": " A", "全部": "ALL", "全": "ALL",
}
_CHINESE = re.compile("|".join(sorted(map(re.escape, CHINESE_ALIASES), key=len, reverse=True)))
_KEEP = re.compile(r"(?:KEEP|K)\s*(ALL|[BGOPYT\s]+?)\s*(A|ARROWS?)?")
_STEP = re.compile(r"(\+)?(T)?([BGOPY])?(?:>?([A-E]\d{1,2}))?")
_NO_STEP = re.compile(r"([BGOPYT])-")


def _quote(text: str) -> str:
    return repr(text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "…")


def _normalise(text: str) -> str:
    """Full-width forms as ordinary ones (NFKC), Chinese words as letters, upper case,
    arrows as ``>``, runs of white space as one space."""
    raw = unicodedata.normalize("NFKC", text)
    raw = _CHINESE.sub(lambda m: CHINESE_ALIASES[m.group(0)], raw)
    raw = raw.upper().replace("->", ">").replace("→", ">")
    return " ".join(raw.split())


def _legal_list(legal: list[Action]) -> str:
    return ", ".join(format_action(a) for a in legal)


def parse_action(text: str, state: RaceState, seat: int) -> Action:
    """The legal action of ``seat`` that ``text`` names (module docstring).

    Raises:
        NotationError: not race notation at all (the message shows the forms).
        WrongTurnError: ``seat`` has nothing to decide now.
        IllegalActionError: well-formed but not legal now (why, and what is legal).
        AmbiguousActionError: it fits several legal actions (they are listed).
    """
    norm = _normalise(text)
    if not norm:
        raise NotationError(Text("empty input: type an action such as 'keep OT', 'O>B4' "
                                 "or '+Y>D6'"))
    legal = legal_actions(state, seat)
    if norm in ("KEEP", "K"):
        raise NotationError(Text("{entry} needs the dice to keep: for example 'keep OT'",
                                 entry=_quote(text)))
    if m := _KEEP.fullmatch(norm):
        faces_text = m.group(1).replace(" ", "")
        wanted = _wanted_keep(state, faces_text, m.group(2) is not None)
        return _pick(text, state, seat, legal, wanted, lambda a: a == wanted)
    compact = norm.replace(" ", "")
    if m := _NO_STEP.fullmatch(compact):
        face = Face(m.group(1))
        return _pick(text, state, seat, legal, NoStep(face), lambda a: a == NoStep(face))
    m = _STEP.fullmatch(compact)
    if not m or not any(m.groups()):
        raise NotationError(Text("{entry} is not race notation: for example 'keep OOT a', "
                                 "'O>B4', 'TG>C2', '+Y>D6' or 'O-'", entry=_quote(text)))
    boost, trex, letter, where = m.groups()
    if boost and trex:
        raise NotationError(Text("{entry}: a booster moves a raptor forward, not with the "
                                 "T-Rex: for example '+Y>D6'", entry=_quote(text)))
    raptor = Raptor(letter) if letter else None
    to = _space_or_none(where)
    if where and to is None:
        raise NotationError(Text("{entry}: {space} is not a space of this track",
                                 entry=_quote(text), space=repr(where)))

    def fits(a: Action) -> bool:
        if boost:
            kind_ok = type(a) is Boost
        elif trex:
            kind_ok = type(a) is Move and a.die is Face.T
        elif letter:
            kind_ok = type(a) is Move and a.die is not Face.T
        else:
            kind_ok = type(a) in (Move, Boost)
        return (kind_ok and (raptor is None or a.raptor is raptor)
                and (to is None or a.to == to))

    described = (Boost if boost else Move, Face.T if trex else None, raptor, to)
    return _pick(text, state, seat, legal, described, fits)


def _space_or_none(name: str | None) -> int | None:
    if not name:
        return None
    try:
        return space_name.index(name)
    except ValueError:
        return None


def _wanted_keep(state: RaceState, faces_text: str, arrows: bool) -> Keep:
    """The :class:`Keep` an entry names; ``all`` is every die just rolled, and ``a`` is
    implied (so dropped) when the arrows die is set aside anyway (already, or because every
    footprint die is, RR4.3)."""
    faces = state.rolled if faces_text == "ALL" else sorted_faces(Face(c) for c in faces_text)
    implied = state.arrow_aside or (state.arrow_die is not None
                                    and sorted(faces) == sorted(state.rolled))
    return Keep(faces, arrows and not implied)


def _pick(text: str, state: RaceState, seat: int, legal: list[Action], wanted: object,
          fits) -> Action:
    if not legal:
        raise WrongTurnError(_wrong_turn(text, state, seat))
    hits = [a for a in legal if fits(a)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousActionError(Text("{entry} fits {n} legal actions: {actions}",
                                        entry=_quote(text), n=len(hits),
                                        actions=_legal_list(hits)))
    why = why_not(state, wanted)
    if why is not None:
        raise IllegalActionError(Text("{entry} is not legal now: {why}; legal: {legal}",
                                      entry=_quote(text), why=why, legal=_legal_list(legal)))
    raise IllegalActionError(Text("{entry} is not legal now; legal: {legal}",
                                  entry=_quote(text), legal=_legal_list(legal)))


def _wrong_turn(text: str, state: RaceState, seat: int) -> Text:
    if state.phase is Phase.OVER:
        return Text("{entry}: the race is over", entry=_quote(text))
    if seat in state.forfeited:
        return Text("{entry}: you have left the race", entry=_quote(text))
    return Text("{entry}: it is not your turn (seat {seat} is playing)", entry=_quote(text),
                seat=state.seat + 1)


def _dice(faces) -> str:
    return "".join(f.value for f in faces) or "-"


def why_not(state: RaceState, wanted: object) -> Text | None:
    """Why the action an entry describes is not legal, in one short reason (None when
    nothing simpler than the list of legal actions applies). ``wanted`` is a :class:`Keep`,
    a :class:`NoStep`, or ``(kind, die, raptor, to)`` for a step (parts may be None).
    Reads only the public position."""
    rolling = state.phase is Phase.ROLL
    if isinstance(wanted, Keep):
        if not rolling:
            return Text("the rolling is over: use the dice of the result ({dice})",
                        dice=_dice(state.left))
        rest = list(state.rolled)
        for face in wanted.faces:
            if face not in rest:
                return Text("the dice just rolled are {dice}: keep one or more of them",
                            dice=_dice(state.rolled))
            rest.remove(face)
        if wanted.arrows and state.arrow_die is None:
            return Text("there is no arrows die on the Desert")
        return None
    if rolling:
        return Text("set dice aside first (rolled: {dice}), for example {example}",
                    dice=_dice(state.rolled), example=repr(format_action(Keep(state.rolled))))
    if state.pending is not None:
        if isinstance(wanted, tuple) and wanted[0] is Boost and wanted[2] is state.pending:
            return Text("the booster moves another raptor than the one on it ({raptor})",
                        raptor=state.pending.value)
        if not (isinstance(wanted, tuple) and wanted[0] is Boost):
            return Text("the booster under {raptor} comes first: give another raptor a step "
                        "forward", raptor=state.pending.value)
        return None
    if isinstance(wanted, tuple) and wanted[0] is Boost:
        return Text("no booster is waiting: use a die ({dice})", dice=_dice(state.left))
    die = wanted.die if isinstance(wanted, NoStep) else wanted[1]
    if die is None and isinstance(wanted, tuple) and wanted[2] is not None:
        die = Face(wanted[2].value)  # 'O>B4': the orange die
    if die is None:
        return None
    if die not in state.left:
        return Text("no {face} die is left to use (left: {dice})", face=die.value,
                    dice=_dice(state.left))
    steps = die_steps(state, die)
    if isinstance(wanted, NoStep):
        return (Text("the {face} die can move a raptor, so it must", face=die.value) if steps
                else None)
    if not steps:
        return Text("the {face} die can move nothing: play {entry}", face=die.value,
                    entry=repr(format_action(NoStep(die))))
    raptor = wanted[2]
    if raptor is not None:
        ends = [space_name[a.to] for a in steps if a.raptor is raptor]
        if not ends:
            return Text("{raptor} cannot step back to a free space", raptor=raptor.value)
        return Text("{raptor} may step to {ends} only", raptor=raptor.value,
                    ends=", ".join(ends))
    return None


def describe_action(action: Action, state: RaceState) -> Text:
    """A short label of ``action`` in ``state`` for menus and narration, e.g.
    ``"Orange to B4"``, ``"T-Rex: Green back to C2 (diagonal)"``, ``"Keep O O T and the
    arrows die"``."""
    if type(action) is Keep:
        dice = " ".join(f.value for f in action.faces)
        if action.arrows:
            return Text("Keep {dice} and the arrows die", dice=dice)
        if len(action.faces) == len(state.rolled):
            return Text("Keep {dice}: end the rolling", dice=dice)
        return Text("Keep {dice}, roll again", dice=dice)
    if type(action) is NoStep:
        return Text("Use the {face} die: no step", face=action.die.value)
    to = space_name[action.to]
    name = Text(RAPTOR_NAMES[action.raptor])
    diagonal = is_diagonal(state.raptors[action.raptor.index], action.to)
    crossed = state.track.crossed(action.to)
    if type(action) is Boost:
        if crossed:
            return Text("Booster: {raptor} crosses the finish line", raptor=name)
        return (Text("Booster: {raptor} to {to} (diagonal)", raptor=name, to=to) if diagonal
                else Text("Booster: {raptor} to {to}", raptor=name, to=to))
    if action.die is Face.T:
        return (Text("T-Rex: {raptor} back to {to} (diagonal)", raptor=name, to=to)
                if diagonal else Text("T-Rex: {raptor} back to {to}", raptor=name, to=to))
    if crossed:
        return Text("{raptor} crosses the finish line", raptor=name)
    return (Text("{raptor} to {to} (diagonal)", raptor=name, to=to) if diagonal
            else Text("{raptor} to {to}", raptor=name, to=to))


__all__ = ["CHINESE_ALIASES", "describe_action", "parse_action", "why_not"]
