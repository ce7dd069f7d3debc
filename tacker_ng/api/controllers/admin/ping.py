"""``POST /v1/ping``: an RPC round trip through the bus to a conductor.

Lets an operator (and the functional tests) prove that the API reaches a
live conductor over the configured transport.
"""

import oslo_messaging as messaging
import pecan

from tacker_ng import exceptions, policies
from tacker_ng.api import routing, validation
from tacker_ng.conductor import rpcapi

POLICY = "tacker_ng:conductors:ping"

PING_SCHEMA = {
    "type": "object",
    "properties": {
        "payload": {"type": "string", "maxLength": 255},
        "timeout": {"type": "number", "minimum": 1, "maximum": 60},
    },
    "required": ["payload"],
    "additionalProperties": False,
}


class PingController:
    """Call ``ping`` on any conductor and return its answer."""

    @routing.resource(get=False)
    def index(self) -> None:
        """Only POST is served."""

    @index.when(method="POST", template="json")
    def index_post(self) -> dict:
        context = pecan.request.context
        policies.authorize(context, POLICY)
        body = validation.parse_json(pecan.request, PING_SCHEMA)
        try:
            return rpcapi.get_api().ping(
                context, body["payload"], timeout=body.get("timeout", 10)
            )
        except messaging.MessagingTimeout as exc:
            raise exceptions.ServiceUnavailable(
                "No conductor answered in time."
            ) from exc
