"""SOL003 VNF performance management on minicloud: a VNF on real Heat and
Nova, its servers discovered by tacker-ng's observer from Nova's own
listing, scraped by a real Prometheus at their addresses.

tacker-ng-api + one conductor (RabbitMQ, MariaDB), the spec's VNF (4
servers) on minicloud. Minicloud's servers are fake, so each server's
address is given to a network namespace of its own (a test VM,
:mod:`tools.testvms.sshd_host`, without sshd) where the test exporter
serves that VNFC's node-exporter series on ``<address>:9100``, as a node
exporter in a VM would:

* the observer writes ``openstack/<vnfInstanceId>.json`` with one target
  per server at its Nova address, labelled with the VNF and VNFC ids;
* a PM job on VMemoryUsageMeanVnf and VCpuUsageMeanVnf: the report has
  an entry per VNFC and metric with the values the exporters served.
"""

from __future__ import annotations

import contextlib
import json

import pytest

from tacker_ng.packages import builder
from tacker_ng.pm import measurements
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.openstack import env
from tacker_ng.tests.functional.openstack.conftest import IMAGE
from tacker_ng.tests.functional.receiver import Receiver
from tools.simcloud.exporter import client as exporter_client
from tools.testvms import sshd_host

pytestmark = pytest.mark.minicloud
TIMEOUT = 420
PM = {"Version": "2.1.0"}
GIB = 1 << 30
COLLECT = 5
REPORT = 10
#: Longest wait for what takes seconds on an idle machine.
WAIT = 90


