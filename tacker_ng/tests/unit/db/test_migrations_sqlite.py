"""Migrations and models agree on SQLite (the embedded default)."""

from tacker_ng.tests import migrations_base


class TestMigrationsSQLite(migrations_base.MigrationsTestBase):
    pass
