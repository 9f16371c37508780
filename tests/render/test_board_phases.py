"""Every phase renders a readable board: size, status line, pieces where the board says."""

import random

import pytest

import engine
from engine import Phase, Side
from engine.geometry import BOARD_SQUARES
from engine.state import BABY_CODES, FIRE, MOTHER, SCIENTIST_CODES
from render import BOARD_IMAGE_SIZE, GRID_BOX, HEADER_BOX, PANEL_BOX, square_box
from render import theme as T

from .helpers import board, count, crop_square, position

TO_ACT_PILL = (250, 250, 240)
FIVE_BABIES = {"D2": "B", "G1": "B", "J3": "B", "D5": "B", "J6": "B"}
FOUR_SCIENTISTS = {"B2": "S", "B5": "S", "L2": "S", "L4": "S"}
PHASES = {
    "setup_mother": ({}, "phase: setup_mother\nround: 0\n"),
    "setup_babies": ({"G2": "M", "D2": "B"}, "phase: setup_babies\nround: 0\n"),
    "setup_scientists": ({"G2": "M", **FIVE_BABIES, "B2": "S"},
                         "phase: setup_scientists\nround: 0\n"),
    "pick": ({"G2": "M", **FIVE_BABIES, **FOUR_SCIENTISTS}, "phase: pick\nround: 2\n"),
    "effect": ({"G2": "M", **FIVE_BABIES, **FOUR_SCIENTISTS},
               "phase: effect\nround: 2\nrevealed: 3 7\neffect: raptor 3\nraptor pick: 3\n"
               "scientist pick: 7\n"),
    "ap": ({"G2": "M", **FIVE_BABIES, **FOUR_SCIENTISTS},
           "phase: ap\nround: 2\nrevealed: 3 7\nap: raptor 4\nraptor pick: 3\n"
           "scientist pick: 7\n"),
    "mother_return": ({**FIVE_BABIES, **FOUR_SCIENTISTS},
                      "phase: mother_return\nround: 2\nmother: off\nrevealed: 2 7\n"
                      "raptor pick: 2\nscientist pick: 7\nobserve-next: yes\n"),
    "over": ({"G2": "M", "D2": "B", "J3": "B", **FOUR_SCIENTISTS},
             "phase: over\nround: 9\nescaped: 3\nwinner: raptor babies_escaped\n"),
}


def _mother_squares(im) -> list[int]:
    return [q for q in BOARD_SQUARES if count(im.crop(square_box(q)), T.RAPTOR) > 900]


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_every_phase_renders(phase):
    cells, extra = PHASES[phase]
    state = position(cells, extra, rocks=True)
    assert state.phase is Phase(phase)
    im = board(state)
    assert im.size == BOARD_IMAGE_SIZE
    header = im.crop(HEADER_BOX)
    over = phase == "over"
    # the winner's banner only at the end; a "To act" label whenever someone must act
    assert (count(header, T.WIN_BG) > 5000) is over
    assert (count(header, TO_ACT_PILL) > 500) is (not over and bool(engine.to_act(state)))
    # the mother is drawn exactly where the board has her, and not at all while off the board
    mothers = _mother_squares(im)
    assert mothers == ([state.mother] if state.mother is not None else [])
    if phase in ("setup_babies", "effect", "ap", "pick"):
        assert count(crop_square(im, "D2"), T.RAPTOR) > 250     # a baby


