"""Collection for the whole checkout: the web server's modules need the ``web`` extra.

Where FastAPI, SQLAlchemy or Alembic are missing, the doctests of
``src/tavola/web`` are not collected (tests/test_web_*.py skip themselves);
its migrations are run by Alembic only, never imported as modules.
"""

from __future__ import annotations

from importlib.util import find_spec


def _installed(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except ImportError:
        return False


collect_ignore_glob = ["src/tavola/web/migrations/*"] + (
    []
    if all(_installed(name) for name in ("fastapi", "sqlalchemy", "alembic", "uvicorn"))
    else ["src/tavola/web/*", "src/tavola/web/*/*", "src/tavola/web/*/*/*"]
)
