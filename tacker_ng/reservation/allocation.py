"""Capacity planning for leases: pure functions, no I/O.

Given the hosts of the freepool, the bookings (ledger rows) that overlap a
lease window and the reservations asked for, choose hosts. A host's usage
inside the window is its *peak*, found by a sweep over the bookings'
start/end points clipped to the window, per resource: a booking that ends
before another starts does not add up with it. Whole-host bookings
(``physical:host``) exclude a host for anything else. Anti-affinity wants
``amount`` distinct hosts, affinity one host holding all, ``None`` any
slots. Busy hosts are preferred (packing keeps whole hosts free for host
reservations), and on updates the hosts a reservation already holds come
first.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Iterable, Mapping, Sequence

from tacker_ng.reservation import exceptions

HostFilter = Callable[["Host"], bool]
#: reservation key -> {host id: instances}
Plan = dict[str, dict[int, int]]


@dataclasses.dataclass(frozen=True)
class Host:
    """A freepool host and what it offers."""

    id: int
    name: str
    vcpus: int
    memory_mb: int
    disk_gb: int
    reservable: bool = True
    properties: Mapping[str, object] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Booking:
    """A ledger row: ``instances`` x demand on a host during [start, end)."""

    host_id: int
    start: datetime.datetime
    end: datetime.datetime
    instances: int
    vcpus: int
    memory_mb: int
    disk_gb: int
    exclusive: bool = False
    reservation_id: str = ""


@dataclasses.dataclass(frozen=True)
class Window:
    """The half-open time window [start, end) of a lease."""

    start: datetime.datetime
    end: datetime.datetime

    def __post_init__(self) -> None:
        if not self.start < self.end:
            raise ValueError("a window must end after it starts")


@dataclasses.dataclass(frozen=True)
class Usage:
    """Peak use of a host inside a window, per resource."""

    vcpus: int = 0
    memory_mb: int = 0
    disk_gb: int = 0
    #: A whole-host booking overlaps the window.
    exclusive: bool = False
    #: Any booking overlaps the window.
    busy: bool = False


@dataclasses.dataclass(frozen=True)
class InstanceRequest:
    """``virtual:instance``: ``amount`` instances of one size."""

    key: str
    vcpus: int
    memory_mb: int
    disk_gb: int
    amount: int
    affinity: bool | None = None
    host_filter: HostFilter | None = None


@dataclasses.dataclass(frozen=True)
class HostRequest:
    """``physical:host``: between ``min`` and ``max`` whole hosts."""

    key: str
    min: int
    max: int
    host_filter: HostFilter | None = None


Request = InstanceRequest | HostRequest

_DIMS = ("vcpus", "memory_mb", "disk_gb")


def overlaps(
    start: datetime.datetime,
    end: datetime.datetime,
    window: Window,
    pad: datetime.timedelta = datetime.timedelta(0),
) -> bool:
    """Whether [start - pad, end + pad) meets the window."""
    return start - pad < window.end and window.start < end + pad


def peak_usage(
    bookings: Iterable[Booking],
    window: Window,
    pad: datetime.timedelta = datetime.timedelta(0),
) -> Usage:
    """The per-resource peak of ``bookings`` (of one host) in ``window``.

    A sweep over the clipped start/end points; at equal times ends are
    applied before starts, since the intervals are half-open.
    """
    points: list[tuple[datetime.datetime, int, tuple[int, int, int]]] = []
    exclusive = busy = False
    for b in bookings:
        if not overlaps(b.start, b.end, window, pad):
            continue
        busy = True
        exclusive = exclusive or b.exclusive
        load = (
            b.instances * b.vcpus,
            b.instances * b.memory_mb,
            b.instances * b.disk_gb,
        )
        points.append((max(b.start - pad, window.start), 1, load))
        points.append((min(b.end + pad, window.end), 0, load))
    points.sort(key=lambda p: (p[0], p[1]))
    now = [0, 0, 0]
    peak = [0, 0, 0]
    for _, is_start, load in points:
        sign = 1 if is_start else -1
        for i in range(3):
            now[i] += sign * load[i]
            peak[i] = max(peak[i], now[i])
    vcpus, memory_mb, disk_gb = peak
    return Usage(
        vcpus=vcpus,
        memory_mb=memory_mb,
        disk_gb=disk_gb,
        exclusive=exclusive,
        busy=busy,
    )


def free_slots(host: Host, usage: Usage, request: InstanceRequest) -> int:
    """How many more instances of ``request`` fit on ``host``."""
    if usage.exclusive or not host.reservable:
        return 0
    slots: int | None = None
    for dim in _DIMS:
        need = getattr(request, dim)
        if need <= 0:
            continue
        left = getattr(host, dim) - getattr(usage, dim)
        fit = max(left, 0) // need
        slots = fit if slots is None else min(slots, fit)
    return slots if slots is not None else request.amount


def busy_score(host: Host, usage: Usage) -> float:
    """Highest fraction of any resource already used (packing order)."""
    score = 0.0
    for dim in _DIMS:
        cap = getattr(host, dim)
        if cap > 0:
            score = max(score, getattr(usage, dim) / cap)
    return score


class _State:
    """Per-host usage while one lease's reservations are planned."""

    def __init__(
        self,
        hosts: Iterable[Host],
        bookings: Iterable[Booking],
        window: Window,
        pad: datetime.timedelta,
        usage: Mapping[int, Usage] | None = None,
    ) -> None:
        self.hosts: dict[int, Host] = {h.id: h for h in hosts}
        self.usage: dict[int, Usage]
        if usage is not None:
            self.usage = {h: usage.get(h, Usage()) for h in self.hosts}
            return
        by_host: dict[int, list[Booking]] = {h: [] for h in self.hosts}
        for b in bookings:
            if b.host_id in by_host:
                by_host[b.host_id].append(b)
        self.usage = {
            h: peak_usage(bs, window, pad) for h, bs in by_host.items()
        }

    def add(self, host_id: int, instances: int, req: Request) -> None:
        u = self.usage[host_id]
        if isinstance(req, HostRequest):
            self.usage[host_id] = dataclasses.replace(
                u, exclusive=True, busy=True
            )
            return
        self.usage[host_id] = Usage(
            u.vcpus + instances * req.vcpus,
            u.memory_mb + instances * req.memory_mb,
            u.disk_gb + instances * req.disk_gb,
            exclusive=u.exclusive,
            busy=True,
        )

    def ordered(
        self, host_ids: Iterable[int], held: Mapping[int, int]
    ) -> list[int]:
        """Held hosts first, then the busiest, then by id."""

        def key(h: int) -> tuple[bool, float, int]:
            return (
                h not in held,
                -busy_score(self.hosts[h], self.usage[h]),
                h,
            )

        return sorted(host_ids, key=key)


