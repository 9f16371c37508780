"""The strings of the application commands, for the catalog (``python -m bot.i18n.catalogs``
reads them from the commands themselves; :class:`bot.discord.languages.CommandTranslator`
gives their translations to Discord)."""

from __future__ import annotations

from .. import games
from .admin import RaptorAdminCog
from .presentation import ui_of


def command_messages() -> list[tuple[str, str]]:
    """Every string of the application commands a client shows, with where it is used
    (``"/raptor challenge: option side, choice"``): subcommand names and descriptions,
    group descriptions, option names and descriptions, choice names. Group names are left
    out (see the module's note)."""
    out: list[tuple[str, str]] = []
    for cog in (*(ui_of(name).cog for name in games.on_discord()), RaptorAdminCog):
        group = cog.__cog_group_name__
        out.append((str(cog.__cog_group_description__), f"/{group}: description"))
        for command in cog.__cog_app_commands__:
            where = f"/{group} {command.name}"
            out.append((command.name, f"{where}: name"))
            out.append((command.description, f"{where}: description"))
            for p in command.parameters:
                out.append((p.name, f"{where}: option name"))
                out.append((p.description, f"{where}: option {p.name}, description"))
                out.extend((c.name, f"{where}: option {p.name}, choice") for c in p.choices)
    return out
