"""``python -m bot demo`` and ``play`` hand over to the game ``--game`` names (Raptor by
default), through the registry (:mod:`bot.games`), and refuse an unknown one."""

from __future__ import annotations

import pytest

from bot import games
from bot.__main__ import main
from bot.offline.common import split_game


@pytest.mark.parametrize("command", ["demo", "play"])
def test_an_unknown_game_is_refused_in_one_line(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--game", "chess", "--seed", "1"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == (f"python -m bot {command}: unknown game 'chess': the "
                                       f"games are {', '.join(games.names())}\n")


def test_the_game_is_read_out_of_the_arguments():
    assert split_game(["--seed", "3"], "p") == ("raptor", ["--seed", "3"])
    assert split_game(["--game", "raptor", "--seed", "3"], "p") == ("raptor", ["--seed", "3"])
    assert split_game(["--seed", "3", "--game=raptor"], "p") == ("raptor", ["--seed", "3"])


def test_each_game_has_its_offline_modes():
    for name in games.names():
        offline = games.plugin(name).offline()
        assert callable(offline.demo_main) and callable(offline.play_main)
        assert callable(offline.replay_animation)
