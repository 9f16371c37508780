"""The platform's sentences: what the bot says about any game's match — challenges,
threads, permissions, private hands, refused and out-of-date clicks — and the small pieces
every game's sentences are made of (mentions, timestamps, the AI's levels, lists).

Pure functions of public data; nothing here imports discord or a game, so the texts are
checked without a client. A game's own sentences live with the game
(``bot.games.<game>.texts``) and build on these.

Every text is a :class:`~engine.messages.Text` of the catalog: it *is* the English sentence,
and the Discord layer writes it in its readers' language (``bot.i18n.tr``) when it sends it.
Compose texts with parameters and :meth:`Text.joined`, never with ``+``.

Discord markup used: ``<@id>`` mentions, ``<t:unix:R>`` relative timestamps, ``<#id>``
channels, ``**bold**``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.messages import N_, Text

from .match.models import ChallengeStatus

# --------------------------------------------------------------------------- small pieces


def ts(unix: float, style: str = "R") -> str:
    """A Discord timestamp, shown in each reader's own time zone (``R``: "in 3 hours")."""
    return f"<t:{int(unix)}:{style}>"


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 fire token"``, ``"2 fire tokens"``: a number with its noun in the right number
    (``plural`` for an irregular one, else ``noun + "s"``). English only: the sentences of
    the catalog use :meth:`Text.plural` instead, so that each language counts its own way."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


#: The levels of the AI as the texts name them.
LEVEL_WORDS = {"easy": Text("easy"), "medium": Text("medium"), "hard": Text("hard")}


def ai_name(level: str) -> Text:
    """``"AI (hard)"``: an AI seat by its level."""
    return Text("AI ({level})", level=LEVEL_WORDS.get(level, level))


def plain(text: str) -> str:
    """Discord's markup as plain console text: ``**bold**`` unmarked, `` `code` `` in single
    quotes."""
    return text.replace("**", "").replace("`", "'")


def and_list(items: Sequence) -> Text:
    """``"a and b"`` (a list of people or sides, in the reader's language)."""
    return Text.joined(" and ", items)


_CLOSED_WORDS = {ChallengeStatus.ACCEPTED: Text("accepted ✅"),
                 ChallengeStatus.DECLINED: Text("declined"),
                 ChallengeStatus.CANCELLED: Text("cancelled"),
                 ChallengeStatus.EXPIRED: Text("expired")}


def challenge_closed_text(ch, status: str) -> Text:
    return Text("Challenge from {challenger} to {challenged}: {status}.",
                challenger=mention(ch.challenger_id), challenged=mention(ch.challenged_id),
                status=_CLOSED_WORDS.get(status, status))


# --------------------------------------------------------------------------- tables
_TABLE_CLOSED = {"started": Text("started"), "cancelled": Text("cancelled"),
                 "expired": Text("expired: nobody started it in time")}


def table_seats_text(table, ai_word=ai_name) -> Text:
    """``"<@1>, <@2>, AI (easy)"``: who sits at a table, in the order they came."""
    return Text.joined(", ", [mention(p.user_id) if p.ai is None else ai_word(p.ai)
                              for p in table.players])


def table_text(table, title: Text | str, options: Text | str, fewest: int) -> Text:
    """A table's public message: the game and its options, its host, who sits at it, how
    many seats are free and when it expires unless started."""
    free = table.seats - len(table.players)
    return Text(
        "**{title}** table of {host} for {seats} players{options}\n"
        "At the table ({n}/{seats}): {players}\n"
        "{free} Its host starts the match once {fewest} players or more are seated, and can "
        "seat the AI at a free seat. Unless started, it closes {expires}.",
        title=title, host=mention(table.host_id), seats=table.seats,
        options=Text(" ({options})", options=options) if options else "",
        n=len(table.players), players=table_seats_text(table),
        free=(Text.plural("{n} seat is free: click **Join** to take it.",
                          "{n} seats are free: click **Join** to take one.", free)
              if free else Text("Every seat is taken.")),
        fewest=fewest, expires=ts(table.expires_at))


def table_closed_text(table, title: Text | str) -> Text:
    """A closed table's message: the game, its host, who sat at it, and why it closed."""
    return Text("**{title}** table of {host} ({players}): {status}.", title=title,
                host=mention(table.host_id), players=table_seats_text(table),
                status=_TABLE_CLOSED.get(table.status, table.status))


CARD_BELOW = Text("The match goes on on its card below.")


def threads_setting_text(on: bool, *, changed: bool) -> Text:
    """``/raptor-admin threads``: the server's setting, and what it means."""
    if on:
        template = (N_("Threads per match are now **on**: each match gets its own thread. "
                       "Matches already running stay where they are. Change it with "
                       "`/raptor-admin threads setting:off`.") if changed else
                    N_("Threads per match: **on**: each match gets its own thread. Matches "
                       "already running stay where they are. Change it with "
                       "`/raptor-admin threads setting:off`."))
    else:
        template = (N_("Threads per match are now **off**: matches are played in the channel "
                       "itself. Matches already running stay where they are. Change it with "
                       "`/raptor-admin threads setting:on`.") if changed else
                    N_("Threads per match: **off**: matches are played in the channel itself. "
                       "Matches already running stay where they are. Change it with "
                       "`/raptor-admin threads setting:on`."))
    return Text(template)


