"""Keyset paging: every row once, one statement per page, no forged markers.

The walk helpers are shared with the MariaDB/PostgreSQL functional tests.
"""

import base64
import datetime
import hashlib
import hmac
import json
import urllib.parse

import pytest
import sqlalchemy as sa
import webob
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.api import filtering
from tacker_ng.api import listing as api_listing
from tacker_ng.db import field_maps, listing, migration, models, paging

TABLE = models.VnfInstance.__table__
T0 = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
#: 97 rows over 10 distinct creation seconds: many ties broken by id.
ROWS = [
    {
        "id": f"00000000-0000-4000-8000-{(n * 7919) % 100003:012d}",
        "created_at": T0 + datetime.timedelta(seconds=n % 10),
        "vnf_instance_name": f"vnf-{n:03d}",
        "vnfd_id": "vnfd-even" if n % 2 == 0 else "vnfd-odd",
        "vnf_provider": "Acme",
        "vnf_product_name": "p",
        "vnf_software_version": "1",
        "vnfd_version": "1",
        "instantiation_state": "INSTANTIATED" if n % 3 else "NOT_INSTANTIATED",
        "metadata": {"n": n},
    }
    for n in range(97)
]
#: Filters with the Python predicate that says which rows they select.
PAGING_FILTERS = {
    "(eq,vnfdId,vnfd-even)": lambda r: r["vnfd_id"] == "vnfd-even",
    "(gte,metadata/n,90)": lambda r: r["metadata"]["n"] >= 90,
    "(eq,vnfdId,vnfd-odd);(eq,instantiationState,NOT_INSTANTIATED)": (
        lambda r: (
            r["vnfd_id"] == "vnfd-odd"
            and r["instantiation_state"] == "NOT_INSTANTIATED"
        )
    ),
    "(eq,vnfInstanceName,nobody)": lambda r: False,
}


