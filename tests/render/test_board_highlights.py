"""Highlights of the last round, drawn from the engine's events."""

from dataclasses import replace

import engine
from engine import Event, Phase, Side, square
from render import GRID_BOX, PANEL_BOX, board_image, default_events, render_board, square_box
from render import theme as T

from .helpers import board, changed_pixels, count, crop_square, decode, diff_box, position

SMOKE = (210, 210, 205)


def play(state, side, *moves):
    for text in moves:
        state = engine.apply(state, side, engine.parse_action(text, state, side))
    return state


def raptor_ap():
    return position({"E4": "M", "F4": "S", "B2": "S", "J5": "B"},
                    "phase: ap\nround: 2\nrevealed: 7 3\nap: raptor 6\nraptor pick: 7\n"
                    "scientist pick: 3\n")


def test_kill_and_mother_move_are_highlighted():
    s = play(raptor_ap(), Side.RAPTOR, "kill F4", "E4-E2", "J5-J6")
    kinds = [e.kind for e in s.round_events]
    assert kinds[-3:] == ["killed", "moved", "moved"]
    lit, plain = board(s), board(s, highlight=False)
    assert count(crop_square(lit, "F4"), T.CROSS) > 100          # the kill's cross
    assert count(crop_square(plain, "F4"), T.CROSS) == 0
    assert count(crop_square(lit, "E3"), T.HL_RAPTOR) > 60        # the mother's path E4->E2
    assert count(crop_square(plain, "E3"), T.HL_RAPTOR) == 0
    assert count(crop_square(lit, "J6"), T.HL_RAPTOR) > 20        # the baby's step J5->J6
    # highlights never touch the status line or the panel
    assert diff_box(lit, plain) is not None
    d = diff_box(lit, plain)
    assert GRID_BOX[0] <= d[0] and GRID_BOX[1] <= d[1] and d[2] <= GRID_BOX[2] \
        and d[3] <= GRID_BOX[3]


def test_shot_draws_a_line_and_a_target_on_the_mother():
    s = position({"E4": "M", "H4": "S", "B2": "S"},
                 "phase: ap\nround: 2\nrevealed: 9 5\nap: scientist 4\nraptor pick: 9\n"
                 "scientist pick: 5\n")
    s = play(s, Side.SCIENTIST, "H4 shoot E4")
    assert s.round_events[-1].kind == "shot" and s.sleep_tokens == 1
    lit, plain = board(s), board(s, highlight=False)
    assert count(crop_square(lit, "E4"), T.HL_SHOT) > 60
    assert count(crop_square(lit, "G4"), T.HL_SHOT) > 20
    assert count(crop_square(plain, "E4"), T.HL_SHOT) == 0
    assert count(crop_square(lit, "E4"), T.SLEEP) > 150           # badge above the target


def test_fire_placed_is_framed_and_a_jeep_leaves_smoke_where_it_cleared_fire():
    fire = position({"E4": "M", "H4": "S", "B2": "S"},
                    "phase: effect\nround: 2\nrevealed: 9 5\neffect: scientist 5\n"
                    "raptor pick: 9\nscientist pick: 5\n")
    fire = play(fire, Side.SCIENTIST, "fire H3")
    lit = board(fire)
    assert count(crop_square(lit, "H3"), T.HL_FIRE) > 80
    assert count(crop_square(lit, "H3"), T.FIRE) > 300
    assert count(crop_square(board(fire, highlight=False), "H3"), T.HL_FIRE) == 0

    jeep = position({"E5": "M", "C3": "S", "B2": "S", "E3": "*"},
                    "phase: effect\nround: 2\nrevealed: 9 3\neffect: scientist 3\n"
                    "raptor pick: 9\nscientist pick: 3\n")
    jeep = play(jeep, Side.SCIENTIST, "C3-G3")
    ev = jeep.round_events[-1]
    assert ev.kind == "jeep" and ev.cells == (square("E3"),)
    lit = board(jeep)
    assert count(crop_square(lit, "E3"), SMOKE) > 40
    assert count(crop_square(lit, "E3"), T.HL_SCIENTIST) > 60     # the jeep's line
    assert count(crop_square(board(jeep, highlight=False), "E3"), SMOKE) == 0


def test_an_escape_lights_up_the_exit():
    s = position({"E4": "M", "B2": "B", "B5": "S"},
                 "phase: ap\nround: 2\nrevealed: 7 3\nap: raptor 4\nraptor pick: 7\n"
                 "scientist pick: 3\n")
    s = play(s, Side.RAPTOR, "B2-B1", "B1-A1")
    assert s.escaped == 1 and s.round_events[-1].kind == "escaped"
    lit, plain = board(s), board(s, highlight=False)
    assert count(crop_square(lit, "A1"), T.HL_RAPTOR) > 40
    assert count(crop_square(plain, "A1"), T.HL_RAPTOR) == 0


