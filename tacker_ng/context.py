"""Request context: who is calling, in which project, under which request id.

It crosses the RPC bus as a dict so the conductor logs and authorizes with
the caller's identity, and it carries the DB session (enginefacade).
"""

from oslo_context import context as oslo_context
from oslo_db.sqlalchemy import enginefacade


@enginefacade.transaction_context_provider
class RequestContext(oslo_context.RequestContext):
    """The security and logging context of one request or task."""


def get_admin_context(request_id: str | None = None) -> RequestContext:
    """A context for the service's own background work."""
    return RequestContext(
        is_admin=True,
        roles=["admin"],
        request_id=request_id,
        overwrite=False,
    )
