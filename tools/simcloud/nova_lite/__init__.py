"""nova-lite: a simulated Keystone v3 + Nova (Train, microversions up to
2.79) + Placement, in one process, for tests, benchmarks and the sandbox.
Never imported by the product.

tacker-ng's reservation service drives it unchanged through keystoneauth1
and python-novaclient: it finds hypervisors, reads Placement
inventories, builds aggregates, private flavors and server groups, and
deletes the servers booted into a reservation. Run it as a process with
``serve.py`` (doc/source/contributor/nova-lite.rst), or in-process:

* :class:`~tools.simcloud.nova_lite.server.HttpServer` plus
  :func:`~tools.simcloud.nova_lite.seed.populate` for any layout;
* :class:`NovaLite` below, the benchmarks' shortcut (tools/bench/
  observer.py): servers put straight on hosts, calls counted by route.
"""

from __future__ import annotations

import uuid

from tools.simcloud.nova_lite import model, seed
from tools.simcloud.nova_lite.server import HttpServer


class NovaLite:
    """An in-process simulator with one admin user ``bench`` (password
    ``bench-secret``, project ``bench``) and servers added directly."""

    def __init__(self, max_limit: int = 1000) -> None:
        self.server = HttpServer(max_limit=max_limit)
        self.sim = self.server.sim
        self.url = self.server.url
        self.auth_url = self.server.auth_url
        seed.populate(self.sim, [], admin_password=uuid.uuid4().hex)
        self.project_id = self.sim.identity.add_project("bench")
        self.sim.identity.add_user(
            "bench", "bench-secret", "bench", role="admin"
        )
        self._flavor = self.sim.cloud.flavors["1"]

    def add_server(self, server_id: str, host: str, zone: str) -> None:
        """An ACTIVE server on ``host`` (made if new) in ``zone``."""
        cloud = self.sim.cloud
        cloud.add_host(host)
        cloud.add_server(
            model.Server(
                id=server_id,
                name=f"vm-{server_id[:8]}",
                project_id=self.project_id,
                user_id="bench",
                flavor=self._flavor,
                image="",
                host=host,
                zone=zone,
            )
        )

    def set_status(self, server_id: str, status: str) -> None:
        self.sim.cloud.servers[server_id].status = status

    def delete(self, server_id: str) -> None:
        self.sim.cloud.remove_server(server_id)

    def reset_calls(self) -> dict[str, int]:
        """Calls by route name since the last reset (``token``,
        ``servers/detail``, ``os-services`` ...)."""
        return self.sim.reset_calls()

    def __enter__(self) -> NovaLite:
        self.server.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.stop()
