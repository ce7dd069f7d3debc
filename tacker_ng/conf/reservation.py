"""``[reservation]`` and ``[reservation_nova]``: the lease service.

``[reservation]`` tunes admission and the lease event loop;
``[reservation_nova]`` holds the admin credentials (keystoneauth1 auth,
session and adapter options) the conductor uses to create flavors, server
groups and aggregates in Nova. They are never logged or returned.
"""

from keystoneauth1 import loading as ks_loading
from oslo_config import cfg

GROUP = "reservation"
NOVA_GROUP = "reservation_nova"

opts = [
    cfg.IntOpt(
        "event_interval",
        default=10,
        min=1,
        help="Seconds between two runs of the lease event loop (start, "
        "before_end and end of leases) on the leader conductor.",
    ),
    cfg.IntOpt(
        "minutes_before_end_lease",
        default=60,
        min=0,
        help="Default for a lease's before_end_date: this many minutes "
        "before its end (clipped to its start). 0 creates no "
        "before_end_lease event unless the request sets before_end_date.",
    ),
    cfg.IntOpt(
        "host_failure_check_interval",
        default=60,
        min=0,
        help="Seconds between two checks of the freepool hosts' compute "
        "services in Nova. A host whose service is down or disabled stops "
        "being reservable and its reservations are moved to other hosts "
        "or marked degraded. 0 disables the check.",
    ),
    cfg.StrOpt(
        "aggregate_freepool_name",
        default="freepool",
        help="Name of the Nova host aggregate holding every registered "
        "host. It carries filter_tenant_id of the service project so that "
        "only reserved instances land on freepool hosts (needs Nova's "
        "AggregateMultiTenancyIsolation filter).",
    ),
    cfg.IntOpt(
        "cleaning_time",
        default=0,
        min=0,
        help="Minutes kept free after a reservation ends before another "
        "may start on the same host, for the end-of-lease clean-up.",
    ),
    cfg.IntOpt(
        "admission_retries",
        default=5,
        min=1,
        help="Optimistic attempts of an admission (choose hosts, then lock "
        "and re-check only those) before it locks every candidate host "
        "and decides under the lock.",
    ),
    cfg.IntOpt(
        "event_retry_limit",
        default=3,
        min=1,
        help="Attempts of a lease event that fails with a Nova error "
        "before it is marked ERROR.",
    ),
    cfg.IntOpt(
        "nova_timeout",
        default=120,
        min=1,
        help="Seconds the conductor waits for Nova to delete the servers "
        "of a reservation at the end of its lease.",
    ),
]

nova_opts = [
    cfg.StrOpt(
        "api_microversion",
        default="2.79",
        help="Nova API microversion used by the reservation service "
        "(2.79 still reports hypervisor details; >= 2.53 is required).",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group=GROUP)
    conf.register_opts(nova_opts, group=NOVA_GROUP)
    ks_loading.register_session_conf_options(conf, NOVA_GROUP)
    ks_loading.register_auth_conf_options(conf, NOVA_GROUP)
    ks_loading.register_adapter_conf_options(
        conf, NOVA_GROUP, include_deprecated=False
    )


def _nova_list_opts() -> list:
    opts_ = list(nova_opts)
    opts_ += ks_loading.get_session_conf_options()
    opts_ += ks_loading.get_auth_common_conf_options()
    opts_ += ks_loading.get_auth_plugin_conf_options("password")
    opts_ += ks_loading.get_adapter_conf_options(include_deprecated=False)
    seen: set[str] = set()
    unique = []
    for opt in opts_:
        if opt.dest not in seen:
            seen.add(opt.dest)
            unique.append(opt)
    return unique


def list_opts() -> list[tuple[str, list]]:
    return [(GROUP, opts), (NOVA_GROUP, _nova_list_opts())]
