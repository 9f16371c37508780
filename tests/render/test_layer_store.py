"""Static layers evicted from the small image cache come back from the compressed store
with exactly the pixels a fresh drawing gives (and the store is bounded)."""

import engine
from render import board
from render.board import static_layer


def test_a_packed_layer_unpacks_to_the_drawn_pixels(monkeypatch):
    s = engine.new_game(77, environment="savannah", layout="random", setup="quick")
    rocks = s.layout.rocks()
    static_layer.cache_clear()
    drawn = static_layer(s.layout, rocks)
    assert (s.layout, rocks) in board._packed
    static_layer.cache_clear()  # as if evicted by 16 other layouts
    calls = []
    monkeypatch.setattr(board, "_draw_static_layer",
                        lambda *a: calls.append(a))  # must not be drawn again
    unpacked = static_layer(s.layout, rocks)
    assert calls == []
    assert unpacked is not drawn
    assert (unpacked.mode, unpacked.size) == (drawn.mode, drawn.size)
    assert unpacked.tobytes() == drawn.tobytes()
    static_layer.cache_clear()


def test_the_store_is_bounded(monkeypatch):
    monkeypatch.setattr(board, "PACKED_LAYERS", 3)
    static_layer.cache_clear()
    layouts = [engine.new_game(s, layout="random", setup="quick").layout for s in range(5)]
    for lay in layouts:
        static_layer(lay, lay.rocks())
    assert len(board._packed) == 3
    assert list(board._packed)[-3:] == [(lay, lay.rocks()) for lay in layouts[2:]]
    static_layer.cache_clear()
