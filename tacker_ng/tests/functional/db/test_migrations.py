"""Migrations walk up/down and match the models on MariaDB and PostgreSQL.

oslo.db provisions a throw-away database through the openstack_citest
account (tools/test-setup.sh creates it); a missing server fails the test.
"""

from oslo_db.sqlalchemy import test_fixtures

from tacker_ng.tests import migrations_base


class TestMigrationsMariaDB(migrations_base.MigrationsTestBase):
    FIXTURE = test_fixtures.MySQLOpportunisticFixture


class TestMigrationsPostgreSQL(migrations_base.MigrationsTestBase):
    FIXTURE = test_fixtures.PostgresqlOpportunisticFixture
