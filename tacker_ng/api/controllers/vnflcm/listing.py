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
    table = resource.fields.table
    stmt = db_listing.select_for(resource.fields, query.includes)
    if project_id is not None:
        stmt = stmt.where(table.c.project_id == project_id)
    with db_api.reader(request.context) as session:
        rows, marker = db_listing.list_page(
            session,
            stmt,
            resource.fields,
            query.filter,
            query.marker,
            query.limit,
        )
    link = api_listing.link_header(request, marker)
    if link:
        pecan.response.headers["Link"] = link
    return [query.select(render(row)) for row in rows]
