"""tacker-ng-api's workers share their counts: a scrape of any one of
them (or of the master's listener) sees every worker's requests."""

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import os, sys
    from prometheus_client import generate_latest
    from tacker_ng.metrics import api_requests, routes

    # Imported (and a value store picked) before the switch, as in
    # tacker-ng-api, whose modules import prometheus-client first.
    api_requests.use_multiprocess_dir(sys.argv[1])
    templates = routes.RouteTemplates(["/vnflcm/v2/vnf_instances"])

    def app(environ, start_response):
        start_response("200 OK", [])
        return [b""]

    counted = api_requests.RequestMetrics(app, templates)
    for worker in range(3):
        if os.fork() == 0:  # a gunicorn worker
            for _ in range(worker + 1):
                counted({"REQUEST_METHOD": "GET",
                         "PATH_INFO": "/vnflcm/v2/vnf_instances"},
                        lambda *a: None)
            os._exit(0)
        os.wait()
    sys.stdout.write(generate_latest(api_requests.registry()).decode())
    """
)


def test_worker_counts_add_up(tmp_path):
    stale = tmp_path / "counter_1.db"
    stale.write_bytes(b"left by an earlier run")
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    line = (
        'tacker_ng_api_requests_total{method="GET",'
        'route="/vnflcm/v2/vnf_instances",status="200"} 6.0'
    )
    assert line in out, out
    assert not stale.exists()
