"""VnfPkgInfo (SOL005 9.5.2.5) from a ``vnf_packages`` row.

Rows are mappings keyed by column name; a list may leave out JSON
documents its attribute selectors exclude, so those are read with
``get``.
"""

from collections.abc import Mapping
from typing import Any

from tacker_ng.objects.package_states import OnboardingState
from tacker_ng.objects.views import PKGM_PREFIX as PREFIX

_PRODUCT = (
    ("vnfdId", "vnfd_id"),
    ("vnfProvider", "vnf_provider"),
    ("vnfProductName", "vnf_product_name"),
    ("vnfSoftwareVersion", "vnf_software_version"),
    ("vnfdVersion", "vnfd_version"),
)


def package_url(base: str, package_id: str) -> str:
    """URL of an individual VNF package."""
    return f"{base}{PREFIX}/vnf_packages/{package_id}"


def links(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """``_links``: self, packageContent and, once onboarded, vnfd."""
    url = package_url(base, row["id"])
    result = {
        "self": {"href": url},
        "packageContent": {"href": f"{url}/package_content"},
    }
    if row["onboarding_state"] == OnboardingState.ONBOARDED:
        result["vnfd"] = {"href": f"{url}/vnfd"}
    return result


def vnf_pkg_info(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """The VnfPkgInfo of ``row``; product fields once they are known."""
    body: dict[str, Any] = {"id": row["id"]}
    for attribute, column in _PRODUCT:
        if row[column] is not None:
            body[attribute] = row[column]
    for attribute, column in (
        ("checksum", "checksum"),
        ("softwareImages", "software_images"),
        ("additionalArtifacts", "additional_artifacts"),
    ):
        value = row.get(column)
        if value is not None:
            body[attribute] = value
    body["onboardingState"] = row["onboarding_state"]
    body["operationalState"] = row["operational_state"]
    body["usageState"] = row["usage_state"]
    if "user_defined_data" in row:
        body["userDefinedData"] = row["user_defined_data"] or {}
    failure = row.get("onboarding_failure_details")
    if failure is not None:
        body["onboardingFailureDetails"] = failure
    # Extension (not in SOL005): deviations accepted at onboarding.
    warnings = row.get("onboarding_warnings")
    if warnings:
        body["onboardingWarnings"] = warnings
    body["_links"] = links(base, row)
    return body