def test_events_argument_overrides_the_default():
    v = engine.view(raptor_ap(), None)
    assert default_events(v) == ()
    cross = decode(render_board(v, events=[Event("killed", side=Side.RAPTOR, at=square("C3"))]))
    assert count(crop_square(cross, "C3"), T.CROSS) > 100
    assert render_board(v, events=()) == render_board(v, highlight=False)
    assert render_board(v, highlight=False,
                        events=[Event("killed", at=square("C3"))]) == render_board(v, events=())


def test_default_events_are_last_round_in_pick_plus_the_round_in_progress():
    s = play(raptor_ap(), Side.RAPTOR, "kill F4")
    v = engine.view(s, None)
    killed = tuple(e for e in v.round_events if e.kind == "killed")
    assert killed
    in_pick = replace(v, phase=Phase.PICK, last_round_events=v.round_events, round_events=())
    assert default_events(in_pick) == v.round_events
    in_ap = replace(v, last_round_events=v.round_events, round_events=())
    assert default_events(in_ap) == ()
    assert count(crop_square(board_image(in_pick), "F4"), T.CROSS) > 100
    assert count(crop_square(board_image(in_ap), "F4"), T.CROSS) == 0


def test_a_finished_round_stays_highlighted_in_the_next_pick_phase():
    s = play(raptor_ap(), Side.RAPTOR, "kill F4", "end")
    assert s.phase is Phase.PICK and s.round == 3
    assert any(e.kind == "killed" for e in s.last_round_events)
    assert count(crop_square(board(s), "F4"), T.CROSS) > 100


def test_every_event_kind_draws_without_error_and_inside_the_grid():
    """Every highlight stays on the grid; outside it, only the panel's legend of the dashed
    frame where the mother disappeared comes with them (the raptor's Mother row)."""
    v = engine.view(raptor_ap(), None)
    q = square
    events = [
        Event("moved", side=Side.SCIENTIST, at=q("B2"), to=q("D3"), piece="scientist"),
        Event("called", side=Side.RAPTOR, at=q("J5"), to=q("F5"), piece="baby"),
        Event("jeep", side=Side.SCIENTIST, at=q("C6"), to=q("H6"), cells=(q("E6"),)),
        Event("shot", side=Side.SCIENTIST, at=q("E1"), to=q("E4")),
        Event("slept", side=Side.SCIENTIST, at=q("I2"), to=q("J2"), text="shot"),
        Event("slept", side=Side.SCIENTIST, at=q("K2"), text="gas"),
        Event("killed", side=Side.RAPTOR, at=q("F4"), to=q("E4")),
        Event("captured", side=Side.SCIENTIST, at=q("C1"), to=q("D1")),
        Event("fire_placed", side=Side.SCIENTIST, at=q("G2")),
        Event("fire_out", side=Side.RAPTOR, at=q("H2"), cells=(q("H2"), q("H3"))),
        Event("escaped", side=Side.RAPTOR, at=q("L6"), to=q("M6"), piece="baby"),
        Event("reinforced", side=Side.SCIENTIST, to=q("K1")),
        Event("frightened", side=Side.RAPTOR, at=q("B2")),
        Event("stood", side=Side.SCIENTIST, at=q("L3")),
        Event("woken", side=Side.RAPTOR, at=q("I5")),
        Event("disappeared", side=Side.RAPTOR, at=q("G5")),
        Event("returned", side=Side.RAPTOR, to=q("C4")),
        Event("revealed", value=3, value2=7), Event("round_end", value=2),
    ]
    lit = board_image(v, events=events)
    plain = board_image(v, highlight=False)
    d = diff_box(lit, plain, (0, 0, PANEL_BOX[2], PANEL_BOX[1]))  # all but the panel
    assert d is not None
    assert GRID_BOX[0] <= d[0] and GRID_BOX[1] <= d[1] and d[2] <= GRID_BOX[2] \
        and d[3] <= GRID_BOX[3]
    legend = diff_box(lit, plain, PANEL_BOX)
    assert legend is not None and legend[2] <= PANEL_BOX[2] // 2  # the raptor's column
    assert PANEL_BOX[1] + 118 <= legend[1] and legend[3] <= PANEL_BOX[1] + 146  # one row
    without = [e for e in events if e.kind != "disappeared"]
    assert diff_box(board_image(v, events=without), plain, PANEL_BOX) is None
    for name in ("D1", "F4"):
        assert count(lit.crop(square_box(q(name))), T.CROSS) > 100
    for name in ("B2", "I5", "C4"):                         # frames in the raptor's colour
        assert count(lit.crop(square_box(q(name))), T.HL_RAPTOR) > 60


