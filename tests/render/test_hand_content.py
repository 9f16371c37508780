"""hand_content: what a hand image shows, the key of the bot's hand image cache. Equal
contents must give equal pictures (else a cache would serve a wrong hand), and the content
is the viewer's own (two players never share a key)."""

import random

import pytest

import engine
from engine import Phase, Side
from render import hand_content, render_hand


def _game_views(seed: int) -> list[engine.View]:
    s = engine.new_game(seed, environment="savannah" if seed % 2 else "jungle",
                        layout="random", setup="quick")
    rng = random.Random(seed)
    views = []
    while s.phase is not Phase.OVER and len(views) < 400:
        views += [engine.view(s, Side.RAPTOR), engine.view(s, Side.SCIENTIST)]
        side = sorted(engine.to_act(s))[0]
        s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
    return views


def test_equal_contents_render_equal_pictures_and_the_viewer_is_part_of_it():
    groups: dict[object, list[engine.View]] = {}
    for seed in (3, 4):
        for v in _game_views(seed):
            groups.setdefault(hand_content(v), []).append(v)
    shared = [vs for vs in groups.values() if len(vs) > 1]
    assert len(shared) >= 10  # many positions share a hand picture (e.g. during the AP phase)
    rng = random.Random(1)
    for vs in rng.sample(shared, 10):
        first = render_hand(vs[0])
        assert render_hand(vs[-1]) == first
        assert render_hand(hand_content(vs[0])) == first
    for key, vs in groups.items():
        assert key.viewer is vs[0].viewer
    # different contents, different pictures (a sample)
    keys = rng.sample(sorted(groups, key=repr), 12)
    assert len({render_hand(k) for k in keys}) == 12


def test_the_content_follows_what_the_image_shows():
    s = engine.new_game(8, setup="quick")
    raptor, scientist = engine.view(s, Side.RAPTOR), engine.view(s, Side.SCIENTIST)
    assert hand_content(raptor) != hand_content(scientist)
    assert hand_content(raptor).hand == tuple(raptor.hand)
    assert hand_content(scientist).deck == tuple(scientist.deck)
    # the scientist's card shown under observation is drawn only for the raptor
    assert hand_content(scientist).shown_pick is None


def test_the_public_view_has_no_hand_content():
    s = engine.new_game(8, setup="quick")
    with pytest.raises(ValueError, match="player's view"):
        hand_content(engine.view(s, None))
