"""What to tell a client that called a route tacker-ng does not serve.

A bare "The resource could not be found." is a dead end for a newcomer
whose client is set up for Tacker, not for tacker-ng: python-tackerclient
calls ``/vnflcm/v1`` unless told ``--os-tacker-api-version 2``, and
python-blazarclient, given the API root instead of the reservation
endpoint, calls ``/leases``. Such a 404 names the fix instead. Served
routes keep their own 404s ("VNF package x does not exist."): only a
request that no controller matched is given a hint.

Pure string logic; :class:`tacker_ng.api.hooks.ErrorHook` applies it.
"""

#: What python-tackerclient users change to reach /vnflcm/v2.
TACKERCLIENT_V2 = (
    "With python-tackerclient add --os-tacker-api-version 2 to the "
    "command or set OS_TACKER_API_VERSION=2; other clients call "
    "/vnflcm/v2 with the header 'Version: 2.0.0'."
)

LCM_V1 = (
    "tacker-ng serves VNF lifecycle management (SOL003 v3.3.1) under "
    "/vnflcm/v2 only, not /vnflcm/v1. " + TACKERCLIENT_V2
)

#: The resources tacker-ng serves under /vnfpkgm/v1 (for python-
#: tackerclient's ``vnf package`` commands, which always call v1).
PKGM_V1_RESOURCES = (
    "vnf_packages",
    "onboarded_vnf_packages",
    "subscriptions",
    "api_versions",
)

#: python-blazarclient's collections, appended to whatever endpoint it
#: was given.
BLAZAR_COLLECTIONS = ("leases", "os-hosts", "floatingips")
#: Where those land when python-blazarclient is pointed at the API root
#: (the endpoint the other plugins use), at tacker-ng's own /v1, or at
#: /reservation without its version.
MISDIRECTED_RESERVATION_PREFIXES = tuple(
    f"{base}/{name}"
    for base in ("", "/v1", "/reservation")
    for name in BLAZAR_COLLECTIONS
)
RESERVATION_PATH = "/reservation/v1"


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix + "/")


def pkgm_v1(path: str) -> str:
    """The hint for an unserved route under /vnfpkgm/v1."""
    return (
        f"tacker-ng does not serve {path}. Under /vnfpkgm/v1 it serves "
        f"{', '.join(PKGM_V1_RESOURCES)} (what python-tackerclient's "
        "'vnf package' commands call). VNF lifecycle management is under "
        "/vnflcm/v2: " + TACKERCLIENT_V2
    )


def reservation(path: str, base_url: str) -> str:
    """The hint for python-blazarclient pointed at the wrong endpoint."""
    endpoint = base_url.rstrip("/") + RESERVATION_PATH
    return (
        f"tacker-ng's reservation API is at {endpoint}, not at {path}. "
        "Point python-blazarclient at it: export "
        f"OS_RESERVATION_ENDPOINT_OVERRIDE={endpoint} (clouds.yaml: "
        "reservation_endpoint_override) or run the reservation command "
        f"with --os-endpoint {endpoint}; with Keystone, register it as "
        "the 'reservation' service's endpoint."
    )


def hint(path: str, base_url: str) -> str | None:
    """The detail for a 404 of a route no controller matched, or None
    when tacker-ng has nothing better to say than "not found".

    ``base_url`` is where clients reach the API (``[api]
    public_endpoint`` or the request's host URL).
    """
    if _under(path, "/vnflcm/v1"):
        return LCM_V1
    if _under(path, "/vnfpkgm/v1"):
        return pkgm_v1(path)
    if any(_under(path, p) for p in MISDIRECTED_RESERVATION_PREFIXES):
        return reservation(path, base_url)
    return None
