"""``tavola serve``: the web server, for play from browsers (see :mod:`tavola.web` and docs/server.md).

The tables are kept in a SQLite file in Tavola's data folder
(``$XDG_DATA_HOME/tavola/server.sqlite3``) unless ``--database`` names
another database (``postgresql://user@host/name`` for PostgreSQL). The
database is brought to the latest schema at start, and every unfinished
table is rebuilt from its stored actions. A SQLite file that is damaged (cut
short, a page of zeros, not a database: :mod:`tavola.web.integrity`) is
refused with a message naming it, and ``tavola serve`` exits with status 2.
"""

from __future__ import annotations

import argparse
import sys

from tavola.i18n import _


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        help=_("serve tables to play from a browser, against the bot, with friends and at chouettes"),
        description=_("Serve Tavola's tables over HTTP: a JSON API and a WebSocket per table."),
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help=_("the address to listen on (default: %(default)s)")
    )
    parser.add_argument(
        "--port", type=int, default=8080, help=_("the port to listen on (default: %(default)s)")
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help=_("the database (default: a SQLite file in Tavola's data folder)"),
    )
    parser.add_argument(
        "--allow-origin",
        metavar="URL",
        action="append",
        default=[],
        help=_(
            "an origin besides the server's own whose pages may act, such as https://club.example "
            "(may be given again)"
        ),
    )
    parser.add_argument(
        "--search-workers",
        metavar="N",
        type=int,
        help=_("worker processes for the bot's searches (default: one a core; 0: in the server's process)"),
    )
    parser.add_argument(
        "--connections-per-address",
        metavar="N",
        type=int,
        default=16,
        help=_("the most WebSocket connections one client address may hold (default: %(default)s)"),
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from tavola.web.app import create_app
        from tavola.web.integrity import DatabaseDamagedError
        from tavola.web.limits import MAX_MESSAGE, Limits
        from tavola.web.searches import SearchPool, default_workers
        from tavola.web.storage import default_database_url, open_database
    except ImportError as error:
        print(
            _("tavola serve needs the web extra: pip install 'tavola[web]' ({error})").format(error=error),
            file=sys.stderr,
        )
        return 2
    from tavola.bot.hypergammon import solve_on_first_use

    solve_on_first_use(False)  # players wait for moves, not for a solve
    workers = default_workers() if args.search_workers is None else args.search_workers
    if workers < 0 or args.connections_per_address < 1:
        message = _("tavola serve: --search-workers is 0 or more, --connections-per-address 1 or more")
        print(message, file=sys.stderr)
        return 2
    try:
        engine = open_database(args.database or default_database_url())
    except DatabaseDamagedError as error:
        print(f"tavola serve: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a folder where the file should be, a file it may not read
        print(f"tavola serve: {error.filename or args.database}: {error.strerror}", file=sys.stderr)
        return 2
    app = create_app(
        engine,
        searches=SearchPool(workers) if workers else None,
        trusted_origins=args.allow_origin,
        limits=Limits(connections_per_address=args.connections_per_address),
        settle_memory=True,
    )
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_MESSAGE)
    return 0
