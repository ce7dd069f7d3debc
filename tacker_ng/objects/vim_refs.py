"""VimConnectionInfo entries that point at a VIM rather than describe it.

Two kinds: a *reference* names only ``vimId`` (+ ``vimType``) of a VIM
the VNFM knows from its registry (SOL003 4.4.1.6: vimId "shall be
present to address additional information about the VIM ... configured
into the VNFM"); a *provided* entry is what a VNF shows of a VIM it
provides (e.g. its Kubernetes cluster): the VNF does not run on it, so
VIM selection must never pick it.
"""

from collections.abc import Mapping
from typing import Any

#: ``extra`` key of a provided entry: the VNF instance providing the VIM.
PROVIDED_BY = "providedByVnfInstanceId"


def is_provided(vim: Mapping[str, Any] | None) -> bool:
    """True for an entry naming a VIM the instance provides."""
    return bool(vim) and PROVIDED_BY in ((vim or {}).get("extra") or {})


def is_reference(vim: Mapping[str, Any] | None) -> bool:
    """True for an entry that names a registered VIM by ``vimId`` only."""
    return (
        bool(vim)
        and bool((vim or {}).get("vimId"))
        and "accessInfo" not in (vim or {})
        and not is_provided(vim)
    )


def runs_on(vims: Mapping[str, Any] | None) -> dict[str, Any]:
    """The entries an instance's resources may run on (not provided)."""
    return {k: v for k, v in (vims or {}).items() if v and not is_provided(v)}


def provided_entry(vim_id: str, vim: Mapping[str, Any], provider: str) -> dict:
    """What the providing instance's vimConnectionInfo shows: the vimId,
    type and endpoint, never ``accessInfo`` nor certificates."""
    return {
        "vimId": vim_id,
        "vimType": vim["vimType"],
        "interfaceInfo": {
            "endpoint": (vim.get("interfaceInfo") or {}).get("endpoint")
        },
        "extra": {PROVIDED_BY: provider},
    }