def insert_instances(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        conn.execute(TABLE.insert(), ROWS)


def expected_ids(engine: sa.Engine, flt) -> list[str]:
    """Ids in page order, computed in Python from ``ROWS``."""
    predicate = PAGING_FILTERS[str(flt)] if flt else (lambda r: True)
    chosen = [r for r in ROWS if predicate(r)]
    return [
        r["id"]
        for r in sorted(chosen, key=lambda r: (r["created_at"], r["id"]))
    ]


def walk(engine: sa.Engine, flt, limit: int, query=None):
    """All pages, in order: (ids, statements executed)."""
    statements = []

    def count(conn, cursor, statement, *args):
        if "vnf_instances" in statement:
            statements.append(statement)

    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        ids, marker, pages = [], None, 0
        while True:
            with orm.Session(engine) as session:
                rows, marker = listing.list_page(
                    session,
                    TABLE.select() if query is None else query,
                    field_maps.VNF_INSTANCE,
                    flt,
                    marker,
                    limit,
                )
            pages += 1
            assert len(rows) <= limit
            assert rows or (pages == 1 and marker is None)
            ids += [_id(r) for r in rows]
            if marker is None:
                break
            assert len(rows) == limit
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    assert len(statements) == pages
    return ids, pages


def _id(row) -> str:
    return row.id if isinstance(row, models.VnfInstance) else row["id"]


def tamper(marker: str) -> str:
    """The marker with its payload changed but its signature kept."""
    payload, mac = marker.split(".")
    data = json.loads(
        base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    )
    data[3] = data[3][:-1] + ("0" if data[3][-1] != "0" else "1")
    forged = base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=")
    return f"{forged.decode()}.{mac}"


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("paging") / "paging.sqlite"
    eng = sa.create_engine(f"sqlite:///{path}")
    migration.upgrade(engine=eng)
    insert_instances(eng)
    yield eng
    eng.dispose()


@pytest.mark.parametrize("limit", [1, 7, 40, 97, 98, 1000])
@pytest.mark.parametrize("text", [None, *PAGING_FILTERS])
def test_walk_yields_every_row_once_in_order(engine, limit, text):
    flt = filtering.parse(text) if text else None
    ids, pages = walk(engine, flt, limit)
    expected = expected_ids(engine, flt)
    assert ids == expected
    assert len(set(ids)) == len(ids)
    assert pages == max(1, -(-len(expected) // limit))


def test_orm_entities_come_back_for_a_model_query(engine):
    flt = filtering.parse("(eq,vnfdId,vnfd-even)")
    ids, _ = walk(engine, flt, 30, query=sa.select(models.VnfInstance))
    assert ids == expected_ids(engine, flt)


def test_select_for_skips_documents_left_out(engine):
    query = listing.select_for(
        field_maps.VNF_INSTANCE, lambda a: a == "metadata"
    )
    names = {c.name for c in query.selected_columns}
    assert {"id", "created_at", "vnf_instance_name", "metadata"} <= names
    assert not names & {"instantiated_vnf_info", "vim_connection_info"}
    flt = filtering.parse("(gte,metadata/n,90)")
    ids, _ = walk(engine, flt, 4, query=query)
    assert ids == expected_ids(engine, flt)


def test_model_class_as_query(engine):
    with orm.Session(engine) as session:
        rows, marker = listing.list_page(
            session, models.VnfInstance, field_maps.VNF_INSTANCE, None, None, 5
        )
    assert all(isinstance(r, models.VnfInstance) for r in rows)
    assert marker


def test_rows_added_meanwhile_cause_no_duplicates(tmp_path):
    eng = sa.create_engine(f"sqlite:///{tmp_path}/p.sqlite")
    migration.upgrade(engine=eng)
    insert_instances(eng)
    with orm.Session(eng) as session:
        first, marker = listing.list_page(
            session, TABLE.select(), field_maps.VNF_INSTANCE, None, None, 10
        )
    older = dict(
        ROWS[0],
        id="0a000000-0000-4000-8000-000000000000",
        created_at=T0 - datetime.timedelta(days=1),
    )
    newer = dict(
        ROWS[0],
        id="ffffffff-0000-4000-8000-000000000000",
        created_at=T0 + datetime.timedelta(days=1),
    )
    with eng.begin() as conn:
        conn.execute(TABLE.insert(), [older, newer])
    rest = []
    while marker:
        with orm.Session(eng) as session:
            rows, marker = listing.list_page(
                session,
                TABLE.select(),
                field_maps.VNF_INSTANCE,
                None,
                marker,
                10,
            )
        rest += [r["id"] for r in rows]
    seen = [r["id"] for r in first] + rest
    assert len(seen) == len(set(seen))
    assert newer["id"] in rest
    assert older["id"] not in seen  # sorts before the marker
    assert set(seen) == {r["id"] for r in ROWS} | {newer["id"]}
    eng.dispose()


def _first_marker(engine, limit=3, table=TABLE):
    with orm.Session(engine) as session:
        return listing.list_page(
            session, table.select(), field_maps.VNF_INSTANCE, None, None, limit
        )[1]


def _page(engine, marker):
    with orm.Session(engine) as session:
        return listing.list_page(
            session, TABLE.select(), field_maps.VNF_INSTANCE, None, marker, 3
        )


@pytest.mark.parametrize(
    ("mangle", "reason"),
    [
        (tamper, "signature does not match"),
        (lambda m: m[:-2] + ("AA" if m[-2:] != "AA" else "BB"), "signature"),
        (lambda m: m.replace(".", ""), "not a marker issued"),
        (lambda m: m + ".x", "not a marker issued"),
        (lambda m: "!!!." + m.split(".")[1], "not a marker issued"),
        (lambda m: "x" * 600, "not a marker issued"),
        (lambda m: "", "not a marker issued"),
    ],
)
def test_forged_or_garbled_marker_is_400(engine, mangle, reason):
    marker = _first_marker(engine)
    with pytest.raises(exceptions.BadRequest) as err:
        _page(engine, mangle(marker))
    assert err.value.status == 400
    assert reason in err.value.detail
    assert paging.PARAM in err.value.detail


def test_marker_of_another_resource_is_400(engine):
    key = paging.signing_key(engine)
    other = paging.encode_marker("vnf_lcm_op_occs", T0, "x", key)
    with pytest.raises(exceptions.BadRequest, match="vnf_instances"):
        _page(engine, other)


def test_marker_signed_for_another_database_is_400(engine, tmp_path):
    other = sa.create_engine(f"sqlite:///{tmp_path}/other.sqlite")
    marker = paging.encode_marker(
        "vnf_instances", T0, "x", paging.signing_key(other)
    )
    with pytest.raises(exceptions.BadRequest, match="signature"):
        _page(engine, marker)


def test_signed_but_unreadable_marker_is_400():
    key = b"k" * 32
    for payload in (
        b"[1]",
        b"{}",
        b"not json",
        b'[1,"t","never","x"]',
        b'[2,"t","2024-01-01T00:00:00+00:00","x"]',
        b'[1,"t","2024-01-01T00:00:00+00:00",5]',
    ):
        mac = hmac.new(key, payload, hashlib.sha256).digest()[:16]
        marker = (
            base64.urlsafe_b64encode(payload).rstrip(b"=").decode()
            + "."
            + base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
        )
        with pytest.raises(exceptions.BadRequest):
            paging.decode_marker(marker, "t", key)


def test_marker_round_trip_is_url_safe():
    key = paging.signing_key(sa.create_engine("sqlite://"))
    when = datetime.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=datetime.UTC)
    marker = paging.encode_marker("vnf_instances", when, "abc", key)
    assert marker == urllib.parse.quote(marker, safe="")
    assert paging.decode_marker(marker, "vnf_instances", key) == (when, "abc")
    naive = paging.encode_marker("t", when.replace(tzinfo=None), "i", key)
    assert paging.decode_marker(naive, "t", key) == (when, "i")


def test_key_is_shared_by_engines_on_one_database(tmp_path):
    url = f"sqlite:///{tmp_path}/k.sqlite"
    one, two = sa.create_engine(url), sa.create_engine(url)
    assert paging.signing_key(one) == paging.signing_key(two)
    with one.connect() as conn:
        assert paging.signing_key(conn) == paging.signing_key(one)


def test_limit_must_be_positive(engine):
    with orm.Session(engine) as session, pytest.raises(ValueError):
        listing.list_page(
            session, TABLE.select(), field_maps.VNF_INSTANCE, None, None, 0
        )


# --- Link header ----------------------------------------------------------


def test_link_keeps_other_parameters_and_replaces_the_marker():
    url = (
        "http://h:9890/vnflcm/v2/vnf_instances?filter=(eq,vnfdId,'a%2Cb')"
        "&nextpage_opaque_marker=old&fields=metadata&all_fields"
    )
    got = api_listing.next_page_url(url, "new.mark")
    assert got == (
        "http://h:9890/vnflcm/v2/vnf_instances?filter=(eq,vnfdId,'a%2Cb')"
        "&fields=metadata&all_fields&nextpage_opaque_marker=new.mark"
    )


def test_link_without_query_and_behind_a_public_endpoint():
    url = "http://10.0.0.1:9890/vnflcm/v2/vnf_lcm_op_occs"
    assert (
        api_listing.next_page_url(url, "m")
        == url + "?nextpage_opaque_marker=m"
    )
    assert api_listing.next_page_url(
        url, "m", "https://vnfm.example.net/nfv/"
    ) == (
        "https://vnfm.example.net/nfv/vnflcm/v2/vnf_lcm_op_occs"
        "?nextpage_opaque_marker=m"
    )


def test_link_header_value(conf):
    request = webob.Request.blank("/vnflcm/v2/vnf_instances?filter=(eq,id,x)")
    assert api_listing.link_header(request, None, conf) is None
    assert api_listing.link_header(request, "m", conf) == (
        "<http://localhost/vnflcm/v2/vnf_instances?filter=(eq,id,x)"
        '&nextpage_opaque_marker=m>; rel="next"'
    )
    conf.set_override("public_endpoint", "https://vnfm:9890", group="api")
    assert api_listing.link_header(request, "m", conf).startswith(
        "<https://vnfm:9890/vnflcm/v2/vnf_instances?"
    )
