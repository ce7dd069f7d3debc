"""The MgmtDriver hook interface: ``<operation>_start`` / ``_end``.

A VNFD flavour may implement ``Vnflcm.<op>_start`` and ``<op>_end`` with
an artifact; the conductor runs the matching hook of the MgmtDriver named
by that artifact, before and after the infra driver. MgmtDrivers are
installed code (entry point group ``tacker_ng.mgmt_drivers``); a package
only names one and supplies its scripts, it never brings code that runs
in the conductor.
"""

import dataclasses
import functools
from typing import Any

from stevedore import driver as stevedore_driver
from stevedore import exception as stevedore_exc

from tacker_ng import exceptions
from tacker_ng.infra.base import LcmTask
from tacker_ng.objects.vnfd import Artifact

NAMESPACE = "tacker_ng.mgmt_drivers"

#: SOL003 operation -> Vnflcm interface operation prefix (SOL001).
HOOK_PREFIX = {
    "INSTANTIATE": "instantiate",
    "TERMINATE": "terminate",
    "SCALE": "scale",
    "SCALE_TO_LEVEL": "scale_to_level",
    "HEAL": "heal",
    "CHANGE_FLAVOUR": "change_flavour",
    "CHANGE_EXT_CONN": "change_external_connectivity",
    "CHANGE_VNFPKG": "change_current_package",
    "OPERATE": "operate",
}


class MgmtDriverNotInstalled(exceptions.UnprocessableEntity):
    message = (
        "The VNFD names MgmtDriver '{name}' for {hook}, which is not "
        "installed (entry point group tacker_ng.mgmt_drivers)."
    )


@dataclasses.dataclass
class HookResult:
    """What a hook asks the conductor to record (hooks never write the
    database themselves; the conductor does, before marking the hook done,
    so a hook run again after a crash records the same thing again)."""

    #: VIMs the VNF now provides, by vimId: VimConnectionInfo with secrets
    #: in clear (the conductor seals them into the VIM registry).
    provided_vims: dict[str, dict[str, Any]] = dataclasses.field(
        default_factory=dict
    )
    #: vimIds the VNF no longer provides (removed from the registry).
    withdrawn_vims: list[str] = dataclasses.field(default_factory=list)
    #: What the hook did to a VNFC, by VNFC id, for the NFVO: merged into
    #: that VNFC's ``metadata`` in the op occ's
    #: ``resourceChanges.affectedVnfcs`` (e.g. ``nodeDrain``: a drain
    #: that had to force-delete pods).
    vnfc_metadata: dict[str, dict[str, Any]] = dataclasses.field(
        default_factory=dict
    )


def merge_vnfc_metadata(
    resource_changes: dict[str, Any] | None,
    notes: dict[str, dict[str, Any]],
) -> dict[str, Any] | None:
    """``resource_changes`` with each of ``notes`` (by VNFC id) added to
    the metadata of the affectedVnfcs entries of that VNFC (a note of a
    VNFC the operation did not affect is dropped)."""
    if not resource_changes or not notes:
        return resource_changes
    out = dict(resource_changes)
    affected = []
    for item in resource_changes.get("affectedVnfcs") or []:
        note = notes.get(item.get("id"))
        meta = {**(item.get("metadata") or {}), **(note or {})}
        affected.append({**item, "metadata": meta} if note else item)
    if "affectedVnfcs" in out:
        out["affectedVnfcs"] = affected
    return out


class MgmtDriver:
    """Base MgmtDriver: every hook does nothing unless overridden.

    A hook gets the :class:`~tacker_ng.infra.base.LcmTask` and the
    artifact the VNFD gave for it (scripts live under
    ``task.package_root``); it raises a ``TackerNgError`` to fail the
    operation (FAILED_TEMP) with that problem.

    Hooks must be repeatable: a hook whose conductor dies half-way is run
    again from its start by the conductor that resumes the operation (a
    retry after a failed hook does the same). A hook may return a
    :class:`HookResult` for the conductor to record.
    """

    def run_hook(
        self, hook: str, task: LcmTask, artifact: Artifact
    ) -> HookResult | None:
        """Run ``hook``; its :class:`HookResult`, if it returns one."""
        method = getattr(self, hook, None)
        if method is None:
            return None
        result = method(task, artifact)
        return result if isinstance(result, HookResult) else None


def driver_name(artifact: Artifact) -> str:
    """The MgmtDriver an artifact names: its file's stem.

    ``Scripts/kubernetes_cluster.py`` -> ``kubernetes_cluster``.
    """
    ref = artifact.file or artifact.uri or artifact.name
    stem = ref.rsplit("/", 1)[-1]
    return stem.rsplit(".", 1)[0] if "." in stem else stem


@functools.cache
def get_driver(name: str, hook: str = "") -> MgmtDriver:
    """The installed MgmtDriver ``name`` (loaded once), or 422."""
    try:
        driver: object = stevedore_driver.DriverManager(
            NAMESPACE, name, invoke_on_load=True
        ).driver
    except (stevedore_exc.NoMatches, RuntimeError) as exc:
        raise MgmtDriverNotInstalled(name=name, hook=hook) from exc
    if not isinstance(driver, MgmtDriver):
        raise MgmtDriverNotInstalled(name=name, hook=hook)
    return driver
