"""The test exporter's model: node-exporter series, settable values."""

import pytest

from tools.simcloud.exporter import nodemetrics, server
from tools.simcloud.k8s import podmetrics


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _series(text: str) -> dict[str, str]:
    return {
        line.rsplit(" ", 1)[0]: line.rsplit(" ", 1)[1]
        for line in text.splitlines()
        if not line.startswith("#")
    }


def test_render_is_node_exporter_shaped_with_exact_values():
    metrics = nodemetrics.NodeMetrics(Clock())
    metrics.apply(
        {
            "cpus": 1,
            "memory": {"MemTotal": 8 * 1024**3, "MemAvailable": 1.5},
            "network": {"ens3": {"receive_bytes": 2**53 + 2}},
        }
    )
    text = metrics.render()
    series = _series(text)
    assert series["node_memory_MemTotal_bytes"] == "8589934592"
    assert series["node_memory_MemAvailable_bytes"] == "1.5"
    assert series['node_network_receive_bytes_total{device="ens3"}'] == (
        repr(float(2**53 + 2))
    )
    assert (
        'node_filesystem_avail_bytes{device="/dev/vda1",fstype="ext4",'
        'mountpoint="/"}' in series
    )
    assert "# TYPE node_cpu_seconds_total counter" in text
    assert "# TYPE node_memory_MemTotal_bytes gauge" in text
    assert {k for k in series if k.startswith("node_cpu")} == {
        f'node_cpu_seconds_total{{cpu="0",mode="{m}"}}'
        for m in nodemetrics.CPU_MODES
    }


def test_counters_advance_at_their_rate_and_keep_their_value():
    clock = Clock()
    metrics = nodemetrics.NodeMetrics(clock)
    metrics.apply({"cpu_busy": 0.25, "cpu_seconds": {"idle": 100}})
    clock.now += 10
    snap = metrics.snapshot()
    assert snap["cpu_seconds"]["idle"] == 107.5
    assert snap["cpu_seconds"]["user"] == 500 + 2.5
    # A new rate starts from the value reached, never jumps back.
    metrics.apply({"cpu_busy": 1})
    clock.now += 10
    snap = metrics.snapshot()
    assert snap["cpu_seconds"]["idle"] == 107.5
    assert snap["cpu_seconds"]["user"] == 512.5
    metrics.apply({"network_rates": {"eth0": {"transmit_bytes": 100}}})
    clock.now += 2
    assert metrics.snapshot()["network"]["eth0"]["transmit_bytes"] == 200


@pytest.mark.parametrize(
    "spec",
    [
        {"cpus": 0},
        {"cpu_busy": 2},
        {"cpu_seconds": {"turbo": 1}},
        {"memory": {"MemTotal": -1}},
        {"memory": {"Swap": 1}},
        {"filesystems": {"relative": {"size": 1}}},
        {"network": {"eth0": {"receive_bytes": "x"}}},
        {"colour": "blue"},
    ],
)
def test_invalid_specs_change_nothing(spec):
    metrics = nodemetrics.NodeMetrics(Clock())
    before = metrics.snapshot()
    with pytest.raises(nodemetrics.InvalidSpec):
        metrics.apply({"memory": {"MemTotal": 1}, **spec})
    assert metrics.snapshot() == before


def test_filesystems_and_devices_are_added_and_removed():
    metrics = nodemetrics.NodeMetrics(Clock())
    metrics.apply(
        {
            "filesystems": {"/data": {"size": 10, "avail": 5}, "/": None},
            "network": {"eth0": None, "eth1": {"receive_packets": 3}},
        }
    )
    series = _series(metrics.render())
    assert (
        series[
            'node_filesystem_size_bytes{device="/dev/vdb",fstype="ext4",'
            'mountpoint="/data"}'
        ]
        == "10"
    )
    assert not [k for k in series if 'mountpoint="/"' in k]
    assert series['node_network_receive_packets_total{device="eth1"}'] == "3"
    assert not [k for k in series if 'device="eth0"' in k]


def test_exporter_serves_each_vnfc_on_its_path_and_own_port():
    import requests

    with server.serving() as (url, exporter):
        created = requests.put(
            f"{url}/control/vnfcs/VDU1-0",
            json={"memory": {"MemTotal": 42}, "listen": "127.0.0.1:0"},
            timeout=5,
        )
        assert created.status_code == 201
        state = created.json()
        own = requests.get(f"http://{state['address']}/metrics", timeout=5)
        shared = requests.get(f"{url}{state['path']}", timeout=5)
        for resp in (own, shared):
            assert resp.headers["Content-Type"].startswith(
                "text/plain; version=0.0.4"
            )
            assert "node_memory_MemTotal_bytes 42\n" in resp.text
        bad = requests.patch(
            f"{url}/control/vnfcs/VDU1-0", json={"cpus": -1}, timeout=5
        )
        assert bad.status_code == 400
        assert (
            requests.get(f"{url}/control/vnfcs/VDU1-0", timeout=5).json()[
                "scrapes"
            ]
            == 2
        )
        assert (
            requests.patch(f"{url}/control/vnfcs/nope", json={}, timeout=5)
        ).status_code == 404
        assert (
            requests.delete(f"{url}/control/vnfcs/VDU1-0", timeout=5)
        ).status_code == 204
        assert requests.get(
            f"{url}{state['path']}", timeout=5
        ).status_code == (404)


@pytest.mark.parametrize(
    ("segment", "name"),
    [
        ("web-0", "web-0"),
        ("web-0:9100", "web-0"),
        ("https:web-0:9100", "web-0"),
        ("http:web-0", "web-0"),
    ],
)
def test_pod_proxy_names(segment, name):
    assert podmetrics._pod_name(segment) == name


def test_pod_values_start_from_its_spec():
    pod = {
        "metadata": {"uid": "u1"},
        "spec": {
            "containers": [
                {"resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}},
                {"resources": {"limits": {"cpu": "2", "memory": "512Mi"}}},
            ]
        },
    }
    values = podmetrics.PodMetrics().of(pod).snapshot()
    assert values["cpus"] == 3
    assert values["memory"]["MemTotal"] == 1.5 * 1024**3
