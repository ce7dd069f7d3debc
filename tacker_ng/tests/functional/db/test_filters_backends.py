"""The SQLite filter and paging cases, run on MariaDB and PostgreSQL.

A filter must select the same rows on every backend: the cases (rows,
filters, expected labels) are imported from the unit tests and evaluated
by the real servers, in SQL.
"""

import pytest
from oslo_db.sqlalchemy import engines
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.api import filtering
from tacker_ng.db import field_maps, listing, migration
from tacker_ng.tests.functional import services
from tacker_ng.tests.unit.db import test_filters as cases
from tacker_ng.tests.unit.db import test_paging as paging_cases


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def backend(request):
    """A migrated scratch database per backend holding every case row."""
    with services.scratch_database(request.param) as url:
        engine = engines.create_engine(url)
        try:
            migration.upgrade(engine=engine)
            cases.insert_all(engine)
            yield engine
        finally:
            engine.dispose()


@pytest.mark.parametrize(
    ("resource", "text", "expected"), cases.case_params("cases")
)
def test_filter_selects_the_same_rows(backend, resource, text, expected):
    assert cases.matching(backend, resource, text) == expected


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def paged(request):
    """A migrated scratch database per backend with the paging rows."""
    with services.scratch_database(request.param) as url:
        engine = engines.create_engine(url)
        try:
            migration.upgrade(engine=engine)
            paging_cases.insert_instances(engine)
            yield engine
        finally:
            engine.dispose()


@pytest.mark.parametrize("limit", [1, 7, 97, 98])
@pytest.mark.parametrize("text", [None, *paging_cases.PAGING_FILTERS])
def test_walking_pages_yields_every_row_once(paged, limit, text):
    flt = filtering.parse(text) if text else None
    ids, pages = paging_cases.walk(paged, flt, limit)  # one query a page
    expected = paging_cases.expected_ids(paged, flt)
    assert ids == expected
    assert pages == max(1, -(-len(expected) // limit))


def test_forged_marker_is_400(paged):
    with orm.Session(paged) as session:
        _, marker = listing.list_page(
            session,
            paging_cases.TABLE.select(),
            field_maps.VNF_INSTANCE,
            None,
            None,
            3,
        )
        forged = paging_cases.tamper(marker)
        with pytest.raises(exceptions.BadRequest):
            listing.list_page(
                session,
                paging_cases.TABLE.select(),
                field_maps.VNF_INSTANCE,
                None,
                forged,
                3,
            )
