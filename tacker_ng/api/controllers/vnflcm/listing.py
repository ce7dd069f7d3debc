"""List responses of the LCM API: paging with a ``Link`` header."""

from collections.abc import Callable, Mapping
from typing import Any

import pecan
import sqlalchemy as sa
from oslo_config import cfg

from tacker_ng.db import api as db_api


def respond(
    resource: str,
    table: sa.Table,
    project_id: str | None,
    render: Callable[[Mapping[str, Any]], dict],
) -> list[dict]:
    """One page of ``table`` rendered by ``render``."""
    limit = cfg.CONF.api.max_page_size
    query = sa.select(table).order_by(table.c.created_at, table.c.id)
    if project_id is not None:
        query = query.where(table.c.project_id == project_id)
    with db_api.reader(pecan.request.context) as session:
        rows = list(session.execute(query.limit(limit)).mappings())
    return [render(row) for row in rows]
