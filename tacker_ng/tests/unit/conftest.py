"""Unit test fixtures: isolated config, a migrated SQLite file, the API."""

import pytest
import webtest

from tacker_ng.api import app as api_app
from tacker_ng.infra.openstack import auth_cache
from tacker_ng.tests import fixtures


@pytest.fixture(autouse=True)
def _fresh_vim_tokens():
    """No test sees a Keystone token an earlier test's fake VIM issued."""
    auth_cache.clear()
    yield
    auth_cache.clear()


@pytest.fixture
def conf(tmp_path):
    with fixtures.config(str(tmp_path)) as c:
        yield c


@pytest.fixture
def db(conf, tmp_path):
    with fixtures.database(f"sqlite:///{tmp_path}/unit.sqlite") as engine:
        yield engine


@pytest.fixture
def api(conf, db):
    """The full WSGI pipeline (noauth) in-process."""
    return webtest.TestApp(api_app.build_wsgi_app(conf))
