"""The pictures of fixed positions match the stored reference images (small tolerance).

After a deliberate change of the look, look at the new pictures and rewrite the references
with ``python -m tests.render.reference``.
"""

import io

import pytest
from PIL import Image, ImageChops, ImageStat

from render import GRID_BOX

from .helpers import changed_pixels
from .reference import HERE, reference_images, reference_states

IMAGES = reference_images()


def test_reference_positions_use_their_layout_rocks():
    for state in reference_states().values():
        rocks = sorted(q for q, c in enumerate(state.board) if c == 2)
        assert rocks == list(state.layout.rocks())


@pytest.mark.parametrize("name", sorted(IMAGES))
def test_matches_the_stored_reference(name):
    path = HERE / f"{name}.png"
    assert path.exists(), f"missing {path}; run python -m tests.render.reference"
    want = Image.open(path).convert("RGB")
    got = Image.open(io.BytesIO(IMAGES[name])).convert("RGB")
    assert got.size == want.size
    mean = ImageStat.Stat(ImageChops.difference(got, want)).mean
    assert max(mean) < 1.0, f"{name}: mean difference per channel {mean}"
    far = changed_pixels(got, want, 32)
    assert far < 0.005 * got.width * got.height, f"{name}: {far} pixels differ by more than 32"
    if name.startswith("board"):
        # the grid (pieces, tokens, highlights) more strictly: 0.1 % of its pixels
        g, w = got.crop(GRID_BOX), want.crop(GRID_BOX)
        far = changed_pixels(g, w, 32)
        assert far < 0.001 * g.width * g.height, f"{name}: {far} grid pixels differ by > 32"


def test_the_tolerance_catches_missing_highlights():
    """Guard: dropping the highlights of the jungle position fails the comparison."""
    import engine
    from render import board_image

    state = reference_states()["jungle"]
    got = board_image(engine.view(state, None), highlight=False)
    want = Image.open(HERE / "board-jungle-ap.png").convert("RGB")
    far = changed_pixels(got.convert("RGB").crop(GRID_BOX), want.crop(GRID_BOX), 32)
    assert far >= 0.001 * (GRID_BOX[2] - GRID_BOX[0]) * (GRID_BOX[3] - GRID_BOX[1])
