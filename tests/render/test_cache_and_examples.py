"""The static layer is cached per layout and never changed by a render; the examples script."""

import engine
from render import render_board, static_layer
from render.examples import write_examples

from .helpers import decode, position


def test_static_layer_is_cached_by_layout_and_rocks_and_left_untouched():
    s = position({"G3": "M", "E4": "*", "C2": "S"}, rocks=True)
    rocks = s.layout.rocks()
    base = static_layer(s.layout, rocks)
    before = base.tobytes()
    hits = static_layer.cache_info().hits
    first = render_board(engine.view(s, None))
    assert static_layer.cache_info().hits == hits + 1       # the render reused it
    assert base.tobytes() == before                         # and did not draw on it
    assert render_board(engine.view(s, None)) == first      # pure: same input, same bytes
    assert static_layer(s.layout, rocks[1:]) is not base    # other rocks, other layer


def test_layouts_differ_in_the_picture():
    a = engine.new_game(1, environment="jungle", layout="random", setup="quick")
    b = engine.new_game(2, environment="savannah", layout="random", setup="quick")
    assert a.layout != b.layout
    assert static_layer(a.layout, a.layout.rocks()).tobytes() != \
        static_layer(b.layout, b.layout.rocks()).tobytes()


def test_examples_script_writes_three_pngs(tmp_path):
    paths = write_examples(tmp_path)
    assert sorted(p.name for p in paths) == ["board-jungle.png", "board-savannah.png",
                                             "hand.png"]
    for p in paths:
        im = decode(p.read_bytes())
        assert im.width == 828 and im.height > 400
