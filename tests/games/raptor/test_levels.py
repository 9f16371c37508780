"""The offline commands offer the AI's levels (``bot.ai.LEVELS``) and refuse others."""

from __future__ import annotations

import importlib

import pytest

import bot.ai


@pytest.mark.parametrize("command", ["terminal", "demo"])
def test_the_offline_commands_offer_easy_medium_and_hard(command, capsys, tmp_path):
    module = importlib.import_module(f"bot.offline.{command}")
    with pytest.raises(SystemExit) as refused:
        module.main(["--level", "expert", "--out", str(tmp_path / "x")])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'expert' (choose from 'easy', 'medium', 'hard')" in err
    assert bot.ai.LEVELS == ("easy", "medium", "hard")
    assert not (tmp_path / "x").exists()
