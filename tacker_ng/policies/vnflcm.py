"""Policy for the SOL003 VNF LCM API (``/vnflcm/v2``)."""

from oslo_policy import policy

PREFIX = "tacker_ng:vnflcm"
READER = "rule:project_reader_or_admin"
MEMBER = "rule:project_member_or_admin"
INSTANCES = "/vnflcm/v2/vnf_instances"
INSTANCE = f"{INSTANCES}/{{vnfInstanceId}}"
OCCS = "/vnflcm/v2/vnf_lcm_op_occs"
OCC = f"{OCCS}/{{vnfLcmOpOccId}}"
SUBS = "/vnflcm/v2/subscriptions"
SUB = f"{SUBS}/{{subscriptionId}}"
SNAPS = "/vnflcm/v2/vnf_snapshots"
SNAP = f"{SNAPS}/{{vnfSnapshotInfoId}}"

#: (name, check, description, method, path)
_RULES = [
    ("create", MEMBER, "Create a VNF instance.", "POST", INSTANCES),
    ("index", READER, "List VNF instances.", "GET", INSTANCES),
    ("show", READER, "Show a VNF instance.", "GET", INSTANCE),
    ("update", MEMBER, "Modify a VNF instance.", "PATCH", INSTANCE),
    ("delete", MEMBER, "Delete a VNF instance.", "DELETE", INSTANCE),
    (
        "instantiate",
        MEMBER,
        "Instantiate a VNF.",
        "POST",
        f"{INSTANCE}/instantiate",
    ),
    ("scale", MEMBER, "Scale a VNF.", "POST", f"{INSTANCE}/scale"),
    (
        "scale_to_level",
        MEMBER,
        "Scale a VNF to a level.",
        "POST",
        f"{INSTANCE}/scale_to_level",
    ),
    (
        "change_flavour",
        MEMBER,
        "Change a VNF's flavour.",
        "POST",
        f"{INSTANCE}/change_flavour",
    ),
    ("terminate", MEMBER, "Terminate a VNF.", "POST", f"{INSTANCE}/terminate"),
    ("heal", MEMBER, "Heal a VNF.", "POST", f"{INSTANCE}/heal"),
    (
        "operate",
        MEMBER,
        "Start or stop the VNFCs of a VNF.",
        "POST",
        f"{INSTANCE}/operate",
    ),
    (
        "change_ext_conn",
        MEMBER,
        "Change external connectivity.",
        "POST",
        f"{INSTANCE}/change_ext_conn",
    ),
    (
        "change_vnfpkg",
        MEMBER,
        "Change the current VNF package.",
        "POST",
        f"{INSTANCE}/change_vnfpkg",
    ),
    (
        "create_snapshot",
        MEMBER,
        "Take a snapshot of a VNF.",
        "POST",
        f"{INSTANCE}/create_snapshot",
    ),
    (
        "revert_to_snapshot",
        MEMBER,
        "Revert a VNF to a snapshot.",
        "POST",
        f"{INSTANCE}/revert_to_snapshot",
    ),
    (
        "snapshot_create",
        MEMBER,
        "Create a VNF snapshot resource.",
        "POST",
        SNAPS,
    ),
    ("snapshot_index", READER, "List VNF snapshots.", "GET", SNAPS),
    ("snapshot_show", READER, "Show a VNF snapshot.", "GET", SNAP),
    (
        "snapshot_update",
        MEMBER,
        "Modify an empty VNF snapshot resource.",
        "PATCH",
        SNAP,
    ),
    (
        "snapshot_state_show",
        READER,
        "Fetch the VNF state snapshot of a VNF snapshot.",
        "GET",
        f"{SNAP}/vnf_state_snapshot",
    ),
    (
        "snapshot_delete",
        MEMBER,
        "Delete a VNF snapshot and its VIM images.",
        "DELETE",
        SNAP,
    ),
    ("op_occ_index", READER, "List LCM operation occurrences.", "GET", OCCS),
    ("op_occ_show", READER, "Show an LCM operation occurrence.", "GET", OCC),
    (
        "op_occ_retry",
        MEMBER,
        "Retry a failed operation.",
        "POST",
        f"{OCC}/retry",
    ),
    (
        "op_occ_rollback",
        MEMBER,
        "Roll back a failed operation.",
        "POST",
        f"{OCC}/rollback",
    ),
    (
        "op_occ_fail",
        MEMBER,
        "Mark a failed operation FAILED.",
        "POST",
        f"{OCC}/fail",
    ),
    (
        "op_occ_cancel",
        MEMBER,
        "Cancel a running operation.",
        "POST",
        f"{OCC}/cancel",
    ),
    (
        "subscription_create",
        MEMBER,
        "Subscribe to notifications.",
        "POST",
        SUBS,
    ),
    ("subscription_index", READER, "List subscriptions.", "GET", SUBS),
    ("subscription_show", READER, "Show a subscription.", "GET", SUB),
    ("subscription_delete", MEMBER, "Delete a subscription.", "DELETE", SUB),
]

rules = [
    policy.DocumentedRuleDefault(
        name=f"{PREFIX}:{name}",
        check_str=check,
        description=description,
        operations=[{"method": method, "path": path}],
    )
    for name, check, description, method, path in _RULES
]


def list_rules() -> list:
    return rules
