"""Prometheus's answers read into series; failures are PrometheusError
with Prometheus's words; non-numbers are dropped."""

import datetime
import http.server
import json
import threading
import urllib.parse

import pytest

from tacker_ng.pm import prometheus

T = 1_764_403_200.0


def _vector(*items):
    return {
        "status": "success",
        "data": {"resultType": "vector", "result": list(items)},
    }


def test_vector_and_matrix_are_read_with_their_labels():
    got = prometheus.parse(
        _vector(
            {
                "metric": {"vnfInstanceId": "a", "vnfcId": "c1"},
                "value": [T, "12.5"],
            },
            {
                "metric": {"vnfInstanceId": "a", "vnfcId": "c2"},
                "value": [T, "NaN"],
            },
        )
    )
    assert len(got) == 1
    assert got[0].labels == {"vnfInstanceId": "a", "vnfcId": "c1"}
    assert got[0].last == 12.5
    assert got[0].samples[0][0] == datetime.datetime.fromtimestamp(
        T, datetime.UTC
    )
    matrix = {
        "status": "success",
        "data": {
            "resultType": "matrix",
            "result": [
                {
                    "metric": {"x": "1"},
                    "values": [[T, "1"], [T + 10, "+Inf"], [T + 20, "3"]],
                }
            ],
        },
    }
    (series,) = prometheus.parse(matrix)
    assert [v for _, v in series.samples] == [1.0, 3.0]


@pytest.mark.parametrize(
    "answer, words",
    [
        (
            {
                "status": "error",
                "errorType": "bad_data",
                "error": "parse error at char 3",
            },
            "parse error",
        ),
        (
            {
                "status": "success",
                "data": {"resultType": "scalar", "result": [T, "1"]},
            },
            "scalar",
        ),
        ([1, 2], "unexpected answer"),
    ],
)
def test_failures_carry_prometheus_words(answer, words):
    with pytest.raises(prometheus.PrometheusError, match=words):
        prometheus.parse(answer)


class _Handler(http.server.BaseHTTPRequestHandler):
    forms: list = []

    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802
        length = int(self.headers["Content-Length"])
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        self.forms.append((self.path, form, self.headers.get("Authorization")))
        if self.path == "/broken/api/v1/query":
            body, status = b"<html>bad gateway</html>", 502
        else:
            body = json.dumps(
                _vector({"metric": {"vnfInstanceId": "a"}, "value": [T, "7"]})
            ).encode()
            status = 200
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    _Handler.forms = []
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_queries_are_posted_with_basic_auth_and_counted(conf, server):
    conf.set_override("prometheus_url", server + "/", "pm")
    conf.set_override("prometheus_username", "tacker", "pm")
    conf.set_override("prometheus_password", "s3cret", "pm")
    prom = prometheus.Prometheus(conf)
    at = datetime.datetime.fromtimestamp(T, datetime.UTC)
    (series,) = prom.instant('up{vnfInstanceId=~"a"}', at)
    assert series.last == 7.0
    prom.range("up", at, at + datetime.timedelta(seconds=60), 30)
    assert prom.queries == 2
    (path, form, auth), (path2, form2, _) = _Handler.forms
    assert path == "/api/v1/query" and form["query"] == [
        'up{vnfInstanceId=~"a"}'
    ]
    assert form["time"] == [f"{T:.3f}"]
    assert auth.startswith("Basic ")
    assert path2 == "/api/v1/query_range"
    assert form2["step"] == ["30"] and form2["end"] == [f"{T + 60:.3f}"]


def test_an_unreachable_or_broken_prometheus_is_a_prometheus_error(
    conf, server
):
    conf.set_override("prometheus_url", server + "/broken", "pm")
    with pytest.raises(prometheus.PrometheusError, match="502 without JSON"):
        prometheus.Prometheus(conf).instant("up")
    conf.set_override("prometheus_url", "http://127.0.0.1:9", "pm")
    conf.set_override("prometheus_timeout", 2.0, "pm")
    with pytest.raises(
        prometheus.PrometheusError,
        match="could not be reached: ConnectionError",
    ):
        prometheus.Prometheus(conf).instant("up")
