"""Small helpers shared by the VNF LCM controllers."""

import pecan
import webob
from oslo_config import cfg

from tacker_ng import policies
from tacker_ng.db import reads, vnf_lcm

ADMIN_ROLE = "admin"


def context():
    return pecan.request.context


def scope(ctx) -> str | None:
    """Project filter for queries: None (every project) for admins."""
    return None if ADMIN_ROLE in (ctx.roles or []) else ctx.project_id


def base_url() -> str:
    """Scheme://host[:port] for Location and _links."""
    endpoint = cfg.CONF.api.public_endpoint
    if endpoint:
        return endpoint.rstrip("/")
    return pecan.request.host_url


def authorize(rule: str, project_id: str | None = None) -> None:
    ctx = context()
    policies.authorize(ctx, rule, {"project_id": project_id or ctx.project_id})


def empty(status: int, location: str | None = None) -> webob.Response:
    """A response with no body (202, 204, 303), Location if given."""
    resp = webob.Response(status=status, charset=None)
    resp.body = b""
    # WebOb gives every new response its default text/html type; an empty
    # body has no type at all.
    del resp.content_type
    if location:
        resp.headers["Location"] = location
    return resp


def accepted(location: str) -> webob.Response:
    """202 Accepted with a Location and an empty body."""
    return empty(202, location)


def created(location: str, body: dict) -> dict:
    pecan.response.status = 201
    pecan.response.headers["Location"] = location
    return body


def authorized_instance(instance_id: str, rule: str):
    """The caller's VNF instance row (404 if not visible), after policy.

    Read on the autocommit read path: a check before an operation starts
    decides nothing (the operation's conditional UPDATE does)."""
    ctx = context()
    row = reads.run(
        lambda conn: vnf_lcm.get_instance(conn, instance_id, scope(ctx)), ctx
    )
    authorize(rule, row["project_id"])
    return row
