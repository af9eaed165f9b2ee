"""``tavola serve``: the web server, for play from browsers (see :mod:`tavola.web` and docs/server.md).

The tables are kept in a SQLite file in Tavola's data folder
(``$XDG_DATA_HOME/tavola/server.sqlite3``) unless ``--database`` names
another database (``postgresql://user@host/name`` for PostgreSQL). The
database is brought to the latest schema at start, and every unfinished
table is rebuilt from its stored actions. A SQLite file that is damaged (cut
short, a page of zeros, not a database: :mod:`tavola.web.integrity`) is
refused with a message naming it, and ``tavola serve`` exits with status 2.

``--workers N`` serves with N processes sharing the port and the database
(uvicorn's own supervisor starts them, and starts again one that dies);
they hear each other through the database (:mod:`tavola.web.events`), so
any of them may answer any request for any table. Several ``tavola serve``
on other machines may share one PostgreSQL database the same way, behind a
proxy that passes WebSockets; ``--shared`` lets several processes started
apart on one machine share a SQLite file the same way (behind a proxy that
sends each table's requests to one of them: the cheapest way to use more
cores).
"""

from __future__ import annotations

import argparse
import json
import os
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
        "--workers",
        metavar="N",
        type=int,
        default=1,
        help=_("server processes sharing the port and the database (default: %(default)s)"),
    )
    parser.add_argument(
        "--shared",
        action="store_true",
        help=_(
            "other tavola serve processes, started apart, serve the same SQLite file (behind a proxy "
            "that sends each table's requests to one of them); always so on PostgreSQL"
        ),
    )
    parser.add_argument(
        "--search-workers",
        metavar="N",
        type=int,
        help=_(
            "worker processes for the bot's searches, in each server process (default: one a core, "
            "shared among the server processes; 0: in the server's process)"
        ),
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

        from tavola.web.app import SERVE_ENVIRONMENT, create_app
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
    if args.search_workers is None:
        workers = max(1, default_workers() // max(1, args.workers))
    else:
        workers = args.search_workers
    if workers < 0 or args.connections_per_address < 1 or args.workers < 1:
        message = _(
            "tavola serve: --workers is 1 or more, --search-workers 0 or more, "
            "--connections-per-address 1 or more"
        )
        print(message, file=sys.stderr)
        return 2
    database = args.database or default_database_url()
    try:
        engine = open_database(database, shared=args.shared)
    except DatabaseDamagedError as error:
        print(f"tavola serve: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a folder where the file should be, a file it may not read
        print(f"tavola serve: {error.filename or args.database}: {error.strerror}", file=sys.stderr)
        return 2
    if args.workers > 1:  # each process makes its application from the options handed on
        os.environ[SERVE_ENVIRONMENT] = json.dumps(
            {
                "database": database,
                "search_workers": workers,
                "allow_origin": args.allow_origin,
                "connections_per_address": args.connections_per_address,
            }
        )
        engine.dispose()
        uvicorn.run(
            "tavola.web.app:served_app",
            factory=True,
            workers=args.workers,
            host=args.host,
            port=args.port,
            ws_max_size=MAX_MESSAGE,
            ws_per_message_deflate=False,
        )
        return 0
    app = create_app(
        engine,
        searches=SearchPool(workers) if workers else None,
        trusted_origins=args.allow_origin,
        limits=Limits(connections_per_address=args.connections_per_address),
        settle_memory=True,
        shared=True if args.shared else None,
    )
    # No compression of WebSocket messages: a state is about 1.3 KB, and deflating each one for every
    # connection cost the server more than the bytes it saved.
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_MESSAGE, ws_per_message_deflate=False)
    return 0
