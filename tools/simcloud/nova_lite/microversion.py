"""Microversions as Nova and Placement negotiate them.

The simulator models Nova of the Train release: microversions 2.1 to
2.79, the last one that still reports a hypervisor's vcpus, memory and
disk (``[reservation_nova] api_microversion`` defaults to it), and
Placement 1.0 to 1.36. A request names its version in
``OpenStack-API-Version: compute 2.79`` or the legacy
``X-OpenStack-Nova-API-Version: 2.79``; none means the minimum and
``latest`` the maximum. Out of range is a 406 in Nova's words, so a
client asking for a newer Nova learns it at once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tools.simcloud.nova_lite import errors

NOVA_MIN = (2, 1)
NOVA_MAX = (2, 79)
PLACEMENT_MIN = (1, 0)
PLACEMENT_MAX = (1, 36)
_FORMAT = re.compile(r"^([1-9]\d*)\.([1-9]\d*|0)$")

Version = tuple[int, int]


def text(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


def _requested(headers: Mapping[str, str], service: str, legacy: str | None):
    value = None
    for item in (headers.get("OpenStack-API-Version") or "").split(","):
        parts = item.strip().split(None, 1)
        if len(parts) == 2 and parts[0].lower() == service:
            value = parts[1].strip()
    if value is None and legacy:
        value = headers.get(legacy)
    return value


def nova(headers: Mapping[str, str]) -> Version:
    """The compute microversion of a request, or Nova's 400/406."""
    value = _requested(headers, "compute", "X-OpenStack-Nova-API-Version")
    if value is None:
        return NOVA_MIN
    if value.strip().lower() == "latest":
        return NOVA_MAX
    match = _FORMAT.match(value.strip())
    if not match:
        raise errors.bad_request(
            f"API Version String {value} is of invalid format. Must be of "
            "format MajorNum.MinorNum."
        )
    version = (int(match.group(1)), int(match.group(2)))
    if not NOVA_MIN <= version <= NOVA_MAX:
        err = errors.nova(
            406,
            f"Version {value} is not supported by the API. Minimum is "
            f"{text(NOVA_MIN)} and maximum is {text(NOVA_MAX)}.",
        )
        err.headers.update(nova_headers(version))
        raise err
    return version


def nova_headers(version: Version) -> dict[str, str]:
    """What Nova says back about the version it served."""
    value = text(version)
    return {
        "OpenStack-API-Version": f"compute {value}",
        "X-OpenStack-Nova-API-Version": value,
        "Vary": "OpenStack-API-Version, X-OpenStack-Nova-API-Version",
    }


def placement(headers: Mapping[str, str]) -> Version:
    """The placement microversion of a request, or Placement's 400/406."""
    value = _requested(headers, "placement", None)
    if value is None:
        return PLACEMENT_MIN
    if value.strip().lower() == "latest":
        return PLACEMENT_MAX
    match = _FORMAT.match(value.strip())
    if not match:
        raise errors.placement(400, f"invalid version string: {value}")
    version = (int(match.group(1)), int(match.group(2)))
    if not PLACEMENT_MIN <= version <= PLACEMENT_MAX:
        raise errors.placement(406, f"Unacceptable version header: {value}")
    return version


def placement_headers(version: Version) -> dict[str, str]:
    return {
        "openstack-api-version": f"placement {text(version)}",
        "vary": "openstack-api-version",
    }