@pytest.fixture(scope="module")
def pm_nfvo(cloud, prometheus, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pm-openstack")
    src = env.spec_package_source(tmp / "src", IMAGE)
    prometheus.add_job("openstack")
    extra = {
        "convergence": {"observe_interval": 2},
        "pm": {
            "prometheus_url": prometheus.url,
            "file_sd_dir": str(prometheus.sd_dir),
            "collect_interval": 1,
            "min_collection_period": 1,
        },
    }
    with (
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(
            tmp,
            sql_url,
            conductors=("cond-a",),
            extra=cloud.tacker_conf(extra),
            api_workers=1,
        ) as dep,
        Receiver() as receiver,
    ):
        pkg = lcm_fixtures.onboard_via_api(
            dep, builder.build_csar_bytes(src), timeout=120
        )
        assert pkg["onboardingState"] == "ONBOARDED", pkg
        yield dep, dep.client(), pkg["vnfdId"], receiver


@contextlib.contextmanager
def _vms(targets: dict[str, str]):
    """A namespace per server address with the test exporter serving the
    VNFC there on port 9100: VNFC id -> its ExporterControl."""
    with contextlib.ExitStack() as stack:
        out = {}
        for vnfc, address in targets.items():
            host = sshd_host.create(
                start=False, address=address, name_prefix="tngpm"
            )
            stack.callback(host.destroy)
            control = stack.enter_context(
                exporter_client.running(
                    "--bind", address, "--port", "9101", netns=host.name
                )
            )
            control.put(vnfc, {"listen": f"{address}:9100"})
            out[vnfc] = control
        yield out


def test_reports_from_exporters_at_the_servers_addresses(
    pm_nfvo, prometheus, cloud
):
    dep, client, vnfd_id, receiver = pm_nfvo
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": vnfd_id, "vimConnectionInfo": env.vim_connection(cloud)},
    )
    assert resp.status_code == 201, resp.text
    vnf_id = resp.json()["id"]
    occ = client.wait(
        client.start(
            vnf_id,
            "instantiate",
            {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)},
        ),
        ("COMPLETED", "FAILED_TEMP"),
        timeout=TIMEOUT,
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    info = client.get(f"/vnflcm/v2/vnf_instances/{vnf_id}").json()
    vnfcs = {v["id"] for v in info["instantiatedVnfInfo"]["vnfcResourceInfo"]}
    assert len(vnfcs) == 4

    # The observer's target file: each server at its Nova address.
    sd_file = prometheus.sd_dir / "openstack" / f"{vnf_id}.json"
    procs.wait_for(sd_file.exists, WAIT, "the VNF's target file")
    groups = json.loads(sd_file.read_text())
    targets = {
        g["labels"]["vnfcId"]: g["targets"][0].rsplit(":", 1)[0]
        for g in groups
    }
    assert set(targets) == vnfcs
    assert all(g["targets"][0].endswith(":9100") for g in groups)
    assert {g["labels"]["vnfInstanceId"] for g in groups} == {vnf_id}
    with _vms(targets) as exporters:
        for n, (vnfc, control) in enumerate(sorted(exporters.items())):
            control.patch(
                vnfc,
                {
                    "cpu_busy": 0.25,
                    "memory": {
                        "MemTotal": 8 * GIB,
                        "MemAvailable": (2 + n) * GIB,
                    },
                },
            )
        expected = {
            vnfc: 100 * (1 - (2 + n) / 8)
            for n, vnfc in enumerate(sorted(exporters))
        }
        prometheus.wait_targets(
            4, timeout=WAIT, job="openstack", vnfInstanceId=vnf_id
        )
        memory = (
            "100 * (1 - avg_over_time(node_memory_MemAvailable_bytes"
            f'{{vnfInstanceId="{vnf_id}"}}[{COLLECT}s]) / '
            "avg_over_time(node_memory_MemTotal_bytes"
            f'{{vnfInstanceId="{vnf_id}"}}[{COLLECT}s]))'
        )
        cpu = measurements.render(
            measurements.DEFAULTS["VCpuUsageMeanVnf"].query, [vnf_id], COLLECT
        )

        def settled() -> bool:
            mem = prometheus.values(memory, by=("vnfcId",))
            busy = prometheus.values(cpu, by=("vnfcId",)).values()
            return (
                {k[0]: v for k, v in mem.items()} == expected
                and len(busy) == 4
                and all(abs(v - 25) < 1 for v in busy)
            )

        procs.wait_for(settled, WAIT, "a collection period of the set values")
        job = client.post(
            "/vnfpm/v2/pm_jobs",
            {
                "objectType": "Vnf",
                "objectInstanceIds": [vnf_id],
                "criteria": {
                    "performanceMetric": [
                        "VMemoryUsageMeanVnf",
                        "VCpuUsageMeanVnf",
                    ],
                    "collectionPeriod": COLLECT,
                    "reportingPeriod": REPORT,
                },
                "callbackUri": receiver.url,
            },
            headers=PM,
            validate=False,
        )
        assert job.status_code == 201, job.text
        job_id = job.json()["id"]

        def ready():
            return [
                n
                for n in list(receiver.notifications)
                if n.get("pmJobId") == job_id
            ]

        (note,) = procs.wait_for(ready, REPORT + WAIT, "the report")
        href = note["_links"]["performanceReport"]["href"]
        report = client.get(
            href.split(dep.url, 1)[1], headers=PM, validate=False
        )
        assert report.status_code == 200, report.text
        entries = report.json()["entries"]
    by = {
        (e["subObjectInstanceId"], e["performanceMetric"]): [
            v["value"] for v in e["performanceValues"]
        ]
        for e in entries
    }
    assert set(by) == {
        (v, m)
        for v in vnfcs
        for m in ("VMemoryUsageMeanVnf", "VCpuUsageMeanVnf")
    }
    for vnfc in vnfcs:
        assert by[(vnfc, "VMemoryUsageMeanVnf")] == [expected[vnfc]] * 2
        # 0.25 s of user time per second per CPU: 25 % busy.
        for value in by[(vnfc, "VCpuUsageMeanVnf")]:
            assert value == pytest.approx(25.0, abs=1.0)
    occ = client.wait(
        client.start(vnf_id, "terminate", {"terminationType": "FORCEFUL"}),
        ("COMPLETED", "FAILED_TEMP"),
        timeout=TIMEOUT,
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    procs.wait_for(lambda: not sd_file.exists(), WAIT, "the target removed")
