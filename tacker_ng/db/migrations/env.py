"""Alembic environment: run migrations on tacker-ng's engine."""

from alembic import context

from tacker_ng.db import api as db_api
from tacker_ng.db import schema

target_metadata = schema.metadata()


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Use a connection handed in by the caller, else the configured DB."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    with db_api.get_engine().connect() as connection:
        _run(connection)


if context.is_offline_mode():
    raise SystemExit("offline (SQL script) migrations are not supported")
run_migrations_online()
