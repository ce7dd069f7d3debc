"""SOL003 representations of rows: VnfInstance, VnfLcmOpOcc, subscriptions.

Rows are mappings keyed by column name. Secrets never leave: credentials
inside vimConnectionInfo and subscription authentication are removed.
"""

from collections.abc import Mapping
from typing import Any

from tacker_ng import crypto
from tacker_ng.objects import lcm, state_machine

LCM_PREFIX = "/vnflcm/v2"
#: Where links to VNF package management resources point (SOL013: the
#: major version of API version 2.1.0).
PKGM_PREFIX = "/vnfpkgm/v2"


def _drop_none(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


#: (link name, path suffix) of the task resources valid per state.
_INSTANCE_TASKS = {
    lcm.InstantiationState.INSTANTIATED: (
        ("terminate", "/terminate"),
        ("scale", "/scale"),
        ("scaleToLevel", "/scale_to_level"),
        ("changeFlavour", "/change_flavour"),
        ("heal", "/heal"),
        ("operate", "/operate"),
        ("changeExtConn", "/change_ext_conn"),
        ("createSnapshot", "/create_snapshot"),
        ("revertToSnapshot", "/revert_to_snapshot"),
    ),
    lcm.InstantiationState.NOT_INSTANTIATED: (
        ("instantiate", "/instantiate"),
    ),
}

#: VnfInstance attribute -> column, for the optional plain attributes.
_INSTANCE_OPTIONAL = (
    ("vnfInstanceName", "vnf_instance_name"),
    ("vnfInstanceDescription", "vnf_instance_description"),
    ("vnfConfigurableProperties", "vnf_configurable_properties"),
    ("metadata", "metadata"),
    ("extensions", "extensions"),
)


def instance_links(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """``_links`` of a VnfInstance: the tasks valid in its state."""
    self_url = f"{base}{LCM_PREFIX}/vnf_instances/{row['id']}"
    links: dict[str, Any] = {"self": {"href": self_url}}
    for name, suffix in _INSTANCE_TASKS[row["instantiation_state"]]:
        links[name] = {"href": self_url + suffix}
    return links


def vnf_instance(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """A VnfInstance (SOL003 5.5.2.2) from a ``vnf_instances`` row.

    ``row`` may lack the JSON documents a list response leaves out.
    """
    body: dict[str, Any] = {
        "id": row["id"],
        "vnfdId": row["vnfd_id"],
        "vnfProvider": row["vnf_provider"],
        "vnfProductName": row["vnf_product_name"],
        "vnfSoftwareVersion": row["vnf_software_version"],
        "vnfdVersion": row["vnfd_version"],
        "instantiationState": row["instantiation_state"],
    }
    for attr, column in _INSTANCE_OPTIONAL:
        value = row.get(column)
        if value is not None:
            body[attr] = value
    vim_info = row.get("vim_connection_info")
    if vim_info:
        body["vimConnectionInfo"] = crypto.mask(vim_info)
    info = row.get("instantiated_vnf_info")
    if info and row["instantiation_state"] == (
        lcm.InstantiationState.INSTANTIATED
    ):
        body["instantiatedVnfInfo"] = info
    body["_links"] = instance_links(base, row)
    return body


#: Where the local NFVO's grants are served (``GET .../{grantId}``).
GRANT_PREFIX = "/grant/v1/grants"


def grant_link(base: str, row: Mapping[str, Any]) -> str | None:
    """The URL of an op occ's grant: the NFVO's (remote NFVO, stored
    absolute), a path of this API made absolute (local NFVO), or, for op
    occs granted before ``grant_href`` was kept, this API's grant path."""
    if not row["grant_id"]:
        return None
    href = row.get("grant_href")
    if not href:
        return f"{base}{GRANT_PREFIX}/{row['grant_id']}"
    return f"{base}{href}" if href.startswith("/") else href


def grant(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """A Grant (SOL003 9.5.2.3) as the local NFVO issued it (``grants``
    row), its ``_links`` absolute and ``self`` where it is served."""
    body = dict(row["grant"] or {})
    links = {
        name: {"href": f"{base}{href}" if href.startswith("/") else href}
        for name, link in (body.get("_links") or {}).items()
        if isinstance(link, Mapping)
        and isinstance(href := link.get("href"), str)
    }
    links["self"] = {"href": f"{base}{GRANT_PREFIX}/{row['id']}"}
    links.setdefault(
        "vnfLcmOpOcc",
        {
            "href": f"{base}{LCM_PREFIX}/vnf_lcm_op_occs/"
            f"{row['vnf_lcm_op_occ_id']}"
        },
    )
    links.setdefault(
        "vnfInstance",
        {"href": f"{base}{LCM_PREFIX}/vnf_instances/{row['vnf_instance_id']}"},
    )
    body["id"] = row["id"]
    body["_links"] = links
    return body


def op_occ(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """A VnfLcmOpOcc (SOL003 5.5.2.13) from a ``vnf_lcm_op_occs`` row."""
    self_url = f"{base}{LCM_PREFIX}/vnf_lcm_op_occs/{row['id']}"
    links: dict[str, Any] = {
        "self": {"href": self_url},
        "vnfInstance": {
            "href": f"{base}{LCM_PREFIX}/vnf_instances/"
            f"{row['vnf_instance_id']}"
        },
    }
    grant = grant_link(base, row)
    if grant:
        links["grant"] = {"href": grant}
    state = row["operation_state"]
    for task in ("retry", "rollback", "fail", "cancel"):
        if state in state_machine.TASK_FROM[task]:
            links[task] = {"href": f"{self_url}/{task}"}
    body = {
        "id": row["id"],
        "operationState": state,
        "stateEnteredTime": row["state_entered_time"],
        "startTime": row["start_time"],
        "vnfInstanceId": row["vnf_instance_id"],
        "grantId": row["grant_id"],
        "operation": row["operation"],
        "isAutomaticInvocation": row["is_automatic_invocation"],
        "operationParams": crypto.mask(row.get("operation_params"))
        if row.get("operation_params")
        else None,
        "isCancelPending": row["is_cancel_pending"],
        "cancelMode": row["cancel_mode"],
        "error": row.get("error"),
        "resourceChanges": row.get("resource_changes"),
        "changedInfo": row.get("changed_info"),
        "changedExtConnectivity": row.get("changed_ext_connectivity"),
        "_links": links,
    }
    return _drop_none(body)


def subscription(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """An LccnSubscription (SOL003 5.5.2.16); authentication is omitted."""
    return _drop_none(
        {
            "id": row["id"],
            "filter": row.get("filter"),
            "callbackUri": row["callback_uri"],
            "verbosity": row["verbosity"],
            "_links": {
                "self": {
                    "href": f"{base}{LCM_PREFIX}/subscriptions/{row['id']}"
                }
            },
        }
    )


def pkgm_subscription(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """A PkgmSubscription (SOL005 9.5.2.4); authentication is omitted."""
    return _drop_none(
        {
            "id": row["id"],
            "filter": row.get("filter"),
            "callbackUri": row["callback_uri"],
            "_links": {
                "self": {
                    "href": f"{base}{PKGM_PREFIX}/subscriptions/{row['id']}"
                }
            },
        }
    )