def _eligible(state: _State, req: Request) -> list[int]:
    return [
        h.id
        for h in state.hosts.values()
        if h.reservable and (req.host_filter is None or req.host_filter(h))
    ]


def _plan_instances(
    state: _State, req: InstanceRequest, held: Mapping[int, int]
) -> dict[int, int]:
    slots = {
        h: free_slots(state.hosts[h], state.usage[h], req)
        for h in _eligible(state, req)
    }
    order = state.ordered([h for h, n in slots.items() if n > 0], held)
    if req.affinity is False:
        if len(order) < req.amount:
            raise exceptions.InsufficientCapacity(
                f"anti-affinity needs {req.amount} distinct hosts with room "
                f"for {req.vcpus} vCPU/{req.memory_mb} MB/{req.disk_gb} GB "
                f"during the lease; {len(order)} have it"
            )
        return dict.fromkeys(order[: req.amount], 1)
    if req.affinity is True:
        for h in order:
            if slots[h] >= req.amount:
                return {h: req.amount}
        best = max(slots.values(), default=0)
        raise exceptions.InsufficientCapacity(
            f"affinity needs one host with room for {req.amount} instances "
            f"during the lease; the largest has room for {best}"
        )
    plan: dict[int, int] = {}
    left = req.amount
    # Held hosts keep what they hold first, then everything fills up.
    for h in order:
        take = min(slots[h], held.get(h, 0), left)
        if take:
            plan[h] = take
            left -= take
    for h in order:
        take = min(slots[h] - plan.get(h, 0), left)
        if take:
            plan[h] = plan.get(h, 0) + take
            left -= take
        if not left:
            return plan
    if not left:
        return plan
    raise exceptions.InsufficientCapacity(
        f"{req.amount} instances do not fit during the lease; the "
        f"freepool has room for {req.amount - left}"
    )


def _plan_hosts(
    state: _State, req: HostRequest, held: Mapping[int, int]
) -> dict[int, int]:
    free = [h for h in _eligible(state, req) if not state.usage[h].busy]
    if len(free) < req.min:
        raise exceptions.InsufficientCapacity(
            f"{req.min} whole hosts are needed during the lease; "
            f"{len(free)} matching hosts are free"
        )
    return dict.fromkeys(state.ordered(free, held)[: req.max], 1)


def plan(
    requests: Sequence[Request],
    hosts: Iterable[Host],
    bookings: Iterable[Booking],
    window: Window,
    *,
    held: Mapping[str, Mapping[int, int]] | None = None,
    pad: datetime.timedelta = datetime.timedelta(0),
    usage: Mapping[int, Usage] | None = None,
) -> Plan:
    """Choose hosts for every request of one lease, or raise
    :class:`~tacker_ng.reservation.exceptions.InsufficientCapacity`.

    ``bookings`` must not contain the rows of the requests being planned
    (on an update the caller leaves them out and passes them as ``held``).
    ``pad`` (the cleaning time) widens every booking on both sides.
    ``usage`` are the hosts' peaks when already known (then ``bookings``
    is not read); hosts without an entry are idle.
    """
    held = held or {}
    state = _State(hosts, bookings, window, pad, usage)
    result: Plan = {}
    for req in requests:
        mine = held.get(req.key, {})
        if isinstance(req, HostRequest):
            chosen = _plan_hosts(state, req, mine)
        else:
            chosen = _plan_instances(state, req, mine)
        for host_id, instances in chosen.items():
            state.add(host_id, instances, req)
        result[req.key] = chosen
    return result


def fits(
    chosen: Mapping[str, Mapping[int, int]],
    requests: Sequence[Request],
    hosts: Iterable[Host],
    bookings: Iterable[Booking],
    window: Window,
    *,
    pad: datetime.timedelta = datetime.timedelta(0),
    usage: Mapping[int, Usage] | None = None,
) -> bool:
    """Re-check a plan against fresh bookings (taken under the lock), or
    against the hosts' fresh peaks ``usage`` when known (as :func:`plan`).
    """
    state = _State(hosts, bookings, window, pad, usage)
    for req in requests:
        for host_id, instances in chosen.get(req.key, {}).items():
            host = state.hosts.get(host_id)
            if host is None or not host.reservable:
                return False
            if req.host_filter is not None and not req.host_filter(host):
                return False
            now = state.usage[host_id]
            if isinstance(req, HostRequest):
                if now.busy:
                    return False
            elif free_slots(host, now, req) < instances:
                return False
            state.add(host_id, instances, req)
    return True
