"""The VMs of a conductor-driven cluster VNF "boot": test tooling only.

With the real conductor running the MgmtDriver's hooks, nothing in the
test calls them: :class:`Boot` is a thread that polls Nova for the
ACTIVE servers of one VNF's stack (found from Heat's resources of
``vnf-<instance id>``) and gives each new one its body
(tools/testvms/bodies.py), the way a real VM becomes reachable
some time after Nova says ACTIVE, while the conductor's
``instantiate_end`` hook is already retrying SSH with backoff. Bodies of
servers that are gone are destroyed. With ``embody_new`` off, new
servers stay without a body: their address answers nothing (SSH
unreachable).

The poll starts every ``interval`` seconds and backs off to
``max_interval`` while nothing changes; a change (a body made for a
server gone ACTIVE, or removed with its server) starts it short again.
A poll is ONE Nova listing of the project the stack's servers live in;
Heat's nested resource list (which servers are the stack's) is asked
only when that listing changed (a server came or went, or one Heat had
not claimed changed status). Before: a nested Heat
resource list and a Nova show per server on every poll - each show two
Neutron calls more (Nova adds the security groups) - a third of Nova's
and Neutron's requests while this story ran beside the other lanes. The
conductor's SSH retries (test_k8s_cluster_conductor.SSH) outlast the
longest interval.
"""

from __future__ import annotations

import threading
from typing import Any

from heatclient import exc as heat_exc

from tools.testvms import bodies as vm_bodies

SERVER = "OS::Nova::Server"


class Boot(threading.Thread):
    def __init__(
        self,
        cloud: Any,
        stack_name: str,
        bodies: vm_bodies.Bodies,
        interval: float = 0.5,
        max_interval: float = 2.0,
    ) -> None:
        super().__init__(name=f"boot-{stack_name}", daemon=True)
        self.heat = cloud.heat(admin=True)
        self.nova = cloud.nova(admin=True)
        self.stack_name = stack_name
        self.bodies = bodies
        self.interval = interval
        self.max_interval = max_interval
        #: False: servers created from now on get no body (unreachable).
        self.embody_new = True
        #: Held while bodies change (read bodies under it).
        self.lock = threading.Lock()
        self.error: BaseException | None = None
        self._halt = threading.Event()
        #: Project of the stack's servers (from the first one seen).
        self._project: str | None = None
        #: Server ids of that project at the last poll, the stack's
        #: among them, and the status of the others.
        self._listed: set[str] = set()
        self._mine: set[str] = set()
        self._unclaimed: dict[str, str] = {}

    def server_ids(self) -> list[str]:
        """The stack's servers (nested stacks included); none before the
        stack exists."""
        try:
            resources = self.heat.resources.list(
                self.stack_name, nested_depth=3
            )
        except heat_exc.HTTPNotFound:
            return []
        return [
            r.physical_resource_id
            for r in resources
            if r.resource_type == SERVER and r.physical_resource_id
        ]

    def _stack_servers(self) -> list[Any]:
        """The stack's servers now. Heat is asked which servers are the
        stack's when the project's listing changed: a server came or
        went, or one Heat did not claim changed status (Heat records a
        server's id just after Nova took it: it may be listed first)."""
        if self._project is None:
            self._mine = set(self.server_ids())
            servers = []
            for server_id in self._mine:
                try:
                    servers.append(self.nova.servers.get(server_id))
                except Exception:  # noqa: BLE001 - deleted meanwhile
                    continue
            if servers:
                self._project = servers[0].tenant_id
            return servers
        listing = {
            s.id: s
            for s in self.nova.servers.list(
                search_opts={"all_tenants": True, "project_id": self._project}
            )
        }

        def unclaimed() -> dict[str, str]:
            return {
                i: s.status for i, s in listing.items() if i not in self._mine
            }

        if set(listing) != self._listed or unclaimed() != self._unclaimed:
            self._mine = set(self.server_ids())
            self._listed = set(listing)
            self._unclaimed = unclaimed()
        return [s for i, s in listing.items() if i in self._mine]

    def sync_once(self) -> bool:
        """Bodies for the stack's ACTIVE servers; whether any changed."""
        servers = self._stack_servers()
        with self.lock:
            if not self.embody_new:
                servers = [s for s in servers if s.id in self.bodies.bodies]
            before = set(self.bodies.bodies)
            after = set(self.bodies.sync(servers))
        return before != after

    def run(self) -> None:
        wait = self.interval
        try:
            while not self._halt.wait(wait):
                changed = self.sync_once()
                wait = (
                    self.interval
                    if changed
                    else min(wait * 1.5, self.max_interval)
                )
        except BaseException as exc:  # noqa: BLE001 - reported by stop()
            self.error = exc

    def stop(self) -> None:
        """Stop polling; raise what made the thread end early."""
        self._halt.set()
        self.join(30)
        if self.error is not None:
            raise self.error

    def body_of(self, server_id: str) -> vm_bodies.Body:
        with self.lock:
            return self.bodies.bodies[server_id]
