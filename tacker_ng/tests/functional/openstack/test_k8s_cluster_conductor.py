"""The Kubernetes-cluster VNF driven by the real conductor (issue #14).

tacker-ng-api + one conductor (real processes, RabbitMQ, MariaDB) with
the k8s_cluster sample onboarded through the package API; an NFVO that
leaves placement to the VIM (its grants name no zone: Nova's
anti-affinity server group spreads the VMs over compute hosts); a VIM
user that reads ``OS-EXT-SRV-ATTR:host`` (admin). Nothing in the test
calls a hook: the conductor runs the MgmtDriver's. The VMs "boot" in a
thread of the test (:mod:`.k8s_cluster_boot`) while the conductor's
``instantiate_end`` hook is already retrying SSH with backoff.

Through the SOL003 API: instantiate three masters and two workers with
VNFM-made host keys for both VDUs -> 5 servers on 5 hosts, etcd of 3,
HAProxy on every VM, workers labelled with their host, the cluster's VIM
shown on the instance and usable by vimId alone (a CNF instantiated on
it); a heal of masterNode-0 (the master kubeadm init ran on: the
control-plane endpoint names no master, so its new VM joins through the
others) -> a new etcd member, HAProxy on every VM in front of the three
masters, nodes and zone labels as before, the op occ's VNFC saying its
node was drained; a heal of a worker whose kubelet is dead (simk8s
fault) -> its pods stay Terminating, the drain gives up after
``drainTimeout`` and force-deletes them, and the op occ names them; a
scale out whose new worker never answers SSH -> FAILED_TEMP naming its
address, rollback -> ROLLED_BACK; a scale out that keeps every existing
server (both VDUs keyed: the case that replaced masterNode-0); the CNF
on the cluster's VIM is served throughout (its pods recreated on live
workers, scaled out at the end); terminate -> no server left, the VIM
withdrawn.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time

import pytest

from tacker_ng.infra.openstack import host_keys
from tacker_ng.mgmt.kubernetes_cluster import driver
from tacker_ng.packages import builder
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional.fake_nfvo import FakeNfvo
from tacker_ng.tests.functional.infra.kubernetes import cnf
from tacker_ng.tests.functional.openstack import conftest, env, k8s_env
from tacker_ng.tests.functional.openstack import k8s_cluster_env as kenv
from tacker_ng.tests.functional.openstack.k8s_cluster_boot import Boot
from tools.testvms import bodies as vm_bodies

# Measured on this 2-core machine beside other test sessions: 230-237 s
# before the heals were added (the story 212-214 s, instantiate 80-82 s);
# with the two heals, on a busier machine (instantiate 126 s, Heat's
# updates 50-80 s each), the story took 651 s, of which the heals 158 s.
# The timeout is about twice.
pytestmark = [pytest.mark.minicloud, pytest.mark.timeout(1300)]
TIMEOUT = 420
ZONE = "kubernetes.io/zone"
ATTEMPTS = 6
SSH = {
    "connect_attempts": ATTEMPTS,
    "connect_timeout": 2.0,
    "retry_initial_delay": 0.5,
    "retry_max_delay": 2.0,
}
MASTERS = ("masterNode-0", "masterNode-1", "masterNode-2")
K8S_VIM = "ETSINFV.KUBERNETES.V_1"


@pytest.fixture(scope="module")
def login():
    return kenv.new_login()


@pytest.fixture
def world(login):
    with kenv.k8s_world(login) as (sim, bodies):
        yield sim, bodies


@pytest.fixture
def vnfm(cloud, tmp_path):
    """(deployment, SOL003 client, cluster vnfdId, CNF vnfdId)."""
    src = tmp_path / "pkg"
    src.mkdir()
    k8s_env.package(src, conftest.IMAGE)
    extra = {
        "mgmt_ssh": SSH,
        "kubernetes": cnf.KUBERNETES_OPTS,
    }
    with FakeNfvo("vnfm", "s3cret", []) as nfvo:
        extra["nfvo"] = lcm_fixtures.remote_nfvo(nfvo)
        with (
            services.scratch_database("mariadb") as sql_url,
            deployment.deploy(
                tmp_path,
                sql_url,
                conductors=("cond-a",),
                extra=cloud.tacker_conf(extra),
            ) as dep,
        ):
            ids = []
            for data in (
                builder.build_csar_bytes(src / "src"),
                builder.build_csar_bytes(cnf.SAMPLE),
            ):
                pkg = lcm_fixtures.onboard_via_api(dep, data, timeout=120)
                assert pkg["onboardingState"] == "ONBOARDED", pkg
                ids.append(pkg["vnfdId"])
            yield dep, dep.client(), *ids


def _vim(cloud) -> dict:
    """minicloud's admin: the hooks read each server's compute host."""
    vims = env.vim_connection(cloud)
    auth = cloud.admin_auth
    vims["vim1"]["accessInfo"].update(
        username=auth["username"],
        password=auth["password"],
        project=auth["project_name"],
        projectDomain=auth["project_domain_name"],
        userDomain=auth["user_domain_name"],
    )
    return vims


def _params(login) -> dict:
    params = login.params()
    params[host_keys.PARAM] = ["masterNode", "workerNode"]
    return params


def _wait(client, occ_id: str) -> dict:
    return client.wait(
        occ_id, ("COMPLETED", "FAILED_TEMP", "ROLLED_BACK"), timeout=TIMEOUT
    )


def _run(client, inst_id: str, task: str, body: dict) -> dict:
    occ = _wait(client, client.start(inst_id, task, body))
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    return occ


def _instance(client, inst_id: str) -> dict:
    return client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()


def _servers(client, inst_id: str) -> dict[str, str]:
    """VNFC resource name -> server id."""
    info = _instance(client, inst_id)["instantiatedVnfInfo"]
    return {
        v["metadata"]["stackResource"]: v["computeResource"]["resourceId"]
        for v in info["vnfcResourceInfo"]
    }


def _hosts(cloud, servers: dict[str, str]) -> dict[str, str]:
    nova = cloud.nova(admin=True)
    return {
        name: getattr(nova.servers.get(sid), "OS-EXT-SRV-ATTR:host")
        for name, sid in servers.items()
    }


def _nodes(sim) -> dict[str, dict]:
    out = json.loads(sim.kubectl("get", "nodes", "-o", "json").stdout)
    return {n["metadata"]["name"]: n for n in out["items"]}


def _node(vnfc: str) -> str:
    return vnfc.lower().replace("_", "-")


def _check_nodes(cloud, sim, servers: dict[str, str]) -> None:
    """One node per VNFC; each worker labelled with its compute host."""
    hosts = _hosts(cloud, servers)
    nodes = _nodes(sim)
    assert set(nodes) == {_node(n) for n in servers}
    labels = {
        _node(n): nodes[_node(n)]["metadata"]["labels"].get(ZONE)
        for n in servers
        if n.startswith("workerNode")
    }
    assert labels == {
        _node(n): h for n, h in hosts.items() if n.startswith("workerNode")
    }


def _etcd_members(boot: Boot, server_id: str) -> list[tuple[str, list]]:
    body = boot.body_of(server_id)
    pki = body.host.workdir / "home" / "sysconf" / "etcd" / "pki"
    proc = subprocess.run(
        ["ip", "netns", "exec", body.host.name, "etcdctl",
         "--endpoints", "https://127.0.0.1:2379",
         "--cacert", str(pki / "ca.crt"), "--cert", str(pki / "member.crt"),
         "--key", str(pki / "member.key"),
         "member", "list", "-w", "json"],
        capture_output=True, text=True, check=False,
        env=dict(os.environ, ETCDCTL_API="3"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return sorted(
        (m.get("name", ""), m["peerURLs"])
        for m in json.loads(proc.stdout)["members"]
    )


def _cnf_on(client, cnf_vnfd: str, sim, vim_id: str) -> cnf.Cnf:
    """A CNF instantiated on the cluster's VIM named by vimId only."""
    ref = {"vimId": vim_id, "vimType": K8S_VIM}
    vnf_b = cnf.Cnf(client, cnf_vnfd, sim, vim_info={"cluster": ref})
    vnf_b.run("instantiate", vnf_b.instantiate_body("instantiation_level_1"))
    nodes = {v["metadata"]["nodeName"] for v in vnf_b.vnfcs()}
    assert nodes and nodes <= set(_nodes(sim))
    return vnf_b


