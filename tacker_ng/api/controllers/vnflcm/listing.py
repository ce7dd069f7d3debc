"""List responses of the LCM API: filter, selectors and paging in SQL."""

from collections.abc import Callable, Mapping
from typing import Any

import pecan

from tacker_ng.api import listing as api_listing
from tacker_ng.db import api as db_api
from tacker_ng.db import listing as db_listing


def respond(
    resource: api_listing.ListResource,
    project_id: str | None,
    render: Callable[[Mapping[str, Any]], dict],
) -> list[dict]:
    """One page of ``resource``, rendered, with a ``Link`` to the next."""
    request = pecan.request
    query = api_listing.parse_list_query(request, resource)
    with db_api.read_connection(request.context) as conn:
        rows, marker = db_listing.page(
            conn,
            resource.fields,
            query.includes,
            project_id,
            query.filter,
            query.marker,
            query.limit,
        )
    link = api_listing.link_header(request, marker)
    if link:
        pecan.response.headers["Link"] = link
    if query.select_needed():
        return [query.select(render(row)) for row in rows]
    return [render(row) for row in rows]
