"""Policy for the VNF package management API (``/vnfpkgm/v2``; the same
rules apply to its ``/vnfpkgm/v1`` alias)."""

from tacker_ng.policies import base

PREFIX = "tacker_ng:vnfpkgm"
READER = "rule:project_reader_or_admin"
MEMBER = "rule:project_member_or_admin"
PKGS = "/vnfpkgm/v2/vnf_packages"
PKG = f"{PKGS}/{{vnfPkgId}}"
ONBOARDED = "/vnfpkgm/v2/onboarded_vnf_packages/{vnfdId}"
SUBS = "/vnfpkgm/v2/subscriptions"
SUB = f"{SUBS}/{{subscriptionId}}"

#: (name, check, description, operations as (method, path))
_RULES = [
    ("create", MEMBER, "Create a VNF package.", [("POST", PKGS)]),
    ("index", READER, "List VNF packages.", [("GET", PKGS)]),
    (
        "show",
        READER,
        "Show a VNF package.",
        [("GET", PKG), ("GET", ONBOARDED)],
    ),
    (
        "update",
        MEMBER,
        "Enable or disable a VNF package; change its userDefinedData.",
        [("PATCH", PKG)],
    ),
    ("delete", MEMBER, "Delete a VNF package.", [("DELETE", PKG)]),
    (
        "upload_package_content",
        MEMBER,
        "Upload the content (CSAR) of a VNF package.",
        [("PUT", f"{PKG}/package_content")],
    ),
    (
        "upload_from_uri",
        MEMBER,
        "Have the content of a VNF package fetched from a URI.",
        [("POST", f"{PKG}/package_content/upload_from_uri")],
    ),
    (
        "fetch_package_content",
        READER,
        "Fetch the content (CSAR) of an onboarded VNF package.",
        [
            ("GET", f"{PKG}/package_content"),
            ("GET", f"{ONBOARDED}/package_content"),
        ],
    ),
    (
        "fetch_vnfd",
        READER,
        "Fetch the VNFD of an onboarded VNF package.",
        [("GET", f"{PKG}/vnfd"), ("GET", f"{ONBOARDED}/vnfd")],
    ),
    (
        "fetch_artifact",
        READER,
        "Fetch one file (artifact) of an onboarded VNF package.",
        [
            ("GET", f"{PKG}/artifacts/{{artifactPath}}"),
            ("GET", f"{ONBOARDED}/artifacts/{{artifactPath}}"),
        ],
    ),
    (
        "subscription_create",
        MEMBER,
        "Subscribe to VNF package notifications.",
        [("POST", SUBS)],
    ),
    (
        "subscription_index",
        READER,
        "List VNF package subscriptions.",
        [("GET", SUBS)],
    ),
    (
        "subscription_show",
        READER,
        "Show a VNF package subscription.",
        [("GET", SUB)],
    ),
    (
        "subscription_delete",
        MEMBER,
        "Delete a VNF package subscription.",
        [("DELETE", SUB)],
    ),
]

rules = base.documented(PREFIX, _RULES)


def list_rules() -> list:
    return rules
