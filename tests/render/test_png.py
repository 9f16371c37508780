"""The renderer's own PNG writer (render.png) is lossless: decoders see exactly the pixels
that were drawn, for boards, hands and the other modes it accepts."""

import io
import random
import zlib

import pytest
from PIL import Image

import engine
from engine import Side
from render import board_image, hand_image, render_board, render_hand
from render.png import SIGNATURE, png_bytes


def _decoded(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def _mid_game(seed: int, env: str) -> engine.GameState:
    s = engine.new_game(seed, environment=env, layout="random", setup="quick")
    rng = random.Random(seed)
    for _ in range(45):
        side = sorted(engine.to_act(s))[0]
        s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
    return s


@pytest.mark.parametrize("env", ["jungle", "savannah"])
def test_board_and_hand_pngs_decode_to_exactly_the_drawn_pixels(env):
    s = _mid_game(31 if env == "jungle" else 32, env)
    public = engine.view(s, None)
    got = _decoded(render_board(public))
    want = board_image(public)
    assert (got.mode, got.size) == ("RGB", want.size)
    assert got.tobytes() == want.tobytes()
    mine = engine.view(s, Side.SCIENTIST)
    got = _decoded(render_hand(mine))
    want = hand_image(mine)
    assert (got.mode, got.size) == ("RGB", want.size)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_other_modes_round_trip(mode):
    rng = random.Random(mode)
    bands = len(mode)
    im = Image.frombytes(mode, (37, 11), bytes(rng.randrange(256) for _ in range(37 * 11 * bands)))
    data = png_bytes(im)
    assert data.startswith(SIGNATURE)
    got = _decoded(data)
    assert (got.mode, got.size) == (mode, (37, 11))
    assert got.tobytes() == im.tobytes()


def test_chunks_are_well_formed():
    data = png_bytes(Image.new("RGB", (5, 3), (10, 20, 30)))
    pos, kinds = len(SIGNATURE), []
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        crc = int.from_bytes(data[pos + 8 + length:pos + 12 + length], "big")
        assert crc == zlib.crc32(kind + body)
        kinds.append(kind)
        pos += 12 + length
    assert kinds == [b"IHDR", b"IDAT", b"IEND"]
    raw = zlib.decompress(data[len(SIGNATURE) + 25 + 8:-16])  # IDAT body (CRC, IEND off)
    assert raw == b"\x00" + bytes((10, 20, 30)) * 5 + (b"\x00" + bytes((10, 20, 30)) * 5) * 2


def test_palette_images_are_refused():
    with pytest.raises(ValueError, match="not P"):
        png_bytes(Image.new("P", (4, 4)))
