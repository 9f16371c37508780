"""Who saw what: an audit of everything the fake Discord recorded for one table (R11).

For every message event (creation or edit) of the table's channel and every DM to its
players, the audit takes the position it was made in (the table's timeline: the stored match
after the action during which the event was recorded) and its audience (everyone for a
public message; one player for an ephemeral message or a DM). It then checks:

* text (content, embeds, component labels, placeholders, option labels and descriptions)
  names no card that is hidden from that audience: a card in a hand, or a pick still face
  down, unless the audience may know it (its own cards, discards, the cards revealed this
  round or last round, the scientist's pick shown to the raptor under observation, R5.2);
* no public component is a card button (``...:pick:<n>``) or offers a card pick, and every
  public custom_id is one of the bot's public control schemes (no card in it);
* a card button shown to a player is one of that player's cards at that moment;
* every public image is byte-identical to ``render.render_board(engine.view(state, None))``
  and every hand image shown to a player to ``render.render_hand(engine.view(state, side))``;
  no other file is posted;
* the match seed (when it has six digits or more) appears nowhere.

:func:`audit` returns an :class:`AuditReport` with the counts of what it checked (so a test
can assert the audit was not vacuous) and the list of findings (each a readable sentence).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

import engine
import render
from bot.games.raptor import texts
from bot.match import Match
from engine import Side
from tests.e2e.players import Table
from tests.fakediscord import Record

R, S = Side.RAPTOR, Side.SCIENTIST
PUBLIC_CUSTOM_IDS = re.compile(
    r"raptor:(c:[0-9]+:(accept|decline|cancel)"
    r"|m:[0-9]+:r:[0-9]+:hand"
    r"|m:[0-9]+:v:[0-9]+:(do(:[0-9]+)?|grp|grp:[A-Za-z0-9]+:[0-9]+|end|undo)"
    r"|m:[0-9]+:(resign|rematch|draw-accept|draw-decline))")
PICK_ID = re.compile(r":pick:([0-9]+)$")
PLAY = re.compile(r"\bplay\s*[1-9]\b", re.IGNORECASE)


@dataclass
class AuditReport:
    records: int = 0
    public: int = 0
    private: int = 0  # ephemeral or DM
    face_down_checks: int = 0  # (record, face-down pick) pairs checked
    hand_checks: int = 0  # (record, card in the other side's hand) pairs checked
    boards: int = 0
    hands: int = 0
    findings: list[str] = field(default_factory=list)


def _component_text(record: Record) -> str:
    parts = []
    for c in record.walk():
        for key in ("label", "placeholder"):
            if c.get(key):
                parts.append(str(c[key]))
        for o in c.get("options") or []:
            parts += [str(o.get("label") or ""), str(o.get("description") or "")]
    return "\n".join(parts)


def _revealed_cards(match: Match) -> dict[Side, set[int]]:
    """Cards revealed this round or in the last complete round."""
    st = match.state
    out: dict[Side, set[int]] = {R: set(), S: set()}
    if st.revealed is not None:
        out[R].add(st.revealed[0])
        out[S].add(st.revealed[1])
    for e in (*st.round_events, *st.last_round_events):
        if e.kind == "revealed":
            out[R].add(e.value)
            out[S].add(e.value2)
    return out


def known_labels(match: Match, viewer: Side | None) -> set[str]:
    """Card labels the audience ``viewer`` (None: everyone) may see in this position."""
    v = engine.view(match.state, viewer)
    known = {sd: set(v.discards[sd]) | cards for sd, cards in _revealed_cards(match).items()}
    if viewer is not None:
        known[viewer] |= set(v.hand or ()) | set(v.deck or ())
        if v.my_pick is not None:
            known[viewer].add(v.my_pick)
        if v.shown_pick is not None:
            known[S].add(v.shown_pick)
    return {_label(sd, c) for sd in (R, S) for c in known[sd]}


def _label(side: Side, card: int) -> str:
    return texts.card_label(side, card)


def hidden_cards(match: Match, viewer: Side | None) -> dict[Side, tuple[set[int], set[int]]]:
    """Per other side: (cards in its hand, its face-down pick) hidden from ``viewer``."""
    st = match.state
    v = engine.view(st, viewer)
    out = {}
    for sd in (R, S):
        if sd is viewer:
            continue
        hand = set(st.hands[sd])
        pick = st.picks[sd]
        face_down = set()
        if pick is not None and st.revealed is None and not (
                sd is S and viewer is R and v.shown_pick == pick):
            face_down.add(pick)
        out[sd] = (hand, face_down)
    return out


class _Timeline:
    def __init__(self, table: Table) -> None:
        self.seqs = [step.seq for step in table.timeline]
        self.matches = [step.match for step in table.timeline]

    def at(self, seq: int) -> Match:
        """The stored match right after the action during which record ``seq`` was made."""
        i = bisect_left(self.seqs, seq)
        if i >= len(self.seqs):
            raise AssertionError(f"record #{seq} was made after the last noted step")
        return self.matches[i]


def audit(table: Table) -> AuditReport:
    """Audit every record of ``table`` (see the module docstring)."""
    fake = table.fake
    side_of = {table.raptor.id: R, table.scientist.id: S}
    timeline = _Timeline(table)
    report = AuditReport()
    seen_files: set[int] = set()
    renders: dict[tuple[int, Side | None], bytes] = {}

    def rendered(match: Match, viewer: Side | None) -> bytes:
        key = (id(match.state), viewer)
        if key not in renders:
            v = engine.view(match.state, viewer)
            renders[key] = render.render_board(v) if viewer is None else render.render_hand(v)
        return renders[key]

    for r in fake.records:
        dm = r.visibility == "dm" and r.user_id in side_of
        if r.channel_id != table.channel.id and not dm:
            continue
        match = timeline.at(r.seq)
        if r.visibility == "public":
            viewer = None
            report.public += 1
        else:
            viewer = side_of.get(r.user_id)  # a third user sees only public information
            report.private += 1
        report.records += 1
        where = f"record #{r.seq} ({r.visibility}{'' if viewer is None else ' to ' + viewer})"
        text = r.text + "\n" + _component_text(r)
        allowed = known_labels(match, viewer)
        for sd, (hand, face_down) in hidden_cards(match, viewer).items():
            for card in hand | face_down:
                label = _label(sd, card)
                if card in face_down:
                    report.face_down_checks += 1
                else:
                    report.hand_checks += 1
                if label in allowed:
                    continue  # e.g. "9 · No effect", the same label on both sides
                if label in text:
                    what = "face-down pick" if card in face_down else "card in hand"
                    report.findings.append(f"{where}: names the {sd.value}'s {what} "
                                           f"{label!r}: {text[:300]!r}")
        seed = str(match.seed)
        if len(seed) >= 6 and (seed in text or any(seed in (c.get("custom_id") or "")
                                                   for c in r.walk())):
            report.findings.append(f"{where}: shows the match seed")

        # components
        for c in r.walk():
            cid = c.get("custom_id") or ""
            pick = PICK_ID.search(cid)
            if viewer is None:
                if cid and not PUBLIC_CUSTOM_IDS.fullmatch(cid):
                    report.findings.append(f"{where}: public custom_id {cid!r}")
                for o in c.get("options") or []:
                    if PLAY.search(o.get("value", "")) or PLAY.search(o.get("label", "")):
                        report.findings.append(f"{where}: public option {o!r} picks a card")
            elif pick is not None:
                card = int(pick.group(1))
                if card not in match.state.hands[viewer]:
                    report.findings.append(f"{where}: card button {cid!r} is not a card of "
                                           f"the {viewer.value}'s hand")
        if viewer is None and PLAY.search(r.text):
            report.findings.append(f"{where}: public text names a card pick: {r.text[:200]!r}")

        # files
        for a in r.attachments:
            if a.id in seen_files:
                continue  # kept from an earlier event of the same message
            seen_files.add(a.id)
            if a.filename == "board.png" and viewer is None:
                report.boards += 1
                if a.data != rendered(match, None):
                    report.findings.append(f"{where}: board.png differs from the public "
                                           "render of the position")
            elif a.filename == "hand.png" and viewer is not None:
                report.hands += 1
                if a.data != rendered(match, viewer):
                    report.findings.append(f"{where}: hand.png differs from the "
                                           f"{viewer.value}'s own hand render")
            else:
                report.findings.append(f"{where}: unexpected file {a.filename!r}")
    return report
