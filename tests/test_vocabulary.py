"""The engine's vocabularies (phases, end reasons, pieces) are data in the engine; the bot's
and the renderer's wording tables are keyed by them and cover every value."""

from __future__ import annotations

import random

import engine
from bot.games import raptor as raptor_game
from bot.games.raptor import texts
from engine import Phase, Piece, Reason
from engine.actions import PIECE_LETTERS
from engine.state import SETUP_PHASES
from render import board


def test_wording_tables_cover_every_phase_and_reason():
    assert set(texts.PHASE_NAMES) == set(Phase)
    assert set(raptor_game._DOING) == set(Phase) - {Phase.OVER}
    assert set(Reason) <= set(texts.REASONS)
    assert set(engine.REASON_WORDS) == set(Reason)
    assert set(board.REASON_TEXT) == set(Reason)
    assert SETUP_PHASES == {Phase.SETUP_MOTHER, Phase.SETUP_BABIES, Phase.SETUP_SCIENTISTS}


def test_events_name_pieces_from_the_engine_vocabulary():
    assert {p.value for p in Piece} == {"mother", "baby", "scientist"}
    assert PIECE_LETTERS == {Piece.MOTHER: "M", Piece.BABY: "B", Piece.SCIENTIST: "S"}
    seen = set()
    for g in range(3):
        s = engine.new_game(g)
        rng = random.Random(g)
        while not s.is_over and s.round < 30:
            side = min(engine.to_act(s))
            s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
            seen |= {e.piece for e in s.events if e.piece is not None}
    assert seen == {p.value for p in Piece}
    assert all(type(p) is str for p in seen)  # events hold the plain values (JSON as before)