def _cnf_served(sim, vnf_b: cnf.Cnf, pods: int) -> dict[str, str]:
    """The CNF's ``pods`` pods all Ready on live nodes (their controllers
    recreated any that a drain removed): pod name -> node."""
    deadline = time.monotonic() + 60
    while True:
        live = set(_nodes(sim))
        ready = {
            name: p.spec.node_name
            for name, p in vnf_b.pods().items()
            if p.spec.node_name in live
            and any(
                c.type == "Ready" and c.status == "True"
                for c in p.status.conditions or []
            )
        }
        if len(ready) == pods:
            return ready
        if time.monotonic() > deadline:
            shown = sim.kubectl("get", "pods,nodes", "-A", "-o", "wide")
            pytest.fail(f"CNF not served: {ready}\n{shown.stdout}")
        time.sleep(0.5)


def _haproxy_backends(boot: Boot, server_id: str) -> list[str]:
    """The master addresses HAProxy of that VM forwards to (after
    ``haproxy -c`` passed on its configuration)."""
    body = boot.body_of(server_id)
    cfg = body.host.workdir / "home" / "sysconf" / "haproxy" / "haproxy.cfg"
    proc = subprocess.run(
        ["ip", "netns", "exec", body.host.name, "haproxy", "-c", "-f",
         str(cfg)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return sorted(re.findall(r"^\s+server \S+ (\S+):6443", cfg.read_text(),
                             re.M))  # fmt: skip


def _check_masters(boot: Boot, servers: dict[str, str]) -> list:
    """etcd: one member per master, on its address, as every master sees
    it; HAProxy on every VM in front of exactly the three masters."""
    addresses = {m: boot.body_of(servers[m]).host.address for m in MASTERS}
    want = sorted(
        (_node(m), [f"https://{a}:2380"]) for m, a in addresses.items()
    )
    for m in MASTERS:
        assert _etcd_members(boot, servers[m]) == want
    for name, server_id in servers.items():
        assert _haproxy_backends(boot, server_id) == sorted(
            addresses.values()
        ), name
    return want


def _drain_note(occ: dict, vnfc_id: str) -> dict:
    """The op occ's word on how the VNFC's node was drained."""
    (item,) = [
        v
        for v in occ["resourceChanges"]["affectedVnfcs"]
        if v["id"] == vnfc_id
    ]
    assert item["changeType"] == "MODIFIED", item
    return item["metadata"]["nodeDrain"]


def _vnfc_id(client, inst_id: str, name: str) -> str:
    info = _instance(client, inst_id)["instantiatedVnfInfo"]
    (vnfc,) = [
        v
        for v in info["vnfcResourceInfo"]
        if v["metadata"]["stackResource"] == name
    ]
    return vnfc["id"]


def test_conductor_runs_the_cluster_hooks(cloud, vnfm, world, login):
    dep, client, vnfd_id, cnf_vnfd = vnfm
    sim, bodies = world
    cloud.free_all()
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": vnfd_id, "vimConnectionInfo": _vim(cloud)},
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    boot = Boot(cloud, f"vnf-{inst_id}", bodies)
    boot.start()
    try:
        _story(cloud, client, sim, boot, login, inst_id, cnf_vnfd)
    finally:
        _clean_up(client, inst_id)
        boot.stop()


def _clean_up(client, inst_id: str) -> None:
    """Terminate what a failed story left (a FAILED_TEMP op occ is
    failed first); the session's minicloud reset removes anything else."""
    resp = client.get("/vnflcm/v2/vnf_lcm_op_occs", validate=False)
    for occ in resp.json() if resp.status_code == 200 else []:
        if (
            occ["vnfInstanceId"] == inst_id
            and occ["operationState"] == "FAILED_TEMP"
        ):
            client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ['id']}/fail")
    if _instance(client, inst_id)["instantiationState"] != "INSTANTIATED":
        return
    resp = client.post(
        f"/vnflcm/v2/vnf_instances/{inst_id}/terminate",
        {"terminationType": "FORCEFUL"},
    )
    if resp.status_code == 202:
        _wait(client, resp.headers["Location"].rsplit("/", 1)[1])


def _story(cloud, client, sim, boot, login, inst_id, cnf_vnfd) -> None:
    started = time.monotonic()
    _run(
        client,
        inst_id,
        "instantiate",
        {
            "flavourId": k8s_env.FLAVOUR,
            "instantiationLevelId": "instantiation_level_3",
            "extVirtualLinks": k8s_env.ext_links(cloud),
            "additionalParams": _params(login),
        },
    )
    print(f"instantiate: {time.monotonic() - started:.0f}s")
    servers = _servers(client, inst_id)
    assert sorted(servers) == [*MASTERS, "workerNode-0", "workerNode-1"]
    hosts = _hosts(cloud, servers)
    assert len(set(hosts.values())) == 5, hosts
    _check_nodes(cloud, sim, servers)
    # etcd: one member per master, on its address, as every master sees
    # it; HAProxy on every VM (the control-plane endpoint is each node's
    # own, 127.0.0.1:8383) in front of the three masters.
    _check_masters(boot, servers)

    # The conductor recorded the cluster's VIM: the instance shows it (no
    # secret) and a CNF runs on it named by vimId only.
    vim_id = driver.vim_id_of(inst_id)
    shown = _instance(client, inst_id)["vimConnectionInfo"]
    assert shown[vim_id]["vimType"] == K8S_VIM
    assert shown[vim_id]["interfaceInfo"] == {"endpoint": sim.endpoint}
    assert "accessInfo" not in shown[vim_id]
    vnf_b = _cnf_on(client, cnf_vnfd, sim, vim_id)

    # Heals while a compute host is free (5 VMs on 6 hosts): Heat creates
    # the replacement before it deletes the server, and the server group
    # is anti-affine.
    _heal_first_master(cloud, client, sim, boot, login, inst_id, servers)
    _heal_dead_worker(cloud, client, sim, boot, login, inst_id, vnf_b)
    servers = _servers(client, inst_id)
    print(f"heals: {time.monotonic() - started:.0f}s")

    # SSH unreachable: the new worker boots without a body. The hook
    # retries, then the op occ is FAILED_TEMP naming its address; the
    # rollback removes the new server, the cluster is as it was.
    nodes_before = set(_nodes(sim))
    scale = {
        "type": "SCALE_OUT",
        "aspectId": "worker_instance",
        "additionalParams": _params(login),
    }
    boot.embody_new = False
    try:
        occ = _wait(client, client.start(inst_id, "scale", scale))
        assert occ["operationState"] == "FAILED_TEMP", occ
        new = set(boot.server_ids()) - set(servers.values())
        (new_id,) = new
        nova = cloud.nova(admin=True)
        address = vm_bodies.fixed_ip(nova.servers.get(new_id))
        error = occ["error"]
        assert error["status"] == 504, error
        assert address in error["detail"], error
        assert f"{ATTEMPTS} attempts" in error["detail"], error
    finally:
        boot.embody_new = True
    resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ['id']}/rollback")
    assert resp.status_code == 202, resp.text
    occ = _wait(client, occ["id"])
    assert occ["operationState"] == "ROLLED_BACK", occ.get("error")
    assert _servers(client, inst_id) == servers
    assert set(boot.server_ids()) == set(servers.values())
    assert set(_nodes(sim)) == nodes_before

    # Scale out with both VDUs keyed: the new worker joins, labelled with
    # its host; every existing server is kept (no replacement).
    _run(client, inst_id, "scale", scale)
    after = _servers(client, inst_id)
    assert {n: after[n] for n in servers} == servers
    assert set(after) - set(servers) == {"workerNode-2"}
    assert len(set(_hosts(cloud, after).values())) == 6
    _check_nodes(cloud, sim, after)

    # The CNF is still served by the cluster: scaled out through its VIM.
    vnf_b.run("scale", {"type": "SCALE_OUT", "aspectId": "vdu1_aspect"})
    _cnf_served(sim, vnf_b, 4)
    vnf_b.run("terminate", {"terminationType": "FORCEFUL"})

    # Terminate: no server left, the VIM withdrawn.
    _run(client, inst_id, "terminate", {"terminationType": "FORCEFUL"})
    assert boot.server_ids() == []
    inst = _instance(client, inst_id)
    assert vim_id not in (inst.get("vimConnectionInfo") or {})
    print(f"story: {time.monotonic() - started:.0f}s")


