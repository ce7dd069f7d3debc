"""The VIM a VNFC runs on, its secrets opened, for the observer."""

from collections.abc import Mapping
from typing import Any

import orjson
from oslo_config import cfg

from tacker_ng import crypto
from tacker_ng.infra.openstack import session


def resolve_vim(
    instance: Mapping[str, Any],
    vim_id: str | None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> dict[str, Any] | None:
    """The VimConnectionInfo (secrets opened) a VNFC runs on."""
    vims = instance.get("vim_connection_info") or {}
    if vim_id in vims and vims[vim_id]:
        return crypto.unseal(vims[vim_id])
    if vim_id == "default" or not vims:
        return session._default_vim(conf)  # noqa: SLF001 (the [vim] one)
    return None


def resolve_cached(
    opened: dict[tuple[str | None, str], dict | None],
    instance: Mapping[str, Any],
    vim_id: str | None,
    conf: cfg.ConfigOpts,
) -> dict[str, Any] | None:
    """:func:`resolve_vim`, remembered by the sealed VIM it opens."""
    sealed = (instance.get("vim_connection_info") or {}).get(vim_id or "")
    key = (vim_id, orjson.dumps(sealed, option=orjson.OPT_SORT_KEYS).decode())
    if key not in opened:
        opened[key] = resolve_vim(instance, vim_id, conf)
    return opened[key]
