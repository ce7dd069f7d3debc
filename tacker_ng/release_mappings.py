"""Which RPC API versions each tacker-ng release speaks.

During a rolling upgrade the API must not send a conductor a method or a
version it does not know yet. Operators pin ``[DEFAULT]
pin_release_version`` to the release of the oldest conductor still
running; every RPC client caps its versions from this table, and
``tacker-ng-status upgrade check`` compares it with the conductors'
registered versions. A change of an RPC API version adds it to
``CURRENT`` (a unit test keeps ``CURRENT`` equal to the code's versions).
"""

from __future__ import annotations

from oslo_config import cfg

#: The conductor's RPC namespaces, as the clients name them.
CONDUCTOR = "conductor"
RESERVATION = "reservation"

#: Release name -> RPC namespace -> version that release serves.
RELEASES: dict[str, dict[str, str]] = {
    "2026.1": {CONDUCTOR: "1.2", RESERVATION: "1.0"},
}
#: What this code serves (the next release while unreleased).
CURRENT = "master"
RELEASES[CURRENT] = {CONDUCTOR: "1.3", RESERVATION: "1.0"}


def version_cap(namespace: str, conf: cfg.ConfigOpts = cfg.CONF) -> str:
    """Highest version of ``namespace`` the clients may send."""
    release = conf.pin_release_version or CURRENT
    return RELEASES[release][namespace]


def release_of(namespace: str, version: str) -> str | None:
    """The newest release that serves ``version`` of ``namespace``."""
    found = None
    for name, versions in RELEASES.items():
        if versions[namespace] == version:
            found = name
    return found
