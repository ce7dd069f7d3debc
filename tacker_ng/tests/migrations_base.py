"""Migration tests run against each database backend.

Subclasses pick the backend with oslo.db's opportunistic fixtures; the
backend missing is a failure, never a skip.
"""

import sqlalchemy as sa
from oslo_db.sqlalchemy import test_fixtures, test_migrations
from oslotest import base as oslotest_base

from tacker_ng.db import migration, schema

TABLES = {
    "vnf_packages",
    "vnf_instances",
    "vnf_lcm_op_occs",
    "lccn_subscriptions",
    "grants",
    "conductors",
    "lcm_notifications",
    "leases",
    "reservations",
    "instance_reservations",
    "host_reservations",
    "compute_hosts",
    "host_allocations",
    "lease_events",
    "pkgm_subscriptions",
    "logbooks",
    "flowdetails",
    "atomdetails",
    "vnfc_observed",
    "vnf_convergence",
    "vnf_alarms",
    "fm_subscriptions",
    "pm_jobs",
    "pm_reports",
    "pm_report_entries",
    "pm_thresholds",
    "pm_threshold_states",
    "vnf_autoscale",
}


class _MigrationsMixin:
    SKIP_ON_UNAVAILABLE_DB = False

    @property
    def engine(self) -> sa.Engine:
        return self._db_default.engine  # set by the opportunistic fixture

    def get_engine(self) -> sa.Engine:
        return self.engine

    def get_metadata(self) -> sa.MetaData:
        return schema.metadata()

    def db_sync(self, engine: sa.Engine) -> None:
        migration.upgrade("head", engine=engine)

    def include_object(self, object_, name, type_, reflected, compare_to):
        return not (type_ == "table" and name == "alembic_version")

    def test_walk_up_down_up(self) -> None:
        engine = self.engine
        migration.upgrade("head", engine=engine)
        assert migration.current(engine) == migration.head()
        assert set(sa.inspect(engine).get_table_names()) >= TABLES
        migration.downgrade("base", engine=engine)
        assert migration.current(engine) is None
        assert not TABLES & set(sa.inspect(engine).get_table_names())
        migration.upgrade("head", engine=engine)
        assert set(sa.inspect(engine).get_table_names()) >= TABLES


class MigrationsTestBase(
    _MigrationsMixin,
    test_migrations.ModelsMigrationsSync,
    test_fixtures.OpportunisticDBTestMixin,
    oslotest_base.BaseTestCase,
):
    """Walk the migrations and compare models with the migrated schema."""
