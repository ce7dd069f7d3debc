"""List responses of the SOL APIs: filter, selectors and paging in SQL.

A page is read on the autocommit read path (:mod:`tacker_ng.db.reads`:
one statement, no BEGIN or ROLLBACK), rendered once with orjson and
tagged with a strong ETag over its bytes and its ``Link`` header, so an
``If-None-Match`` of an unchanged page gets 304 (:mod:`tacker_ng.api.
etags`).
"""

from collections.abc import Callable, Mapping
from typing import Any

import pecan
import webob

from tacker_ng.api import etags
from tacker_ng.api import listing as api_listing
from tacker_ng.db import listing as db_listing
from tacker_ng.db import reads


def respond(
    resource: api_listing.ListResource,
    project_id: str | None,
    render: Callable[[Mapping[str, Any]], dict],
) -> webob.Response:
    """One page of ``resource``, rendered, with a ``Link`` to the next."""
    request = pecan.request
    query = api_listing.parse_list_query(request, resource)
    rows, marker = reads.run(
        lambda conn: db_listing.page(
            conn,
            resource.fields,
            query.includes,
            project_id,
            query.filter,
            query.marker,
            query.limit,
        ),
        request.context,
    )
    link = api_listing.link_header(request, marker)
    response = pecan.response
    if link:
        response.headers["Link"] = link
    if query.select_needed():
        body = [query.select(render(row)) for row in rows]
    else:
        body = [render(row) for row in rows]
    return etags.json_response(request, response, body, None, link)
