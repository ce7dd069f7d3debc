"""SOL013 API versioning: which SOL APIs we serve, at which versions.

Each SOL API has a URI prefix per major version, a list of supported
versions and an ``api_versions`` resource that needs no ``Version``
header. Every other resource under the prefix requires one (400 when
missing, 406 when unsupported), and every response echoes the version.
"""

import dataclasses

VERSION_HEADER = "Version"


@dataclasses.dataclass(frozen=True)
class SolApi:
    """One SOL API at one major version."""

    name: str
    major: str
    versions: tuple[str, ...]
    #: False for APIs whose established clients send no ``Version``
    #: header (Tacker's /vnfpkgm/v1 never required one); a request
    #: without it is then served at :attr:`current`.
    version_required: bool = True

    @property
    def uri_prefix(self) -> str:
        return f"/{self.name}/{self.major}"

    @property
    def current(self) -> str:
        return self.versions[-1]

    def api_versions_body(self, is_major_level: bool) -> dict:
        """The ApiVersionInformation document (SOL013 9.3.2)."""
        info = [{"version": v, "isDeprecated": False} for v in self.versions]
        return {
            "uriPrefix": self.uri_prefix
            if is_major_level
            else f"/{self.name}",
            "apiVersions": info,
        }


#: SOL APIs served by tacker-ng. Add new majors/versions here.
SOL_APIS: tuple[SolApi, ...] = (
    SolApi("vnflcm", "v2", ("2.0.0",)),
    # SOL005 VNF package management: SOL013 puts the major version in
    # the URI, so 2.x lives under /vnfpkgm/v2 (what an NFVO, and our own
    # remote package source, call).
    SolApi("vnfpkgm", "v2", ("2.1.0",)),
    # The same resources under /vnfpkgm/v1, because python-tackerclient
    # (2.6.0, ``openstack vnf package ...``) calls that prefix and sends
    # no Version header.
    SolApi("vnfpkgm", "v1", ("2.1.0",), version_required=False),
    # SOL003 v3.3.1 VNF fault management (clause 7).
    SolApi("vnffm", "v1", ("1.3.0",)),
    # SOL003 v3.3.1 VNF lifecycle operation granting (clause 9): only
    # GET of the local NFVO's grants (``[nfvo] mode = local``).
    SolApi("grant", "v1", ("1.4.0",)),
    # SOL003 v3.3.1 VNF performance management (clause 6); 2.1.0 is what
    # python-tackerclient's ``openstack vnfpm`` commands send.
    SolApi("vnfpm", "v2", ("2.1.0",)),
)


def api_for_path(path: str) -> SolApi | None:
    """The SOL API a request path belongs to, if any."""
    for api in SOL_APIS:
        if path == api.uri_prefix or path.startswith(api.uri_prefix + "/"):
            return api
        if path.rstrip("/") == f"/{api.name}/api_versions":
            return api
    return None


def needs_version_header(api: SolApi, path: str) -> bool:
    """True for versioned resources (all but the api_versions ones)."""
    return not path.rstrip("/").endswith("/api_versions")


def response_version(api: SolApi, requested: str | None) -> str:
    """The version echoed on a response to a request asking for one."""
    if requested and requested in api.versions:
        return requested
    return api.current
