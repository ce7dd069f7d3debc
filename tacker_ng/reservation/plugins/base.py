"""What a reservation plugin does, and the value checks they share.

API side (pure): check and normalise request values into the columns of
the plugin's detail table, say what may change while the reservation is
active, and turn the details into an allocation request. Conductor side:
make the reservation real in Nova at start, reconcile it after changes,
and clean it up at the end, idempotently (a conductor that dies half way
is replaced by another that runs the same step again).
"""

from __future__ import annotations

import abc
import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tacker_ng.reservation import allocation, exceptions, properties

Detail = dict[str, Any]
#: Persist detail columns at once (progress that must survive a crash).
Save = Callable[..., None]

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
_NONE = {"none", "null", ""}


@dataclasses.dataclass
class Job:
    """One reservation being started, synced or ended by a conductor."""

    nova: Any
    lease: Detail
    res: Detail
    detail: Detail
    #: Nova compute service names of the reservation's hosts.
    hosts: list[str]
    #: Persists detail columns at once and updates ``detail``.
    save: Save


def bad(reason: str) -> exceptions.InvalidLease:
    return exceptions.InvalidLease(reason=reason)


def integer(values: Mapping, name: str, minimum: int) -> int:
    """An int (or int-like string, as the CLI may send) >= minimum."""
    value = values.get(name)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f"'{name}' must be an integer, got {value!r}")
    if value < minimum:
        raise bad(f"'{name}' must be at least {minimum}, got {value}")
    return value


def tristate(value: object, name: str) -> bool | None:
    """true / false / null, also from the CLI's strings ("None")."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _NONE:
            return None
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    raise bad(f"'{name}' must be true, false or null, got {value!r}")


def query_text(values: Mapping, name: str) -> str:
    """A property query kept as Blazar's JSON string ("" = none)."""
    value = values.get(name, "")
    if value is None:
        return ""
    if isinstance(value, list):
        properties.parse(value)
        return json.dumps(value)
    if not isinstance(value, str):
        raise bad(f"'{name}' must be a JSON string, got {value!r}")
    properties.parse(value)
    return value


def reject_unknown(values: Mapping, known: Sequence[str]) -> None:
    allowed = {"resource_type", "id", *known}
    unknown = sorted(set(values) - allowed)
    if unknown:
        raise bad(f"unknown reservation parameters: {', '.join(unknown)}")


def host_filter(*queries: str | None) -> allocation.HostFilter | None:
    pred = properties.predicate(*queries)
    if pred is None:
        return None
    return lambda host: pred(host.properties)


class ResourcePlugin(abc.ABC):
    """One Blazar resource type."""

    resource_type: str
    #: SQLAlchemy model of the detail table.
    model: type

    # -- API side, pure ----------------------------------------------------
    @abc.abstractmethod
    def parse(self, values: Mapping[str, Any]) -> Detail:
        """Detail columns of a new reservation, or 400."""

    @abc.abstractmethod
    def merge(self, current: Detail, values: Mapping[str, Any]) -> Detail:
        """Detail columns after an update body, or 400."""

    @abc.abstractmethod
    def check_active_change(self, current: Detail, new: Detail) -> None:
        """409 for a change an active reservation cannot take."""

    @abc.abstractmethod
    def request(self, key: str, detail: Detail) -> allocation.Request:
        """What the planner must find for this reservation."""

    @abc.abstractmethod
    def demand(self, detail: Detail) -> tuple[int, int, int, bool]:
        """Per-instance (vcpus, memory_mb, disk_gb) and exclusivity of the
        ledger rows; a whole-host row is exclusive and carries no sizes."""

    @abc.abstractmethod
    def view(self, detail: Detail) -> dict[str, Any]:
        """Type-specific fields of the reservation in a lease body."""

    # -- conductor side, Nova ----------------------------------------------
    @abc.abstractmethod
    def on_start(self, job: Job) -> None:
        """Create the Nova objects of the reservation (idempotent)."""

    @abc.abstractmethod
    def on_sync(self, job: Job) -> None:
        """Make Nova match the reservation's current hosts."""

    @abc.abstractmethod
    def on_end(self, job: Job) -> None:
        """Remove everything the reservation made in Nova (idempotent)."""