THREADS_OFF = Text("The match is played here in the channel: this server turned threads off "
                   "(`/raptor-admin threads`).")
THREADS_NOT_HERE = Text("The match is played here in the channel: this kind of channel can't "
                        "have threads.")


def threads_missing_text(missing: Sequence[str]) -> Text:
    """Why a match is played in the channel when the bot may not start a thread there."""
    names = and_list([Text("**{name}**", name=PERMISSION_NAMES.get(m, m)) for m in missing])
    return Text.plural("The match is played here in the channel: I can't start a thread for it "
                       "(I'm missing {names} here). A server admin can grant it so that every "
                       "match gets its own thread.",
                       "The match is played here in the channel: I can't start a thread for it "
                       "(I'm missing {names} here). A server admin can grant them so that every "
                       "match gets its own thread.", len(missing), names=names)


def to_match(title: Text | str, link: str) -> Text:
    """A jump link to the match called ``title`` (its game's title for it), for a private
    message (a DM) that refers to it."""
    return Text("[↪ back to {title}]({link})", title=title, link=link)


def hand_retired_text(heading: str, line: str, jump: str | None = None) -> Text:
    """A DM hand whose buttons are retired: its heading, ``✔ line``, the link to the match
    (:func:`to_match`)."""
    if jump:
        return Text("{heading}\n✔ {line} {jump}", heading=heading, line=line, jump=jump)
    return Text("{heading}\n✔ {line}", heading=heading, line=line)


HAND_SENT_TO_DM = Text("I sent your hand to your DMs. 📬")
HAND_SUPERSEDED = Text("A newer message with your hand follows.")
HAND_MATCH_OVER = Text("The match is over.")
MATCH_OVER = Text("This match is over: nothing can be changed in it any more.")
STOPPING = Text("I'm stopping for a moment (a restart or an upgrade), so nothing was done. "
                "Try again in a minute.")
NOT_YOUR_MATCH = Text("This isn't your match: only its players can use these controls.")
#: A click whose control is not one the bot put on the clicked message (a crafted component
#: id: another server's, channel's, match's or challenge's object, or an id out of range).
NOT_THIS_MESSAGE = Text("That control doesn't belong to this message, so nothing was changed.")
#: Who may end a match without a result (``/raptor-admin end`` and its confirmation button).
END_NEEDS_MANAGE_SERVER = Text("Ending a match takes the **Manage Server** permission in this "
                               "server; being allowed to use `/raptor-admin` is not enough. "
                               "Nothing was changed.")


def match_elsewhere_text(title: Text | str, channel_id: int) -> Text:
    """A command typed where no match runs, by a player whose match (``title``) runs in
    channel ``channel_id`` (its thread, say)."""
    return Text("There is no match in this channel: yours, {title}, is played in {channel}. "
                "Use the command there.", title=title, channel=f"<#{channel_id}>")


DM_CLOSED = Text("I couldn't send you a direct message (your DMs are closed for this server), "
                 "so in this match your hand shows here, as a message only you can see.")
PERMISSION_NAMES = {
    "send_messages": "Send Messages",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
    "view_channel": "View Channel",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


def missing_permissions_text(missing: Sequence[str]) -> Text:
    names = ", ".join(f"**{PERMISSION_NAMES.get(m, m)}**" for m in missing)
    if len(missing) > 1:
        return Text("I can't run a match in this channel: I'm missing the {names} permissions "
                    "here. A server admin must grant them to me (channel settings → "
                    "Permissions), or play in another channel.", names=names)
    return Text("I can't run a match in this channel: I'm missing the {names} permission here. "
                "A server admin must grant it to me (channel settings → Permissions), or play "
                "in another channel.", names=names)


_CONTROL_WORDS = {"control": Text("control"), "button": Text("button"), "menu": Text("menu"),
                  "card button": Text("card button")}


def stale_text(what: str = "control", *, group: str, jump: str | None = None) -> Text:
    """A click on an out-of-date control of a match of the game whose command group is
    ``group``; ``jump``: the link to the match (:func:`to_match`), for a click in a DM, where
    ``/<group> status`` does not run."""
    what_text = _CONTROL_WORDS.get(what, what)
    if jump:
        return Text("This {what} is out of date: the match has moved on since it was posted, "
                    "so nothing was changed. {jump}", what=what_text, jump=jump)
    return Text("This {what} is out of date: the match has moved on since it was posted, so "
                "nothing was changed. Use the latest message, or `/{group} status`.",
                what=what_text, group=group)
