"""Test fixtures shared by unit and functional tests (no services here)."""

import contextlib
from collections.abc import Iterator

from oslo_config import cfg
from oslo_config import fixture as config_fixture
from oslo_db.sqlalchemy import enginefacade

from tacker_ng import policies, rpc, service
from tacker_ng.conductor import rpcapi
from tacker_ng.conf import opts as conf_opts
from tacker_ng.db import api as db_api
from tacker_ng.db import migration

_REGISTERED = False


@contextlib.contextmanager
def config(state_path: str, **overrides) -> Iterator[cfg.ConfigOpts]:
    """The global CONF parsed with no files, state under ``state_path``.

    ``overrides`` are ``group__name=value`` (``DEFAULT`` group: ``name``).
    """
    global _REGISTERED  # noqa: PLW0603
    conf = cfg.CONF
    if not _REGISTERED:
        service.register_library_opts(conf)
        policies.get_enforcer()  # registers [oslo_policy]
        _REGISTERED = True
    fixture = config_fixture.Config(conf)
    fixture.setUp()
    try:
        conf([], project="tacker_ng", default_config_files=[])
        # reset() at the previous cleanup dropped set_default() values.
        conf_opts.set_defaults(conf)
        conf.set_override("transport_url", "fake:/")
        conf.set_override("state_path", state_path)
        conf.set_override("auth_strategy", "noauth", group="api")
        # Test NFVOs (callbacks, package servers) listen on loopback; the
        # outbound policy has its own tests with the production default.
        conf.set_override("outbound_deny_networks", [])
        for key, value in overrides.items():
            group, _, name = key.rpartition("__")
            conf.set_override(name, value, group=group or None)
        policies.reset()
        yield conf
    finally:
        policies.reset()
        rpcapi.reset()
        rpc.cleanup()
        fixture.cleanUp()


@contextlib.contextmanager
def database(url: str, migrate: bool = True) -> Iterator[object]:
    """Point the process-wide enginefacade at ``url`` (migrated)."""
    factory = enginefacade._TransactionFactory()
    factory.configure(connection=url)
    restore = db_api.context_manager.patch_factory(factory)
    try:
        engine = db_api.get_engine()
        if migrate:
            migration.upgrade(engine=engine)
        yield engine
    finally:
        restore()
        factory.dispose_pool()
