"""How the CLI client turns API answers into results and errors."""

import types

import pytest
from keystoneauth1 import exceptions as ks_exc
from osc_lib import exceptions

from tacker_ng.osc import client


class FakeAdapter:
    """Stands for keystoneauth's Adapter: records calls, answers one."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.calls = []

    def request(self, url, method, **kw):
        self.calls.append((method, url, kw))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def _resp(status, body=None, text="", headers=None, reason="Reason"):
    def json():
        if body is None:
            raise ValueError("no JSON")
        return body

    content = text.encode() if body is None else b"{}"
    return types.SimpleNamespace(
        status_code=status,
        json=json,
        text=text,
        content=content if status != 202 else b"",
        headers=headers or {},
        reason=reason,
    )


def _client(answer) -> tuple[client.Client, FakeAdapter]:
    made = client.Client(object(), endpoint="http://t:9890/")
    made.http = FakeAdapter(answer)
    return made, made.http


def test_lcm_requests_carry_the_version_header():
    made, http = _client(_resp(200, {"id": "o"}))
    assert made.op_occ("o") == {"id": "o"}
    method, url, kw = http.calls[0]
    assert (method, url) == ("GET", "/vnflcm/v2/vnf_lcm_op_occs/o")
    assert kw["headers"]["Version"] == "2.0.0"
    assert kw["raise_exc"] is False


def test_pm_requests_carry_the_pm_version_header():
    made, http = _client(_resp(200, {"id": "j", "reports": []}))
    assert made.pm_job("j") == {"id": "j", "reports": []}
    method, url, kw = http.calls[0]
    assert (method, url) == ("GET", "/vnfpm/v2/pm_jobs/j")
    assert kw["headers"]["Version"] == "2.1.0"


def test_admin_requests_carry_no_version_header():
    made, http = _client(_resp(200, {"conductors": [{"hostname": "c"}]}))
    assert made.conductors() == [{"hostname": "c"}]
    assert "Version" not in http.calls[0][2]["headers"]


def test_start_task_returns_the_op_occ_id_from_location():
    location = "http://t:9890/vnflcm/v2/vnf_lcm_op_occs/occ-9"
    made, http = _client(_resp(202, headers={"Location": location}))
    assert made.start_task("i", "scale_to_level", {"a": 1}) == "occ-9"
    method, url, kw = http.calls[0]
    assert (method, url) == (
        "POST",
        "/vnflcm/v2/vnf_instances/i/scale_to_level",
    )
    assert kw["json"] == {"a": 1}


def test_problem_details_become_one_line():
    problem = {"status": 422, "title": "Unprocessable Entity", "detail": "d"}
    made, _ = _client(_resp(422, problem))
    with pytest.raises(client.ApiError) as exc:
        made.vnf_instance("i")
    assert str(exc.value) == "HTTP 422 Unprocessable Entity: d"
    assert exc.value.problem == problem
    assert isinstance(exc.value, exceptions.CommandError)


def test_a_non_json_error_keeps_reason_and_text():
    made, _ = _client(_resp(502, None, text="<html>bad gateway</html>",
                            reason="Bad Gateway"))  # fmt: skip
    with pytest.raises(client.ApiError, match="HTTP 502 Bad Gateway: <html>"):
        made.vnf_instance("i")


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (ks_exc.ConnectFailure("refused"), "Cannot reach the tacker-ng API"),
        (ks_exc.EndpointNotFound(), "No 'nfv-orchestration' endpoint"),
    ],
)
def test_transport_errors_are_command_errors(error, text):
    made, _ = _client(error)
    with pytest.raises(exceptions.CommandError, match=text):
        made.conductors()


class PagedAdapter:
    """Answers a list in pages linked by ``Link: <...>; rel="next"``."""

    def __init__(self) -> None:
        self.urls: list[str] = []
        self.versions: list[str | None] = []

    def request(self, url, method, **kw):
        self.urls.append(url)
        self.versions.append(kw["headers"].get("Version"))
        page = len(self.urls)
        headers = {}
        if page < 3:
            nxt = f"http://t:9890/vnflcm/v2/vnf_snapshots?m={page}"
            headers["Link"] = f'<{nxt}>; rel="next"'
        return _resp(200, [{"id": f"s{page}"}], headers=headers)


def test_snapshot_list_follows_every_page_with_the_filter():
    made = client.Client(object(), endpoint="http://t:9890/")
    made.http = PagedAdapter()
    got = made.snapshots("(eq,vnfSnapshot/vnfInstanceId,i 1)")
    assert [s["id"] for s in got] == ["s1", "s2", "s3"]
    assert made.http.urls == [
        "/vnflcm/v2/vnf_snapshots?filter=%28eq%2CvnfSnapshot%2F"
        "vnfInstanceId%2Ci+1%29",
        "http://t:9890/vnflcm/v2/vnf_snapshots?m=1",
        "http://t:9890/vnflcm/v2/vnf_snapshots?m=2",
    ]
    # The next pages are absolute URLs: still on the LCM interface.
    assert made.http.versions == ["2.0.0"] * 3


def test_next_link():
    assert client.next_link({}) is None
    assert client.next_link({"link": '<http://a/b?c=1>; rel="next"'}) == (
        "http://a/b?c=1"
    )
    assert client.next_link({"Link": '<http://a/b>; rel="prev"'}) is None


def test_snapshot_calls():
    made, http = _client(_resp(201, {"id": "s"}))
    assert made.create_snapshot_info() == {"id": "s"}
    made.delete_snapshot("s")
    assert [(c[0], c[1], c[2]["json"]) for c in http.calls] == [
        ("POST", "/vnflcm/v2/vnf_snapshots", {}),
        ("DELETE", "/vnflcm/v2/vnf_snapshots/s", None),
    ]