def test_mother_off_the_board_is_told_in_the_panel():
    cells, extra = PHASES["mother_return"]
    off = board(position(cells, extra, rocks=True))
    on = board(position({**cells, "G2": "M"}, extra.replace("mother: off\n", ""), rocks=True))
    left_panel = (0, PANEL_BOX[1], PANEL_BOX[2] // 2, PANEL_BOX[3])
    assert off.crop(left_panel).tobytes() != on.crop(left_panel).tobytes()
    assert _mother_squares(off) == [] and _mother_squares(on) == [engine.square("G2")]


@pytest.mark.parametrize("winner, reason, col", [("raptor", "babies_escaped", 0),
                                                 ("scientist", "mother_asleep", 1)])
def test_the_winner_is_marked_in_their_panel_column(winner, reason, col):
    extra = f"phase: over\nround: 9\nwinner: {winner} {reason}\n" + (
        "escaped: 3\n" if winner == "raptor" else "sleep: 5\n")
    im = board(position({"G2": "M", **FOUR_SCIENTISTS}, extra, rocks=True))
    half = PANEL_BOX[2] // 2
    columns = [(0, PANEL_BOX[1], half, PANEL_BOX[3]), (half, PANEL_BOX[1], PANEL_BOX[2],
                                                       PANEL_BOX[3])]
    assert count(im.crop(columns[col]), T.WIN_BG) > 100
    assert count(im.crop(columns[1 - col]), T.WIN_BG) == 0


def _classify(im, q) -> str:
    sq = im.crop(square_box(q))
    if count(sq, T.FIRE) > 300 and count(sq, T.FIRE_CORE) > 60:
        return "fire"
    if count(sq, T.RAPTOR) > 900:
        return "mother"
    if count(sq, T.RAPTOR) > 250 or count(sq, T.RAPTOR_PALE) > 250:
        return "baby"
    if count(sq, T.SCIENTIST) > 400 or count(sq, T.SCIENTIST_PALE) > 400:
        return "scientist"
    return "empty"


def _expected(code: int) -> str:
    if code == FIRE:
        return "fire"
    if code == MOTHER:
        return "mother"
    if code in BABY_CODES:
        return "baby"
    if code in SCIENTIST_CODES:
        return "scientist"
    return "empty"


def test_random_games_every_phase_every_square():
    """In positions of every phase from random games, each square shows what the board holds."""
    seen: dict[Phase, engine.GameState] = {}
    for g in range(40):
        s = engine.new_game(900 + g, environment=("jungle", "savannah")[g % 2], setup="manual")
        rng = random.Random(g)
        while True:
            seen.setdefault(s.phase, s)
            if s.phase is Phase.MOTHER_RETURN or (s.phase is Phase.AP and s.round > 4):
                seen[s.phase] = s
            if s.phase is Phase.OVER:
                break
            side = sorted(engine.to_act(s))[0]
            s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
        if len(seen) == len(Phase):
            break
    assert set(seen) == set(Phase)
    for phase, s in seen.items():
        for side in (None, Side.RAPTOR):
            im = board(s, side, highlight=False)
            assert im.size == BOARD_IMAGE_SIZE
            got = {q: _classify(im, q) for q in BOARD_SQUARES}
            want = {q: _expected(s.board[q]) for q in BOARD_SQUARES}
            assert got == want, f"{phase}: {engine.to_diagram(s)}"


def test_a_verdict_shows_in_the_banner_of_a_match_ended_outside_the_game():
    """A resignation (or a timeout, a draw, a moderator) ends the match, not the game: the
    image shows the verdict where a game's end shows its winner."""
    cells, extra = PHASES["ap"]
    state = position(cells, extra, rocks=True)
    plain = board(state)
    ended = board(state, verdict="Scientist wins: the raptor resigned")
    assert count(plain.crop(HEADER_BOX), T.WIN_BG) == 0
    assert count(ended.crop(HEADER_BOX), T.WIN_BG) > 5000
    assert count(ended.crop(HEADER_BOX), TO_ACT_PILL) == 0  # nobody is to act any more
    assert ended.crop(GRID_BOX).tobytes() == plain.crop(GRID_BOX).tobytes()
    # the panel marks nobody as to act, and the winner as at a game's end
    left = (0, PANEL_BOX[1], PANEL_BOX[2] // 2, PANEL_BOX[3])
    right = (PANEL_BOX[2] // 2, PANEL_BOX[1], PANEL_BOX[2], PANEL_BOX[3])
    won = board(state, verdict="Scientist wins: the raptor resigned", winner=Side.SCIENTIST)
    assert count(won.crop(right), T.WIN_BG) > 100 and count(won.crop(left), T.WIN_BG) == 0
    assert count(ended.crop(right), T.WIN_BG) == 0
    assert ended.crop(left).tobytes() != plain.crop(left).tobytes()  # "to act" is gone


def _disappearance():
    """The raptor's Disappearance (R9.2) resolved: during the scientist's AP, then after the
    round (the mother back on I5), then the scientist's next pick made, face down."""
    s = engine.from_diagram(
        "    A B C D E F G H I J K L M\n"
        "1   o S . . . . . . . . . . o\n"
        "2     . . b . # . . . B . .\n"
        "3     . . . . . M . . . . .\n"
        "4     . . B . . . . # . . .\n"
        "5     . . . . . . . . . . .\n"
        "6   o . . . . . . . . . . S o\n"
        "raptor hand: 2 5 8\nscientist hand: 1 7 9\nround: 4\n")
    s = engine.apply(s, engine.Side.RAPTOR, engine.Pick(2))
    during = engine.apply(s, engine.Side.SCIENTIST, engine.Pick(7))
    s = engine.apply(during, engine.Side.SCIENTIST, engine.End())
    after = engine.apply(s, engine.Side.RAPTOR, engine.parse_action("M@I5", s,
                                                                  engine.Side.RAPTOR))
    picked = engine.apply(after, engine.Side.SCIENTIST, engine.Pick(after.hands[
        engine.Side.SCIENTIST][0]))
    return during, after, picked


def test_the_dashed_frame_where_the_mother_disappeared_has_its_legend_in_the_panel():
    from render.board import MOTHER_GONE_FROM, mother_status

    during, after, _ = _disappearance()
    mother_row = (0, PANEL_BOX[1] + 120, PANEL_BOX[2] // 2, PANEL_BOX[1] + 144)
    g3 = engine.square("G3")
    for state in (during, after):
        v = engine.view(state, None)
        assert mother_status(v, g3) == MOTHER_GONE_FROM == "disappeared from here"
        shown = board(state)
        plain = board(state, highlight=False)  # no dashed frame on the board: no legend
        assert count(shown.crop(square_box(g3)), T.HL_RAPTOR) > 40  # the frame on G3
        assert count(shown.crop(mother_row), T.HL_RAPTOR) > 20      # its mark in the legend
        assert count(plain.crop(mother_row), T.HL_RAPTOR) == 0
    assert mother_status(engine.view(during, None)) == "hidden (Disappearance)"
    assert mother_status(engine.view(after, None)) == "on the board"


def test_a_pick_not_revealed_yet_is_a_cards_back_marked_face_down():
    from render.board import PICKED_FACE_DOWN

    _, after, picked = _disappearance()
    card_row = (PANEL_BOX[2] // 2, PANEL_BOX[3] - 34, PANEL_BOX[2], PANEL_BOX[3])
    before, now = board(after).crop(card_row), board(picked).crop(card_row)
    assert count(before, T.CARD_BACK) == 0
    assert count(now, T.CARD_BACK) > 250 and count(now, T.CARD_BACK_MARK) > 15  # back and "?"
    assert PICKED_FACE_DOWN == "face down"
