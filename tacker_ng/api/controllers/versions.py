"""``GET /{api}/api_versions`` and ``GET /{api}/{major}/api_versions``."""

import pecan

from tacker_ng import policies
from tacker_ng.api import routing, versions

POLICY = "tacker_ng:api_versions:show"


class ApiVersionsController:
    """ApiVersionInformation of one SOL API (SOL013 9.3)."""

    def __init__(self, api: versions.SolApi, is_major_level: bool) -> None:
        self.api = api
        self.is_major_level = is_major_level

    @routing.resource()
    def index(self) -> dict:
        policies.authorize(pecan.request.context, POLICY)
        return self.api.api_versions_body(self.is_major_level)
