"""Action notation: short, typable text for every decision, using R2.2 coordinates.

=====================  ===========================  ====================================
decision               notation                     example
=====================  ===========================  ====================================
place the mother       ``M@<sq>``                   ``M@G2`` (setup R4.1, return R9.2)
place a baby           ``B@<sq>``                   ``B@D2`` (setup R4.1)
place a scientist      ``S@<sq>``                   ``S@B2`` (setup R4.2)
pick a card            ``play <n>``                 ``play 5`` (or just ``5``), R5.1
any move               ``<from>-<to>``              ``G2-G5`` mother (R7.2), ``D3-D4`` baby
                                                    (R7.1), ``B2-C2`` scientist (R8.1),
                                                    Mother's Call (R9.1) and jeep (R10.3)
kill                   ``kill <sq>``                ``kill F3`` (R7.3)
wake a baby            ``wake <sq>``                ``wake E2`` (R7.4, R9.5)
put out fire           ``out <sq>``                 ``out E4`` (R7.5)
stand up               ``stand <sq>``               ``stand B2`` (R8.2)
put a baby to sleep    ``<by> sleep <sq>``          ``C2 sleep D2`` (R8.3)
capture                ``<by> capture <sq>``        ``C2 capture D2`` (R8.4)
shoot the mother       ``<by> shoot <sq>``          ``B5 shoot G5`` (R8.5)
frighten (Fear)        ``fear <sq>``                ``fear B2`` (R9.3, R9.6)
remove a sleep token   ``heal``                     (R9.5)
sleeping gas           ``gas <sq>``                 ``gas D2`` (R10.1, R10.4)
reinforcement          ``R@<sq>``                   ``R@E1`` (R10.2)
fire                   ``fire <sq>``                ``fire E4`` (R10.5)
stop / end the turn    ``end``                      (R5.4, R5.5)
=====================  ===========================  ====================================

Parsing is case-insensitive and forgiving about white space (``g2 - g5``, ``kill\tf3``), accepts
``x`` for ``-`` in moves and ``to`` between squares, and full-width forms (``出３``,
``ｐｌａｙ　３``: what Chinese input methods type, :func:`half_width`), and then *chooses
among* :func:`engine.legal_actions`; it never restates a rule.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from .actions import (
    Action,
    CallBaby,
    Capture,
    End,
    Frighten,
    Gas,
    Heal,
    Jeep,
    Kill,
    MoveBaby,
    MoveMother,
    MoveScientist,
    Pick,
    PlaceBaby,
    PlaceFire,
    PlaceMother,
    PlaceScientist,
    PutOut,
    Reinforce,
    SleepBaby,
    Stand,
    Wake,
    format_action,
)
from .cards import card_name
from .errors import AmbiguousActionError, IllegalActionError, NotationError, WrongTurnError
from .explain import entry_form, why_not
from .geometry import SQUARE_NAMES
from .messages import Text
from .predicates import mother_move_cost
from .rules import legal_actions, to_act
from .state import EXIT, GameState, Phase, Side, as_side

N = SQUARE_NAMES


_ALIASES = {
    "x": "-", "to": "-", "->": "-", "→": "-", "–": "-", "—": "-",  # dashes of phone keyboards
    "k": "kill", "w": "wake", "putout": "out", "extinguish": "out", "up": "stand",
    "frighten": "fear", "f": "fear", "recover": "heal", "h": "heal", "pass": "end",
    "done": "end", "stop": "end", "e": "end", "card": "play", "pick": "play", "p": "play",
    "shot": "shoot", "tranq": "sleep", "s": "sleep", "c": "capture",
}
#: Chinese words for the actions (the words of the Traditional Chinese rule summary, which
#: players of the Chinese edition use), typed in place of the English word: ``咬 F3`` is
#: ``kill F3``, ``C2 麻醉 D2`` is ``C2 sleep D2``, ``G2到G5`` is ``G2-G5``. The notation
#: itself (squares, ``play 5``, ``M@G2``) is the same in every language.
CHINESE_ALIASES = {
    "咬": "kill", "咬死": "kill", "攻擊": "kill", "喚醒": "wake", "叫醒": "wake",
    "滅火": "out", "撲滅": "out", "扶起": "stand", "站起": "stand", "喚醒科學家": "stand",
    "麻醉": "sleep", "捕捉": "capture", "抓": "capture", "射擊": "shoot", "射": "shoot",
    "恐嚇": "fear", "嚇": "fear", "嚇昏": "fear", "恢復": "heal", "治療": "heal",
    "麻醉氣體": "gas", "氣體": "gas", "放火": "fire", "火": "fire", "結束": "end",
    "完成": "end", "跳過": "end", "出": "play", "出牌": "play", "到": "-",
}
_ALIASES.update(CHINESE_ALIASES)
# e.g. h9, e44, a0, or z9 (a column past M); not 'p5' ('play 5') nor an 'x' (a move sign)
_NOT_A_SQUARE = re.compile(r"(?<![a-z])(?:[a-m](?![1-6](?!\d))\d+|[n-oq-wyz]\d+)")
_TOKEN = re.compile(r"[a-m][1-6]|[0-9]+|x(?=[a-m][1-6])|[a-z]+|[\u4e00-\u9fff]+|->|→|"
                    r"[-–—@x]", re.I)


QUOTE_LIMIT = 40  # characters of a player's entry quoted back in an error message

# Every form format_action writes, in the normalised (lower-case, canonical spacing) form, and
# a bare square (the one legal action that targets it).
_SHAPE = re.compile(
    r"play \d+|[a-m][1-6]-[a-m][1-6]|[mbsr]@[a-m][1-6]|(kill|wake|out|stand|fear|gas|fire) "
    r"[a-m][1-6]|([a-m][1-6] )?(sleep|capture|shoot) [a-m][1-6]|heal|end|[a-m][1-6]")
# a word run into the square after it, e.g. 'killf4' (two letters at least: 'x' is a move sign)
# (from a word's start and at most 10 letters, so a long entry costs linear time)
_WORD_THEN_SQUARE = re.compile(r"(?<![a-z])([a-z]{2,10})(?=[a-m][1-6](?![0-9]))")


#: How each word of the notation is written, for the error on a word typed alone.
_A_SQUARE = Text("a square")
_BY_AND_BABY = Text("the scientist's square before it and the baby's after it")
_WORD_EXAMPLES = {
    "play": (Text("a card value"), "play 5"), "kill": (_A_SQUARE, "kill F3"),
    "wake": (_A_SQUARE, "wake E2"), "out": (_A_SQUARE, "out E4"),
    "stand": (_A_SQUARE, "stand B2"), "fear": (_A_SQUARE, "fear B2"),
    "gas": (_A_SQUARE, "gas D2"), "fire": (_A_SQUARE, "fire E4"),
    "sleep": (_BY_AND_BABY, "C2 sleep D2"),
    "capture": (_BY_AND_BABY, "C2 capture D2"),
    "shoot": (Text("the scientist's square before it and the mother's after it"),
              "B5 shoot G5"),
}


def _quote(text: str) -> str:
    """``text`` quoted for a message, cut to :data:`QUOTE_LIMIT` characters."""
    return repr(text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "…")


def half_width(text: str) -> str:
    """``text`` with full-width forms as their ordinary ones (Unicode NFKC): ``'出３'`` is
    ``'出3'``, ``'ｐｌａｙ　３'`` (an ideographic space) ``'play 3'``, ``'？'`` ``'?'``;
    Chinese characters are unchanged."""
    return unicodedata.normalize("NFKC", text)


def _normalise(text: str) -> str:
    """Full-width forms as half-width (:func:`half_width`), lower-case, split into tokens,
    apply aliases, re-join in canonical spacing."""
    raw = " ".join(half_width(text).lower().split())  # any white space between words (Tab)
    if not raw:
        raise NotationError(Text("empty input: type an action such as 'G2-G5', 'play 5' or "
                                 "'end'"))
    raw = _WORD_THEN_SQUARE.sub(r"\1 ", raw)  # 'killf4' -> 'kill f4', 'c2sleepc1' too
    tokens = _TOKEN.findall(raw)
    leftover = _TOKEN.sub("", raw).replace(" ", "").replace(",", "")
    if leftover:
        raise NotationError(Text("{entry} is not action notation (stray {stray}); try "
                                 "'G2-G5', 'kill F3', 'play 5' or 'end'", entry=_quote(text),
                                 stray=_quote(leftover)))
    bad_square = _NOT_A_SQUARE.search(raw)
    if bad_square:
        raise NotationError(Text("{entry}: {square} is not a square (columns A-M, rows 1-6)",
                                 entry=_quote(text),
                                 square=_quote(bad_square.group(0).upper())))
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if tok == "x" and 0 < i < len(tokens) - 1 and _is_sq(tokens[i - 1]) and _is_sq(
                tokens[i + 1]):
            tok = "-"
        elif i + 1 < len(tokens) and tokens[i + 1] == "@":
            pass  # a placement letter (M@, B@, S@, R@), never an alias: 's' is not 'sleep'
        else:
            tok = _ALIASES.get(tok, tok)
        out.append(tok)
    out = [t.lstrip("0") or "0" if t.isdigit() and len(t) <= 3 else t for t in out]  # 'play 08'
    if len(out) == 1 and out[0].isdigit():
        out = ["play", out[0]]
    # join: squares around '-' and '@' without spaces, words with single spaces
    text_out = " ".join(out)
    text_out = re.sub(r"\s*-\s*", "-", text_out)
    text_out = re.sub(r"\s*@\s*", "@", text_out)
    if len(out) == 1 and out[0] in _WORD_EXAMPLES:
        needs, example = _WORD_EXAMPLES[out[0]]
        raise NotationError(Text("{entry} needs {needs}: for example {example}",
                                 entry=_quote(text), needs=needs, example=repr(example)))
    if not _SHAPE.fullmatch(text_out):
        raise NotationError(Text("{entry} is not action notation; try 'G2-G5', 'kill F3', "
                                 "'play 5' or 'end'", entry=_quote(text)))
    return text_out


def _is_sq(tok: str) -> bool:
    return len(tok) == 2 and tok[0] in "abcdefghijklm" and tok[1] in "123456"


def parse_action(text: str, state: GameState, side: Side) -> Action:
    """Read ``text`` as one of ``side``'s legal actions now.

    Returns:
        The legal :data:`Action` whose notation matches.

    Raises:
        NotationError: the text is not notation at all.
        WrongTurnError: ``side`` has nothing to decide now.
        IllegalActionError: well-formed but not legal now (the message gives the reason when
            :func:`engine.explain.why_not` finds a simple one, then the closest legal actions).
        AmbiguousActionError: matches several legal actions.
    """
    side = as_side(side)
    norm = _normalise(text)
    if side not in to_act(state):
        if state.phase is Phase.OVER:
            raise WrongTurnError(Text("{entry}: the game is over", entry=_quote(text)))
        waiting = sorted(x.value for x in to_act(state))
        who = (Text("raptor and scientist") if len(waiting) == 2 else
               Text("raptor") if waiting == ["raptor"] else Text("scientist"))
        raise WrongTurnError(Text("{entry}: it is not your decision now (waiting for the "
                                  "{who})", entry=_quote(text), who=who))
    legal = legal_actions(state, side)
    table: dict[str, list[Action]] = {}  # normalised notation -> actions
    shown: dict[str, str] = {}  # normalised notation -> as format_action writes it
    for a in legal:
        written = format_action(a)
        table.setdefault(written.lower(), []).append(a)
        shown.setdefault(written.lower(), written)
    hits = table.get(norm)
    if hits is None and " " not in norm and "@" not in norm and "-" not in norm and _is_sq(norm):
        # a bare square: the one legal action that targets it, if unique
        hits = [a for key, acts in table.items() for a in acts if key.endswith(norm)]
        if not hits:
            hits = None
    if hits is None and norm.split()[0] in ("sleep", "capture", "shoot"):
        # 'capture c1' without the scientist: the one that can, if unique
        hits = [a for key, acts in table.items() for a in acts
                if key.split()[1:] == norm.split()] or None
    if not hits:
        why = why_not(state, side, norm, {entry_form(k) for k in shown})
        raise IllegalActionError(_illegal_message(text, norm, shown, why))
    if len(hits) > 1:
        raise AmbiguousActionError(Text("{entry} matches {n} legal actions: {actions}",
                                        entry=_quote(text), n=len(hits),
                                        actions=", ".join(format_action(a) for a in hits)))
    return hits[0]


def _illegal_message(text: str, norm: str, shown: dict[str, str], why: str | None = None
                     ) -> Text:
    """The refusal of well-formed ``text`` (normalised ``norm``): the reason ``why`` if one
    is known, then the closest legal actions, written as :func:`format_action` writes them;
    ``shown`` maps normalised to written forms."""
    if not shown:
        return Text("{entry} is not legal: there is nothing to decide", entry=_quote(text))
    if why:
        return Text("{entry} is not legal now: {why}; closest legal actions: {closest}",
                    entry=_quote(text), why=why, closest=_closest(norm, shown))
    return Text("{entry} is not legal now; closest legal actions: {closest}",
                entry=_quote(text), closest=_closest(norm, shown))


def _closest(norm: str, shown: dict[str, str]) -> Text:
    keys = list(shown)
    close = difflib.get_close_matches(norm, keys, n=5, cutoff=0.3)
    if not close:
        close = keys[:5]
    listed = ", ".join(shown[k] for k in close)
    if len(keys) > len(close):
        return Text("{actions} ({n} legal in all)", actions=listed, n=len(keys))
    return Text("{actions}", actions=listed)


def describe_action(action: Action, state: GameState, side: Side) -> Text:
    """A short human label for ``side``'s ``action`` in ``state``, for menus and logs,
    e.g. ``'Mother G2→G5 (1 AP)'`` (a :class:`~engine.messages.Text`)."""
    t = type(action)
    if t is Pick:
        return Text("Play {card}: {name}", card=action.card,
                    name=card_name(side, action.card))
    if t in (MoveMother, MoveBaby, MoveScientist, CallBaby, Jeep):
        a, to = N[action.frm], N[action.to]
        if t is MoveMother:
            cost = mother_move_cost(state.sleep_tokens,
                                    bool(state.ap and state.ap.mother_moved))
            return Text("Mother {a}→{to} ({cost} AP)", a=a, to=to, cost=cost)
        if t is MoveBaby:
            if state.board[action.to] == EXIT:  # R3.2
                return Text("Baby {a}→{to} (escapes!)", a=a, to=to)
            return Text("Baby {a}→{to}", a=a, to=to)
        if t is MoveScientist:
            return Text("Scientist {a}→{to} ({cost} AP)", a=a, to=to, cost=action.cost)
        if t is CallBaby:
            return Text("Call the baby {a}→{to}", a=a, to=to)
        return Text("Jeep {a}→{to}", a=a, to=to)
    if t is End:
        return Text("End the turn") if state.phase is Phase.AP else Text("Stop the effect here")
    if t is Heal:
        return Text("Remove a sleep token")
    squares = {k: N[getattr(action, k)] for k in ("to", "at", "by") if hasattr(action, k)}
    if t is PlaceMother:
        return Text("Put the mother on {to}", **squares)
    if t is PlaceBaby:
        return Text("Put a baby on {to}", **squares)
    if t is PlaceScientist:
        return Text("Put a scientist on {to}", **squares)
    if t is Reinforce:
        return Text("Reinforcement on {to}", **squares)
    if t is Kill:
        return Text("Kill the scientist on {at}", **squares)
    if t is Wake:
        return Text("Wake the baby on {at}", **squares)
    if t is PutOut:
        return Text("Put out the fire on {at}", **squares)
    if t is Stand:
        return Text("Stand up the scientist on {at}", **squares)
    if t is Frighten:
        return Text("Frighten the scientist on {at}", **squares)
    if t is Gas:
        return Text("Gas the baby on {at}", **squares)
    if t is PlaceFire:
        return Text("Fire on {at}", **squares)
    if t is SleepBaby:
        return Text("{by}: put the baby on {at} to sleep", **squares)
    if t is Capture:
        return Text("{by}: capture the baby on {at}", **squares)
    return Text("{by}: shoot the mother on {at}", **squares)
