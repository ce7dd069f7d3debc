"""Helpers shared by the reservation controllers."""

from typing import Any

import pecan
import webob
from oslo_log import log as logging

from tacker_ng import exceptions, policies
from tacker_ng.api import validation
from tacker_ng.reservation import rpcapi

LOG = logging.getLogger(__name__)

OBJECT = {"type": "object"}


def context():
    return pecan.request.context


def body() -> Any:
    """The JSON object body (415/400 otherwise)."""
    return validation.parse_json(pecan.request, OBJECT)


def authorize(rule: str, project_id: str | None = None) -> None:
    ctx = context()
    target = {"project_id": project_id or ctx.project_id}
    policies.authorize(ctx, rule, target)


def allowed(rule: str) -> bool:
    try:
        authorize(rule)
    except exceptions.Forbidden:
        return False
    return True


def status(code: int) -> None:
    pecan.response.status = code


def no_content() -> webob.Response:
    """An empty 204 (pecan would render ``null`` for None)."""
    return webob.Response(status=204)


def wake_conductors() -> None:
    """Let the leader conductor run due lease events now."""
    rpcapi.get_api().wake_events(context())
