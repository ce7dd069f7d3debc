"""The pure planner, checked against brute force (hypothesis + examples)."""

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tacker_ng.reservation import allocation as alloc
from tacker_ng.reservation import exceptions

T0 = datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC)


def t(hours: float) -> datetime.datetime:
    return T0 + datetime.timedelta(hours=hours)


def host(i: int, vcpus=4, ram=8192, disk=80, **kw) -> alloc.Host:
    return alloc.Host(i, f"h{i}", vcpus, ram, disk, **kw)


def booking(h, start, end, n=1, v=1, m=1024, d=10, excl=False, rid="x"):
    return alloc.Booking(h, t(start), t(end), n, v, m, d, excl, rid)


def inst(key="r", amount=1, v=1, m=1024, d=10, affinity=None, filt=None):
    return alloc.InstanceRequest(key, v, m, d, amount, affinity, filt)


W = alloc.Window(t(0), t(10))


# -- brute force reference ----------------------------------------------------
def usage_at(bookings, host_id, when, pad=datetime.timedelta(0)):
    used = [0, 0, 0]
    excl = False
    for b in bookings:
        if b.host_id == host_id and b.start - pad <= when < b.end + pad:
            used[0] += b.instances * b.vcpus
            used[1] += b.instances * b.memory_mb
            used[2] += b.instances * b.disk_gb
            excl = excl or b.exclusive
    return used, excl


def sample_points(bookings, window, pad=datetime.timedelta(0)):
    points = {window.start}
    for b in bookings:
        for p in (b.start - pad, b.end + pad):
            if window.start <= p < window.end:
                points.add(p)
    return points


def brute_peak(bookings, host_id, window, pad=datetime.timedelta(0)):
    peak = [0, 0, 0]
    for p in sample_points(bookings, window, pad):
        used, _ = usage_at(bookings, host_id, p, pad)
        peak = [max(a, b) for a, b in zip(peak, used, strict=True)]
    return peak


def as_bookings(plan, requests, window):
    out = []
    for req in requests:
        for h, n in plan.get(req.key, {}).items():
            if isinstance(req, alloc.HostRequest):
                out.append(
                    alloc.Booking(
                        h, window.start, window.end, 1, 0, 0, 0, True, req.key
                    )
                )
            else:
                out.append(
                    alloc.Booking(
                        h,
                        window.start,
                        window.end,
                        n,
                        req.vcpus,
                        req.memory_mb,
                        req.disk_gb,
                        False,
                        req.key,
                    )
                )
    return out


def assert_no_overcommit(hosts, existing, planned, window):
    """Every host the plan touches stays within capacity at every instant
    of the window, and whole-host bookings share their host with none."""
    everything = existing + planned
    for h in hosts:
        new = [b for b in planned if b.host_id == h.id]
        if not new:
            continue
        # Dimensions the plan adds to (the generator may make hosts that
        # are already over capacity on others).
        adds = [
            any(b.instances * getattr(b, dim) for b in new)
            for dim in ("vcpus", "memory_mb", "disk_gb")
        ]
        caps = (h.vcpus, h.memory_mb, h.disk_gb)
        for p in sample_points(everything, window):
            used, _ = usage_at(everything, h.id, p)
            for add, use, cap in zip(adds, used, caps, strict=True):
                assert not add or use <= cap
        others = [
            b
            for b in everything
            if b.host_id == h.id
            and b.start < window.end
            and window.start < b.end
        ]
        if any(b.exclusive for b in others):
            assert len(others) == 1, "an exclusive host is shared"


# -- strategies ---------------------------------------------------------------
hosts_st = st.lists(
    st.builds(
        lambda v, m, d, r: (v, m, d, r),
        st.integers(1, 8),
        st.sampled_from([1024, 2048, 4096, 8192]),
        st.sampled_from([10, 20, 40, 80]),
        st.booleans().map(lambda x: x or True),
    ),
    min_size=1,
    max_size=6,
).map(
    lambda specs: [
        host(i + 1, v, m, d, reservable=r)
        for i, (v, m, d, r) in enumerate(specs)
    ]
)


@st.composite
def scenario(draw):
    hosts = draw(hosts_st)
    bookings = []
    for _ in range(draw(st.integers(0, 12))):
        h = draw(st.sampled_from(hosts))
        start = draw(st.integers(-5, 14))
        end = start + draw(st.integers(1, 8))
        excl = draw(st.booleans()) and draw(st.booleans())
        n = draw(st.integers(1, 3))
        bookings.append(
            booking(
                h.id,
                start,
                end,
                n,
                draw(st.integers(1, 2)),
                draw(st.sampled_from([512, 1024, 2048])),
                draw(st.sampled_from([0, 10])),
                excl,
            )
        )
    return hosts, bookings


request_st = st.one_of(
    st.builds(
        lambda a, v, m, d, aff: inst("r", a, v, m, d, aff),
        st.integers(1, 6),
        st.integers(1, 3),
        st.sampled_from([512, 1024, 2048]),
        st.sampled_from([0, 10, 20]),
        st.sampled_from([None, True, False]),
    ),
    st.builds(
        lambda lo, extra: alloc.HostRequest("r", lo, lo + extra),
        st.integers(1, 3),
        st.integers(0, 2),
    ),
)


