"""Policy for the VNF package management API (``/vnfpkgm/v1``)."""

from oslo_policy import policy

PREFIX = "tacker_ng:vnfpkgm"
READER = "rule:project_reader_or_admin"
MEMBER = "rule:project_member_or_admin"
PKGS = "/vnfpkgm/v1/vnf_packages"
PKG = f"{PKGS}/{{vnfPkgId}}"
ONBOARDED = "/vnfpkgm/v1/onboarded_vnf_packages/{vnfdId}"

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
]

rules = [
    policy.DocumentedRuleDefault(
        name=f"{PREFIX}:{name}",
        check_str=check,
        description=description,
        operations=[
            {"method": method, "path": path} for method, path in operations
        ],
    )
    for name, check, description, operations in _RULES
]


def list_rules() -> list:
    return rules