def _heal_first_master(cloud, client, sim, boot, login, inst_id, servers):
    """POST .../heal of masterNode-0: kubeadm init ran there, yet its new
    VM joins (through its own HAProxy to the two other masters)."""
    members = _check_masters(boot, servers)
    uid = _nodes(sim)["masternode-0"]["metadata"]["uid"]
    address = boot.body_of(servers["masterNode-0"]).host.address
    vnfc_id = _vnfc_id(client, inst_id, "masterNode-0")
    occ = _run(
        client,
        inst_id,
        "heal",
        {"vnfcInstanceId": [vnfc_id], "additionalParams": _params(login)},
    )
    after = _servers(client, inst_id)
    assert after["masterNode-0"] != servers["masterNode-0"]
    assert {n: after[n] for n in after if n != "masterNode-0"} == {
        n: servers[n] for n in servers if n != "masterNode-0"
    }
    # Same port, same address: the same member list (a new member ID).
    assert boot.body_of(after["masterNode-0"]).host.address == address
    assert _check_masters(boot, after) == members
    _check_nodes(cloud, sim, after)
    node = _nodes(sim)["masternode-0"]
    assert node["metadata"]["uid"] != uid
    assert (
        "node-role.kubernetes.io/control-plane" in node["metadata"]["labels"]
    )
    assert _drain_note(occ, vnfc_id) == {
        "node": "masternode-0",
        "result": "EVICTED",
        "evictionTimeout": 120,
    }
    # The VIM is still the cluster's, usable by CNFs.
    shown = _instance(client, inst_id)["vimConnectionInfo"]
    vim_id = driver.vim_id_of(inst_id)
    assert shown[vim_id]["interfaceInfo"] == {"endpoint": sim.endpoint}