def feasible(req, hosts, bookings, window) -> bool:
    """Exact answer for one request, computed independently."""
    if isinstance(req, alloc.HostRequest):
        free = [
            h
            for h in hosts
            if h.reservable
            and not any(
                b.host_id == h.id
                and b.start < window.end
                and window.start < b.end
                for b in bookings
            )
        ]
        return len(free) >= req.min
    slots = []
    for h in hosts:
        if not h.reservable:
            slots.append(0)
            continue
        overl = [
            b
            for b in bookings
            if b.host_id == h.id
            and b.start < window.end
            and window.start < b.end
        ]
        if any(b.exclusive for b in overl):
            slots.append(0)
            continue
        peak = brute_peak(bookings, h.id, window)
        fit = min(
            (cap - used) // need
            for cap, used, need in zip(
                (h.vcpus, h.memory_mb, h.disk_gb),
                peak,
                (req.vcpus, req.memory_mb, req.disk_gb),
                strict=True,
            )
            if need > 0
        )
        slots.append(max(fit, 0))
    if req.affinity is False:
        return sum(1 for s in slots if s >= 1) >= req.amount
    if req.affinity is True:
        return any(s >= req.amount for s in slots)
    return sum(slots) >= req.amount


# -- properties ---------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(scenario(), st.integers(-3, 12), st.integers(1, 9))
def test_peak_usage_equals_brute_force(sc, start, length):
    hosts, bookings = sc
    window = alloc.Window(t(start), t(start + length))
    for h in hosts:
        mine = [b for b in bookings if b.host_id == h.id]
        u = alloc.peak_usage(mine, window)
        assert [u.vcpus, u.memory_mb, u.disk_gb] == brute_peak(
            mine, h.id, window
        )
        assert u.busy == any(
            b.start < window.end and window.start < b.end for b in mine
        )


@settings(max_examples=200, deadline=None)
@given(scenario(), st.integers(0, 3))
def test_peak_with_cleaning_pad_equals_brute_force(sc, pad_h):
    hosts, bookings = sc
    pad = datetime.timedelta(hours=pad_h)
    for h in hosts:
        mine = [b for b in bookings if b.host_id == h.id]
        u = alloc.peak_usage(mine, W, pad)
        assert [u.vcpus, u.memory_mb, u.disk_gb] == brute_peak(
            mine, h.id, W, pad
        )


@settings(max_examples=300, deadline=None)
@given(scenario(), request_st, st.integers(-2, 8), st.integers(1, 6))
def test_plan_is_exact_and_never_overcommits(sc, req, start, length):
    hosts, bookings = sc
    window = alloc.Window(t(start), t(start + length))
    ok = feasible(req, hosts, bookings, window)
    try:
        plan = alloc.plan([req], hosts, bookings, window)
    except exceptions.InsufficientCapacity:
        assert not ok, "the planner refused a feasible request"
        return
    assert ok
    chosen = plan["r"]
    if isinstance(req, alloc.HostRequest):
        assert req.min <= len(chosen) <= req.max
    elif req.affinity is False:
        assert len(chosen) == req.amount and set(chosen.values()) == {1}
    elif req.affinity is True:
        assert list(chosen.values()) == [req.amount]
    else:
        assert sum(chosen.values()) == req.amount
    assert alloc.fits(plan, [req], hosts, bookings, window)
    assert_no_overcommit(
        hosts, bookings, as_bookings(plan, [req], window), window
    )


@settings(max_examples=300, deadline=None)
@given(scenario(), st.lists(request_st, min_size=1, max_size=4))
def test_many_requests_of_one_lease_never_overcommit(sc, reqs):
    hosts, bookings = sc
    reqs = [
        alloc.HostRequest(f"r{i}", r.min, r.max)
        if isinstance(r, alloc.HostRequest)
        else inst(
            f"r{i}", r.amount, r.vcpus, r.memory_mb, r.disk_gb, r.affinity
        )
        for i, r in enumerate(reqs)
    ]
    try:
        plan = alloc.plan(reqs, hosts, bookings, W)
    except exceptions.InsufficientCapacity:
        return
    assert alloc.fits(plan, reqs, hosts, bookings, W)
    assert_no_overcommit(hosts, bookings, as_bookings(plan, reqs, W), W)


@settings(max_examples=300, deadline=None)
@given(scenario(), request_st)
def test_update_keeps_held_hosts_when_they_still_fit(sc, req):
    hosts, bookings = sc
    try:
        first = alloc.plan([req], hosts, bookings, W)
    except exceptions.InsufficientCapacity:
        return
    again = alloc.plan([req], hosts, bookings, W, held=first)
    assert again == first
    # Adding a booking elsewhere never moves a reservation off its hosts.
    others = [h for h in hosts if h.id not in first["r"]]
    if others:
        extra = bookings + [booking(others[0].id, 0, 10, 1, 1, 1, 0)]
        moved = alloc.plan([req], hosts, extra, W, held=first)
        assert moved == first


