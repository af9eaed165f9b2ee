"""``tavola rules [TOPIC]``: the rules explained, in the language chosen with ``--lang``.

With no TOPIC, the topics are listed with what each covers. With a TOPIC
(its English name, such as ``cube``, or a local one, such as ``cubo`` or
``olandese``) its text is printed, formatted for the terminal; ``--plain``
prints the Markdown as it is, for piping into a file or a pager. An unknown
topic is a usage error (exit status 2).
"""

from __future__ import annotations

import argparse
import sys

from tavola.i18n import _


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "rules",
        help=_("the rules explained: the game, the cube, money and match play, the chouette, the variants"),
        description=_("Explain the rules in the language Tavola speaks; with no topic, list the topics."),
    )
    parser.add_argument(
        "topic", nargs="?", help=_("the topic to read, such as game, cube or dutch (none: list the topics)")
    )
    parser.add_argument("--plain", action="store_true", help=_("print the plain Markdown text, for piping"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markdown import Markdown

    from tavola.guide import TOPICS, UnknownTopicError, find_topic, topic_text

    if args.topic is None:
        _list_topics(args.plain)
        return 0
    try:
        topic = find_topic(args.topic)
    except UnknownTopicError:
        topics = ", ".join(known.name for known in TOPICS)
        message = _('tavola rules: no topic called "{topic}"; the topics are: {topics}')
        print(message.format(topic=args.topic, topics=topics), file=sys.stderr)
        return 2
    text = topic_text(topic.name)
    if args.plain:
        print(text, end="" if text.endswith("\n") else "\n")
    else:
        Console(highlight=False).print(Markdown(text))
    return 0


def _list_topics(plain: bool) -> None:
    """The topics, each with its title and what it covers, and how to read one."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from tavola.guide import TOPICS

    hint = _("Read one with: tavola rules TOPIC (for example: tavola rules {example})").format(example="cube")
    if plain:
        print(_("Topics"))
        for topic in TOPICS:
            print(f"  {topic.name:<12} {topic.title()}: {topic.summary()}")
        print(hint)
        return
    table = Table(title=_("Topics"), title_justify="left", show_header=False, box=None, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for topic in TOPICS:
        table.add_row(topic.name, Text.assemble((topic.title(), "bold"), ": ", topic.summary()))
    console = Console(highlight=False)
    console.print(table)
    console.print(hint, markup=False)