def test_a_scientists_walk_is_drawn_square_by_square():
    """B1-E3 costs 5 AP around the rock on C2: the arrow follows the walk (B1 C1 D1 E1 E2
    E3), never the diagonal that would cross the rock (R8.1)."""
    s = position({"E4": "M", "B1": "S", "C2": "#", "L6": "S", "J5": "B", "C3": "*"},
                 "phase: ap\nround: 2\nrevealed: 9 2\nap: scientist 7\nraptor pick: 9\n"
                 "scientist pick: 2\n")
    s = play(s, Side.SCIENTIST, "B1-E3")
    (moved,) = [e for e in s.round_events if e.kind == "moved"]
    assert [engine.square_name(q) for q in moved.cells] == ["B1", "C1", "D1", "E1", "E2", "E3"]
    lit, plain = board(s), board(s, highlight=False)
    for q in ("C1", "D1", "E1", "E2"):
        assert count(crop_square(lit, q), T.HL_SCIENTIST) > 60, q
        assert count(crop_square(plain, q), T.HL_SCIENTIST) == 0
    for q in ("C2", "D2", "D3"):  # off the walk: nothing drawn there
        assert count(crop_square(lit, q), T.HL_SCIENTIST) == 0, q


def test_a_mothers_call_arrow_follows_the_babys_way_round_the_rocks():
    """C5 to G3 past the rocks F3-F5: the arrow goes C5 D5 E5 E6 F6 G6 G5 G4 G3 (R9.1),
    never the diagonal across the rocks."""
    s = position({"G2": "M", "C5": "B", "F3": "#", "F4": "#", "F5": "#", "B2": "S", "L6": "S"},
                 "phase: effect\nround: 2\nrevealed: 1 5\neffect: raptor 1\nraptor pick: 1\n"
                 "scientist pick: 5\n")
    s = play(s, Side.RAPTOR, "C5-G3")
    (called,) = [e for e in s.round_events if e.kind == "called"]
    assert [engine.square_name(q) for q in called.cells] == [
        "C5", "D5", "E5", "E6", "F6", "G6", "G5", "G4", "G3"]
    lit, plain = board(s), board(s, highlight=False)
    for q in ("D5", "E6", "F6", "G5", "G4"):
        assert count(crop_square(lit, q), T.HL_RAPTOR) > 30, q
        assert count(crop_square(plain, q), T.HL_RAPTOR) == 0
    for q in ("D4", "E4", "E3"):  # the straight line C5-G3 would cross these
        assert count(crop_square(lit, q), T.HL_RAPTOR) == 0, q


def test_a_capture_cross_stays_visible_under_a_scientist_who_steps_there():
    s = position({"E4": "M", "C2": "S", "D2": "z", "B5": "S", "J5": "B"},
                 "phase: ap\nround: 2\nrevealed: 9 3\nap: scientist 6\nraptor pick: 9\n"
                 "scientist pick: 3\n")
    captured = play(s, Side.SCIENTIST, "C2 capture D2")
    stepped = play(captured, Side.SCIENTIST, "C2-D2")
    x0, y0, x1, y1 = square_box(square("D2"))
    corner = (x1 - T.CELL // 3, y0, x1, y0 + T.CELL // 3)     # the small cross, top right
    assert count(board(stepped).crop(corner), T.CROSS) > 40
    assert count(board(stepped, highlight=False).crop(corner), T.CROSS) == 0
    assert count(board(captured).crop(corner), T.CROSS) < count(board(stepped).crop(corner),
                                                                 T.CROSS)


def test_a_fire_placed_and_put_out_in_one_round_reads_as_such():
    s = position({"E4": "M", "H4": "S", "B2": "S", "J5": "B"},
                 "phase: effect\nround: 2\nrevealed: 9 5\neffect: scientist 5\n"
                 "raptor pick: 9\nscientist pick: 5\n")
    placed = play(s, Side.SCIENTIST, "fire H3", "fire G3")
    out = play(placed, Side.RAPTOR, "E4-E3", "E3-F3", "out G3")
    assert out.board[square("G3")] == 1 and out.board[square("H3")] == 1
    lit, plain = board(out), board(out, highlight=False)
    for q in ("G3", "H3"):
        sq = crop_square(lit, q)
        assert count(sq, SMOKE) > 40, q                       # put out: smoke
        assert count(sq, T.HL_FIRE) > 30, q                   # placed: its (dashed) frame
        x0, y0, x1, y1 = square_box(square(q))
        middle = (x0 + 24, y0 + 24, x1 - 24, y1 - 24)        # inside the smoke ring
        faded = lit.crop(middle)
        assert changed_pixels(faded, plain.crop(middle), 40) > 60, q  # a small faded flame
        assert count(faded, T.FIRE_MID, 60) < count(board(placed).crop(middle), T.FIRE_MID, 60)
        # dashed, not the solid frame of a fire still burning
        assert count(sq, T.HL_FIRE) < count(crop_square(board(placed), q), T.HL_FIRE)


def test_the_image_after_a_round_says_which_round_it_shows():
    s = play(raptor_ap(), Side.RAPTOR, "kill F4", "end")
    assert s.phase is Phase.PICK and s.round == 3
    from render.board import _status, shown_round

    v = engine.view(s, None)
    assert shown_round(v) == 2
    assert _status(v)[0] == "After round 2 · Both players pick a card"
    first = engine.new_game(1, setup="quick")
    assert shown_round(engine.view(first, None)) is None
    assert _status(engine.view(first, None))[0] == "Round 1 · Both players pick a card"