@settings(max_examples=300, deadline=None)
@given(scenario(), st.integers(1, 4))
def test_anti_affinity_packs_onto_busiest_hosts(sc, amount):
    hosts, bookings = sc
    req = inst("r", amount, 1, 512, 0, affinity=False)
    try:
        plan = alloc.plan([req], hosts, bookings, W)
    except exceptions.InsufficientCapacity:
        return
    state = {
        h.id: alloc.peak_usage([b for b in bookings if b.host_id == h.id], W)
        for h in hosts
    }
    score = {h.id: alloc.busy_score(h, state[h.id]) for h in hosts}
    chosen = set(plan["r"])
    eligible = {
        h.id for h in hosts if alloc.free_slots(h, state[h.id], req) > 0
    }
    for left_out in eligible - chosen:
        assert all(score[c] >= score[left_out] for c in chosen)


# -- examples -----------------------------------------------------------------
def test_sweep_counts_only_concurrent_bookings():
    # Two 3-vCPU bookings that do not overlap each other leave 1 vCPU at
    # peak; a whole-lease sum would wrongly say -2.
    bookings = [booking(1, 0, 5, 1, 3), booking(1, 5, 10, 1, 3)]
    usage = alloc.peak_usage(bookings, W)
    assert usage.vcpus == 3
    plan = alloc.plan([inst(v=1)], [host(1)], bookings, W)
    assert plan == {"r": {1: 1}}
    with pytest.raises(exceptions.InsufficientCapacity):
        alloc.plan([inst(v=2)], [host(1)], bookings, W)


def test_back_to_back_windows_do_not_overlap():
    bookings = [booking(1, -5, 0, 1, 4)]
    assert alloc.plan([inst(v=4)], [host(1)], bookings, W) == {"r": {1: 1}}


def test_cleaning_time_pads_neighbours():
    bookings = [booking(1, -5, 0, 1, 4)]
    with pytest.raises(exceptions.InsufficientCapacity):
        alloc.plan(
            [inst(v=4)],
            [host(1)],
            bookings,
            W,
            pad=datetime.timedelta(minutes=5),
        )


def test_host_reservation_excludes_host_for_instances_and_hosts():
    hosts = [host(1), host(2)]
    bookings = [booking(1, 2, 3, 1, 0, 0, 0, excl=True)]
    assert alloc.plan([inst(amount=2)], hosts, bookings, W) == {"r": {2: 2}}
    plan = alloc.plan([alloc.HostRequest("r", 1, 2)], hosts, bookings, W)
    assert plan == {"r": {2: 1}}


def test_host_reservation_needs_idle_hosts():
    hosts = [host(1), host(2), host(3)]
    bookings = [booking(1, 0, 1, 1, 1)]
    plan = alloc.plan([alloc.HostRequest("r", 1, 5)], hosts, bookings, W)
    assert sorted(plan["r"]) == [2, 3]
    with pytest.raises(exceptions.InsufficientCapacity, match="3 whole hosts"):
        alloc.plan([alloc.HostRequest("r", 3, 3)], hosts, bookings, W)


def test_affinity_needs_one_host_for_all():
    hosts = [host(1, vcpus=2), host(2, vcpus=2)]
    with pytest.raises(
        exceptions.InsufficientCapacity, match="largest has room for 2"
    ):
        alloc.plan([inst(amount=3, affinity=True)], hosts, [], W)
    assert alloc.plan([inst(amount=2, affinity=True)], hosts, [], W)["r"] in (
        {1: 2},
        {2: 2},
    )


def test_spec_use_case_four_instances_anti_affinity():
    # 4 instances of 1 vCPU / 1 GB / 10 GB on 4 distinct hosts.
    hosts = [host(i) for i in range(1, 6)]
    plan = alloc.plan([inst("r", 4, 1, 1024, 10, False)], hosts, [], W)
    assert len(plan["r"]) == 4 and set(plan["r"].values()) == {1}


def test_packing_prefers_busy_hosts():
    hosts = [host(1), host(2), host(3)]
    bookings = [booking(3, 0, 10, 1, 2)]
    assert alloc.plan([inst()], hosts, bookings, W) == {"r": {3: 1}}


def test_null_affinity_keeps_held_counts_before_filling():
    hosts = [host(1), host(2), host(3)]
    held = {"r": {2: 2, 3: 1}}
    plan = alloc.plan([inst(amount=4)], hosts, [], W, held=held)
    assert plan["r"][2] >= 2 and plan["r"][3] >= 1


def test_unreservable_hosts_are_never_chosen():
    hosts = [host(1, reservable=False), host(2)]
    assert alloc.plan([inst()], hosts, [], W) == {"r": {2: 1}}
    assert not alloc.fits({"r": {1: 1}}, [inst()], hosts, [], W)


def test_host_filter_applies():
    hosts = [host(1, properties={"gpu": "true"}), host(2)]
    req = inst(filt=lambda h: h.properties.get("gpu") == "true")
    assert alloc.plan([req], hosts, [], W) == {"r": {1: 1}}


def test_window_must_be_ordered():
    with pytest.raises(ValueError):
        alloc.Window(t(1), t(1))
