"""Schema migrations (alembic) behind tacker-ng-db-manage."""

import os

import alembic.command
import alembic.config
import alembic.migration
from sqlalchemy.engine import Engine

from tacker_ng.db import api as db_api

_INI = os.path.join(os.path.dirname(__file__), "migrations", "alembic.ini")


def _config(engine: Engine | None, connection=None) -> alembic.config.Config:
    cfg = alembic.config.Config(_INI)
    cfg.set_main_option(
        "script_location", os.path.dirname(_INI).replace("%", "%%")
    )
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def _run(command, engine: Engine | None, *args, **kwargs) -> None:
    engine = engine or db_api.get_engine()
    with engine.begin() as connection:
        command(_config(engine, connection), *args, **kwargs)


def upgrade(revision: str = "head", engine: Engine | None = None) -> None:
    """Upgrade the schema to ``revision``."""
    _run(alembic.command.upgrade, engine, revision)


def downgrade(revision: str, engine: Engine | None = None) -> None:
    """Downgrade the schema to ``revision`` (``base`` drops every table)."""
    _run(alembic.command.downgrade, engine, revision)


def current(engine: Engine | None = None) -> str | None:
    """The revision the database is at, or None when never migrated."""
    engine = engine or db_api.get_engine()
    with engine.connect() as connection:
        ctx = alembic.migration.MigrationContext.configure(connection)
        return ctx.get_current_revision()


def head() -> str:
    """The newest revision this code knows."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_config(None)).get_current_head()


def revision(message: str, autogenerate: bool = True) -> None:
    """Write a new revision file (developers only)."""
    _run(
        alembic.command.revision,
        None,
        message=message,
        autogenerate=autogenerate,
    )
