"""A real Prometheus reads VNFC metrics from every kind of test VNFC.

The module's Prometheus (fixtures/prometheus.py) discovers its targets
from files, as it will from the ones tacker-ng's conductor writes: the
test exporter's VNFCs (minicloud's fake servers), simulated pods through
the Kubernetes simulator's pod proxy, and Debian's node exporter inside
an SSH test VM's namespace. Values come back exactly as served within
one scrape, and tacker-ng's own measurement PromQL reads them.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest

from tacker_ng.pm import measurements
from tacker_ng.tests.functional.fixtures.prometheus import (
    NODE_EXPORTER,
    require_binary,
)
from tools.simcloud.exporter import client as exporter_client
from tools.simcloud.k8s import podmetrics
from tools.testvms import node_exporter

pytestmark = pytest.mark.timeout(180)
GIB = 1024**3


@pytest.fixture(scope="module")
def exporter() -> Iterator[exporter_client.ExporterControl]:
    with exporter_client.running() as control:
        yield control


def _labels(vnf: str, vnfc: str) -> dict[str, str]:
    return {"vnfInstanceId": vnf, "vnfcId": vnfc}


def test_values_come_back_exactly_as_served(prometheus, exporter):
    vnf = str(uuid.uuid4())
    # Two VNFCs on paths of the exporter's port, one on a port of its own
    # (exactly like a node exporter at host:9100/metrics).
    exporter.put("a-0", {"memory": {"MemTotal": 8 * GIB}})
    exporter.put("a-1", {"cpus": 4})
    exporter.put("a-2", {"listen": "127.0.0.1:0"})
    prometheus.write_targets(
        f"vnf-{vnf}",
        [exporter.target(n, _labels(vnf, n)) for n in ("a-0", "a-1", "a-2")],
    )
    targets = prometheus.wait_targets(3, vnfInstanceId=vnf)
    paths = sorted(t["discoveredLabels"]["__metrics_path__"] for t in targets)
    assert paths == ["/metrics", "/vnfcs/a-0/metrics", "/vnfcs/a-1/metrics"]

    values = {
        "a-0": (8 * GIB, 1 * GIB, 123456789, 7),
        "a-1": (16 * GIB, 12 * GIB, 0, 0),
        "a-2": (2 * GIB, 1536 * 1024**2, 2**40 + 1, 99),
    }
    for n, (total, avail, rx, tx_packets) in values.items():
        exporter.patch(
            n,
            {
                "memory": {"MemTotal": total, "MemAvailable": avail},
                "network": {
                    "eth0": {
                        "receive_bytes": rx,
                        "transmit_packets": tx_packets,
                    }
                },
                "filesystems": {"/": {"size": 40 * GIB, "avail": avail}},
            },
        )
    changed = time.time()
    prometheus.wait_scraped(changed, vnfInstanceId=vnf)
    sel = f'{{vnfInstanceId="{vnf}"}}'
    by = ("vnfcId",)
    assert prometheus.values(f"node_memory_MemTotal_bytes{sel}", by) == {
        (n,): v[0] for n, v in values.items()
    }
    assert prometheus.values(f"node_memory_MemAvailable_bytes{sel}", by) == {
        (n,): v[1] for n, v in values.items()
    }
    rx = prometheus.values(
        f'node_network_receive_bytes_total{{device="eth0",'
        f'vnfInstanceId="{vnf}"}}',
        by,
    )
    assert rx == {(n,): v[2] for n, v in values.items()}
    fs = prometheus.values(
        f'node_filesystem_avail_bytes{{mountpoint="/",vnfInstanceId="{vnf}"}}',
        by,
    )
    assert fs == {(n,): v[1] for n, v in values.items()}
    cpus = prometheus.values(
        f'count by (vnfcId) (node_cpu_seconds_total{{mode="idle",'
        f'vnfInstanceId="{vnf}"}})',
        by,
    )
    assert cpus == {("a-0",): 2, ("a-1",): 4, ("a-2",): 2}

    # A change is read back after the next scrape, not later.
    exporter.patch("a-1", {"memory": {"MemAvailable": 4 * GIB}})
    changed = time.time()
    prometheus.wait_scraped(changed, vnfcId="a-1", vnfInstanceId=vnf)
    assert prometheus.value(
        f'node_memory_MemAvailable_bytes{{vnfcId="a-1",vnfInstanceId="{vnf}"}}'
    ) == (4 * GIB)

    # Removing the target file removes the targets.
    prometheus.remove_targets(f"vnf-{vnf}")
    prometheus.wait_targets(0, vnfInstanceId=vnf)
    for n in values:
        exporter.delete(n)


def test_measurement_table_reads_the_test_exporter(prometheus, exporter):
    """The PM measurement table's own PromQL (VCpuUsageMeanVnf,
    VMemoryUsageMeanVnf, VDiskUsageMeanVnf) over the test exporter."""
    vnf = str(uuid.uuid4())
    exporter.put(
        "m-0",
        {
            "cpu_busy": 0.25,
            "memory": {"MemTotal": 8 * GIB, "MemAvailable": 2 * GIB},
            "filesystems": {"/": {"size": 10 * GIB, "avail": 4 * GIB}},
        },
    )
    prometheus.write_targets(
        f"vnf-{vnf}", [exporter.target("m-0", _labels(vnf, "m-0"))]
    )
    prometheus.wait_targets(1, vnfInstanceId=vnf)

    def measured(name: str) -> float | None:
        query = measurements.render(
            measurements.DEFAULTS[name].query, [vnf], 3
        )
        return prometheus.value(query)

    # Constant gauges: exact once the window holds only the set values.
    prometheus.wait_value(
        measurements.render(
            measurements.DEFAULTS["VMemoryUsageMeanVnf"].query, [vnf], 3
        ),
        lambda v: v == 75.0,
    )
    assert measured("VDiskUsageMeanVnf") == 60.0
    # A counter advancing at 0.75 idle seconds per second: 25 % busy,
    # up to the jitter between scrape times and rendering times (the
    # first window also holds the counter before cpu_busy was set).
    cpu_query = measurements.render(
        measurements.DEFAULTS["VCpuUsageMeanVnf"].query, [vnf], 3
    )
    prometheus.wait_value(
        cpu_query, lambda v: v is not None and abs(v - 25.0) < 1.5
    )
    assert measured("VCpuUsageMeanVnf") == pytest.approx(25.0, abs=1.5)
    prometheus.remove_targets(f"vnf-{vnf}")
    exporter.delete("m-0")


def test_simulated_pod_metrics_through_the_pod_proxy(prometheus, simk8s):
    from kubernetes import client as k8s

    vnf = str(uuid.uuid4())
    pod_name = f"vdu-{vnf[:8]}"
    with simk8s.api_client() as api_client:
        core = k8s.CoreV1Api(api_client)
        core.create_namespaced_pod(
            "default",
            {
                "metadata": {"name": pod_name},
                "spec": {
                    "containers": [
                        {
                            "name": "app",
                            "image": "nginx",
                            "resources": {
                                "limits": {"cpu": "1500m", "memory": "1Gi"}
                            },
                        }
                    ]
                },
            },
        )
        deadline = time.monotonic() + 60
        while core.read_namespaced_pod(pod_name, "default").status.phase != (
            "Running"
        ):
            assert time.monotonic() < deadline, "pod never Running"
            time.sleep(0.2)
        prometheus.add_job(
            "pods",
            scheme="https",
            tls_config={"ca_file": simk8s.ca_path},
            authorization={
                "credentials_file": str(simk8s.state_dir / "token")
            },
        )
        netloc = simk8s.endpoint.split("://", 1)[1]
        prometheus.write_targets(
            pod_name,
            [
                {
                    "targets": [netloc],
                    "labels": {
                        **_labels(vnf, pod_name),
                        "__metrics_path__": podmetrics.proxy_path(
                            "default", pod_name
                        ),
                    },
                }
            ],
            job="pods",
        )
        prometheus.wait_targets(1, job="pods", vnfInstanceId=vnf)
        sel = f'{{vnfInstanceId="{vnf}",vnfcId="{pod_name}"}}'
        # From the pod's spec: 2 CPUs (1.5 rounded up), 1 GiB.
        assert prometheus.value(f"node_memory_MemTotal_bytes{sel}") == GIB
        assert (
            prometheus.value(
                f'count(node_cpu_seconds_total{{mode="idle",'
                f'vnfcId="{pod_name}"}})'
            )
            == 2
        )
        simk8s.control.pod_metrics(
            "default", pod_name, {"memory": {"MemAvailable": 256 * 1024**2}}
        )
        changed = time.time()
        prometheus.wait_scraped(changed, job="pods", vnfInstanceId=vnf)
        assert prometheus.value(f"node_memory_MemAvailable_bytes{sel}") == (
            256 * 1024**2
        )
        # The pod goes away: the proxy answers 404, the target goes down.
        core.delete_namespaced_pod(pod_name, "default", grace_period_seconds=0)
        prometheus.wait_targets(
            1, health="down", job="pods", vnfInstanceId=vnf
        )
        prometheus.remove_targets(pod_name, job="pods")


def test_node_exporter_in_a_test_vm(prometheus, sshd_factory):
    """Debian's node exporter in an SSH test VM's network namespace,
    scraped at the VM's address like a real VM's."""
    require_binary(NODE_EXPORTER, "prometheus-node-exporter")
    vm = sshd_factory(start=False)
    exporter = node_exporter.start(vm.name, vm.address)
    try:
        vnf = str(uuid.uuid4())
        prometheus.write_targets(
            f"vnf-{vnf}",
            [{"targets": [exporter.target], "labels": _labels(vnf, "vm-0")}],
        )
        [target] = prometheus.wait_targets(1, vnfInstanceId=vnf)
        assert target["scrapeUrl"] == f"http://{vm.address}:9100/metrics"
        sel = f'vnfInstanceId="{vnf}"'
        # The namespace's own network device, as the VM's eth0 would be.
        devices = prometheus.values(
            f"node_network_receive_bytes_total{{{sel}}}", ("device",)
        )
        assert (f"tsh{vm.name.rsplit('-', 1)[-1]}n",) in devices
        total = prometheus.value(f"node_memory_MemTotal_bytes{{{sel}}}")
        avail = prometheus.value(f"node_memory_MemAvailable_bytes{{{sel}}}")
        assert total and avail is not None and 0 < avail < total
        # The same measurement PromQL as for the test exporter.
        used = prometheus.wait_value(
            measurements.render(
                measurements.DEFAULTS["VMemoryUsageMeanVnf"].query, [vnf], 3
            ),
            lambda v: v is not None,
        )
        assert 0 < used < 100
        prometheus.remove_targets(f"vnf-{vnf}")
    finally:
        exporter.stop()
