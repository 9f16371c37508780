"""The Ratjack images against the stored pictures (tests/render/ratjack/reference), with a
tolerance for font rasterising: at most 0.5 % of the pixels may differ by more than 24."""

from __future__ import annotations

import pytest
from PIL import Image

from tests.render.helpers import changed_pixels, decode

from .reference import DOCS, HERE, pictures


@pytest.mark.parametrize("name", sorted(pictures()))
def test_the_images_match_their_references(name):
    now = decode(pictures()[name])
    stored = Image.open(HERE / name).convert("RGB")
    assert now.size == stored.size
    assert changed_pixels(now, stored, threshold=24) <= 0.005 * now.width * now.height


def test_the_documentation_shows_the_reference_table():
    stored = Image.open(DOCS / "ratjack-table.png").convert("RGB")
    assert stored.tobytes() == Image.open(HERE / "table-4p.png").convert("RGB").tobytes()
