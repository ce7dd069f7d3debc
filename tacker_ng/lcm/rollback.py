"""Whether an op occ of an instance can be rolled back (its drivers say).

Asked by the API before ``POST .../rollback`` leaves FAILED_TEMP, and by
the VNFM before it rolls back its own failed automatic operation.
"""

from collections.abc import Mapping
from typing import Any

from tacker_ng.infra import base, registry
from tacker_ng.objects import lcm, vim_refs


def driver_refusing(
    instance: Mapping[str, Any], operation: lcm.Operation
) -> base.InfraDriver | None:
    """The infra driver of one of the instance's VIMs that cannot roll
    ``operation`` back, or None when every one can."""
    for vim in vim_refs.runs_on(instance["vim_connection_info"]).values():
        if not vim or not registry.has_driver(vim.get("vimType", "")):
            continue
        driver = registry.get_driver(vim["vimType"])
        if not driver.supports_rollback(operation):
            return driver
    return None