def _heal_dead_worker(cloud, client, sim, boot, login, inst_id, vnf_b):
    """POST .../heal of a worker whose kubelet is dead: the drain's
    evictions are never confirmed; after drainTimeout the pods left are
    force-deleted, and the op occ names them."""
    served = _cnf_served(sim, vnf_b, 3)
    victim = sorted(set(served.values()))[0]
    name = next(n for n in _servers(client, inst_id) if _node(n) == victim)
    stuck = sorted(
        f"{vnf_b.namespace}/{p}" for p, n in served.items() if n == victim
    )
    sim.control.kubelet(victim, running=False)
    params = _params(login)
    params["k8sCluster"]["drainTimeout"] = 5
    vnfc_id = _vnfc_id(client, inst_id, name)
    before = _servers(client, inst_id)
    started = time.monotonic()
    occ = _run(
        client,
        inst_id,
        "heal",
        {"vnfcInstanceId": [vnfc_id], "additionalParams": params},
    )
    print(f"heal of {name} (dead kubelet): {time.monotonic() - started:.0f}s")
    note = _drain_note(occ, vnfc_id)
    assert note == {
        "node": victim,
        "result": "FORCED",
        "evictionTimeout": 5,
        "forceDeletedPods": stuck,
    }
    after = _servers(client, inst_id)
    assert after[name] != before[name]
    _check_nodes(cloud, sim, after)
    node = _nodes(sim)[victim]
    ready = next(
        c for c in node["status"]["conditions"] if c["type"] == "Ready"
    )
    assert ready["status"] == "True"  # a new VM, a live kubelet
    _check_masters(boot, after)
    left = _cnf_served(sim, vnf_b, 3)
    assert not set(left) & {p.split("/", 1)[1] for p in stuck}
