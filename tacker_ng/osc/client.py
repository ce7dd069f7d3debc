"""HTTP client of the CLI plugin: tacker-ng's REST API on a Keystone
session (keystone tokens, http_basic or none, as the shell chose).

Errors come back as :class:`ApiError` carrying the ProblemDetails the API
answered, so each command can show the caller's mistake in one line
instead of a traceback.
"""

import re
import urllib.parse
from typing import Any

from keystoneauth1 import adapter
from keystoneauth1 import exceptions as ks_exc
from osc_lib import exceptions

SERVICE_TYPE = "nfv-orchestration"
LCM = "/vnflcm/v2"
PKGM = "/vnfpkgm/v1"
#: SOL003 v3.3.1 LCM interface version sent on every /vnflcm/v2 request.
LCM_VERSION = "2.0.0"
PM = "/vnfpm/v2"
#: SOL003 v3.3.1 VNF performance management interface version.
PM_VERSION = "2.1.0"


class ApiError(exceptions.CommandError):
    """The API refused a request; ``problem`` is its ProblemDetails."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        title = problem.get("title") or "Error"
        detail = problem.get("detail") or ""
        super().__init__(
            f"HTTP {status} {title}: {detail}".rstrip(": ").strip()
        )


def _problem(resp: Any) -> dict[str, Any]:
    try:
        body = resp.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        return body
    return {"title": resp.reason or "Error", "detail": resp.text[:500]}


_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')


def next_link(headers: dict[str, str]) -> str | None:
    """The next page's URL of a SOL013 ``Link`` header, if any."""
    for key, value in headers.items():
        if key.lower() == "link":
            match = _NEXT.search(value)
            if match:
                return match.group(1)
    return None


def _is_under(path: str, prefix: str) -> bool:
    """Whether a path or next-page URL is on the API at ``prefix``."""
    url_path = urllib.parse.urlsplit(path).path
    return url_path.startswith(prefix) or f"{prefix}/" in url_path


def _is_lcm(path: str) -> bool:
    """Whether a path or a next-page URL (maybe below a public_endpoint
    prefix) is on the LCM interface, which requires a ``Version`` header."""
    url_path = urllib.parse.urlsplit(path).path
    return url_path.startswith(LCM) or f"{LCM}/" in url_path


class Client:
    """The calls the plugin's commands make, one method each."""

    def __init__(
        self,
        session: Any,
        endpoint: str | None = None,
        region_name: str | None = None,
        interface: str | None = None,
    ) -> None:
        self.http = adapter.Adapter(
            session,
            service_type=SERVICE_TYPE,
            endpoint_override=endpoint.rstrip("/") if endpoint else None,
            region_name=region_name,
            interface=interface,
        )

    def request(
        self, method: str, path: str, json: Any = None
    ) -> tuple[Any, dict]:
        """Send one request; returns (decoded body or None, headers)."""
        headers = {"Accept": "application/json"}
        if _is_lcm(path):
            headers["Version"] = LCM_VERSION
        elif _is_under(path, PM):
            headers["Version"] = PM_VERSION
        try:
            resp = self.http.request(
                path, method, json=json, headers=headers, raise_exc=False
            )
        except ks_exc.ConnectFailure as exc:
            raise exceptions.CommandError(
                f"Cannot reach the tacker-ng API: {exc}"
            ) from exc
        except ks_exc.EndpointNotFound as exc:
            raise exceptions.CommandError(
                f"No '{SERVICE_TYPE}' endpoint in the service catalog; "
                "register tacker-ng there or pass --os-endpoint."
            ) from exc
        if resp.status_code >= 400:
            raise ApiError(resp.status_code, _problem(resp))
        body = resp.json() if resp.content else None
        return body, dict(resp.headers)

    def get(self, path: str) -> Any:
        return self.request("GET", path)[0]

    def start_task(self, instance_id: str, task: str, body: dict) -> str:
        """POST a task resource (202); returns the new op occ's id."""
        _, headers = self.request(
            "POST", f"{LCM}/vnf_instances/{instance_id}/{task}", json=body
        )
        location = headers.get("Location") or headers.get("location") or ""
        return location.rstrip("/").rsplit("/", 1)[-1]

    def op_occ(self, op_occ_id: str) -> dict[str, Any]:
        return self.get(f"{LCM}/vnf_lcm_op_occs/{op_occ_id}")

    def newest_op_occ(self, instance_id: str) -> str | None:
        """The id of the instance's most recently started op occ."""
        query = urllib.parse.urlencode(
            {"filter": f"(eq,vnfInstanceId,{instance_id})"}
        )
        occs = self.list_all(f"{LCM}/vnf_lcm_op_occs?{query}")
        if not occs:
            return None
        return max(occs, key=lambda o: o.get("startTime") or "")["id"]

    def create_package(self) -> dict[str, Any]:
        """POST an empty CreateVnfPkgInfoRequest (201); the VnfPkgInfo."""
        return self.request("POST", f"{PKGM}/vnf_packages", json={})[0]

    def upload_package(self, package_id: str, csar: bytes) -> None:
        """PUT the CSAR as the package's content (202)."""
        try:
            resp = self.http.request(
                f"{PKGM}/vnf_packages/{package_id}/package_content",
                "PUT",
                data=csar,
                headers={
                    "Content-Type": "application/zip",
                    "Accept": "application/json",
                },
                raise_exc=False,
            )
        except ks_exc.ConnectFailure as exc:
            raise exceptions.CommandError(
                f"Cannot reach the tacker-ng API: {exc}"
            ) from exc
        if resp.status_code >= 400:
            raise ApiError(resp.status_code, _problem(resp))

    def package(self, package_id: str) -> dict[str, Any]:
        return self.get(f"{PKGM}/vnf_packages/{package_id}")

    def vnf_instance(self, instance_id: str) -> dict[str, Any]:
        return self.get(f"{LCM}/vnf_instances/{instance_id}")

    def observed(self, instance_id: str) -> dict[str, Any]:
        """Convergence's desired vs observed state (admin)."""
        return self.get(f"/v1/vnf_instances/{instance_id}/observed")

    def create_snapshot_info(self) -> dict[str, Any]:
        """POST an empty VnfSnapshotInfo (201); returns it."""
        return self.request("POST", f"{LCM}/vnf_snapshots", json={})[0]

    def snapshot(self, snapshot_id: str) -> dict[str, Any]:
        return self.get(f"{LCM}/vnf_snapshots/{snapshot_id}")

    def delete_snapshot(self, snapshot_id: str) -> None:
        self.request("DELETE", f"{LCM}/vnf_snapshots/{snapshot_id}")

    def snapshots(self, sol_filter: str | None = None) -> list[dict]:
        """Every VnfSnapshotInfo, following the ``Link: rel="next"`` pages."""
        path = f"{LCM}/vnf_snapshots"
        if sol_filter:
            path += "?" + urllib.parse.urlencode({"filter": sol_filter})
        return self.list_all(path)

    def list_all(self, path: str) -> list[dict]:
        """GET a SOL013 list and every next page its Link header names."""
        items: list[dict] = []
        url: str | None = path
        while url:
            body, headers = self.request("GET", url)
            items += body or []
            url = next_link(headers)
        return items

    def pm_job(self, job_id: str) -> dict[str, Any]:
        """A PmJob with its reports."""
        return self.get(f"{PM}/pm_jobs/{job_id}")

    def conductors(self) -> list[dict[str, Any]]:
        return self.get("/v1/conductors")["conductors"]
