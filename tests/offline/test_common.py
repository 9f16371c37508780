"""What every offline command shares (:mod:`bot.offline.common`): a stopped run says so in
its own language."""

from __future__ import annotations

import pytest

from bot.offline.common import run_offline


@pytest.mark.parametrize(("lang", "said"), [("en", "Stopped."), ("zh-TW", "已停止。")])
def test_a_stopped_run_says_so_in_its_language(tmp_path, capsys, lang, said):
    async def main() -> None:
        raise KeyboardInterrupt  # what Ctrl-C raises when no handler caught it

    status = run_offline(main(), command="demo", out=tmp_path, busy="", lang=lang)
    assert status == 130
    assert capsys.readouterr().err == f"\n{said}\n"
