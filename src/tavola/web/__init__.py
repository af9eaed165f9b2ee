"""Tavola's web server: tables played from browsers, against the bot, with friends and at chouettes.

Needs the ``web`` extra (``pip install 'tavola[web]'``). ``tavola serve``
runs it (:mod:`tavola.cli.serve`); docs/server.md describes the API, the
security model, the storage and the recovery. The modules, each with one
job:

* :mod:`tavola.web.options`: what a table is created with;
* :mod:`tavola.web.actions`: actions as JSON;
* :mod:`tavola.web.live`: a table in play, driving :mod:`tavola.table`, its
  actions stored one transaction each and replayed to rebuild it;
* :mod:`tavola.web.kinds`: what differs between a two-player table and a
  chouette (their actions' JSON, their game as the page draws it);
* :mod:`tavola.web.hub`: the tables the server holds and who watches them;
* :mod:`tavola.web.state`: what a seat or a spectator sees, as JSON;
* :mod:`tavola.web.storage`: the database (SQLAlchemy, Alembic);
* :mod:`tavola.web.limits`: message sizes and rates;
* :mod:`tavola.web.routes`: the HTTP API and the WebSocket, a router per
  resource;
* :mod:`tavola.web.app`: the application (FastAPI) that serves them.
"""
