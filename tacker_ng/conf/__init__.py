"""tacker-ng configuration: one module per ``[section]``.

Every module here exposes ``register_opts(conf)`` and ``list_opts()``; the
names in ``SECTION_MODULES`` are registered on the global ``CONF`` at import
and gathered by :mod:`tacker_ng.conf.opts` for oslo-config-generator.
"""

import importlib

from oslo_config import cfg

CONF = cfg.CONF

#: Config modules, one per section. Add a new section's module here.
SECTION_MODULES: tuple[str, ...] = (
    "default",
    "api",
    "autoscale",
    "conductor",
    "convergence",
    "coordination",
    "external_oauth2",
    "kubernetes",
    "metrics",
    "mgmt_ssh",
    "nfvo",
    "notification",
    "openstack",
    "placement",
    "pm",
    "reservation",
    "sandbox",
    "vim",
    "vnf_package",
)


def _load_modules() -> list:
    return [
        importlib.import_module(f"tacker_ng.conf.{name}")
        for name in SECTION_MODULES
    ]


for _module in _load_modules():
    _module.register_opts(CONF)
