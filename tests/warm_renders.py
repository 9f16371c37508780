"""Imported once by the render workers' forkserver of a test process (the
``warm_render_workers`` fixture of ``tests/conftest.py``): draws a few boards, both hands
and a short animation, in English and in Traditional Chinese, so that every render worker
forked from that server (render/pool.py) starts with what its first renders would load
otherwise: the bot's image module and discord.py (the pickled draw functions live in
``bot.discord.images``), the message catalogs, the fonts, the sprites and the glyphs.

Each bot a test starts makes new workers (two or three), and each spent some 0.3 CPU
seconds on those first renders; the workers themselves are unchanged (same initializer,
same priority, same code), only their caches are full. A failure here leaves the workers
cold, never broken.
"""

from __future__ import annotations

import random


def _warm() -> None:
    import engine
    import render
    from bot.discord.images import in_language
    from render.replay import render_replay

    state = engine.new_game(1)
    rng = random.Random(1)
    states = [state]
    while not state.is_over and len(states) < 40:
        side = min(engine.to_act(state))
        state = engine.apply(state, side, rng.choice(engine.legal_actions(state, side)))
        states.append(state)
    for lang in ("en", "zh-TW"):
        for s in states[::8]:
            in_language(render.render_board, lang, engine.view(s, None))
            for side in (engine.Side.RAPTOR, engine.Side.SCIENTIST):
                in_language(render.render_hand, lang, render.hand_content(engine.view(s, side)))
    render_replay([engine.view(s, None) for s in states[:3]])


try:
    _warm()
except Exception:  # a cold worker is slower, not wrong
    pass
