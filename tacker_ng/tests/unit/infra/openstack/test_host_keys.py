"""VNFM-made SSH host keys: user data, pin, and where the private key goes."""

import base64
import copy
import dataclasses
import io
import json
import logging
import pathlib

import pytest
import yaml
from cryptography.hazmat.primitives import serialization

from tacker_ng.infra.openstack import errors, host_keys, hot, info
from tacker_ng.infra.openstack.vnfcs import Vnfc, existing
from tacker_ng.mgmt import sshcmd
from tacker_ng.packages import builder, csar

SERVER = {
    "type": "OS::Nova::Server",
    "properties": {"flavor": "f", "image": "i"},
}


def vnfc(vdu="VDU1", index=0):
    return Vnfc(f"id-{vdu}-{index}", vdu, index, None, "f", "i")


def test_generated_key_is_ed25519_and_its_fingerprint_is_openssh_s():
    key = host_keys.generate()
    assert key.public.startswith("ssh-ed25519 ")
    private = serialization.load_ssh_private_key(key.private.encode(), None)
    public = private.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    )
    assert public.decode() == key.public
    blob = base64.b64decode(key.public.split()[1])
    assert key.fingerprint == sshcmd.fingerprint(blob)
    assert key.private not in repr(key)
    assert host_keys.generate().public != key.public


def test_cloud_config_installs_only_this_key():
    key = host_keys.generate()
    text = host_keys.cloud_config(key)
    assert text.startswith("#cloud-config\n")
    doc = yaml.safe_load(text)
    assert doc["ssh_keys"] == {
        "ed25519_private": key.private,
        "ed25519_public": key.public,
    }
    assert doc["ssh_deletekeys"] is True
    assert doc["ssh_genkeytypes"] == []


def test_managed_vdus_from_request_or_vnfd_default():
    vdus = {"VDU1", "VDU2"}
    assert host_keys.managed_vdus(None, None, vdus) == set()
    assert host_keys.managed_vdus(
        {"vnfcSshHostKeys": ["VDU1"]}, {"vnfcSshHostKeys": ["VDU2"]}, vdus
    ) == {"VDU1"}
    assert host_keys.managed_vdus({}, {"vnfcSshHostKeys": ["VDU2"]}, vdus) == {
        "VDU2"
    }
    with pytest.raises(errors.InvalidRequest, match="unknown VDU.*VDU9"):
        host_keys.managed_vdus({"vnfcSshHostKeys": ["VDU9"]}, None, vdus)
    with pytest.raises(errors.InvalidRequest, match="list of VDU ids"):
        host_keys.managed_vdus({"vnfcSshHostKeys": "VDU1"}, None, vdus)


def test_scale_keeps_managing_vdus_whose_vnfcs_have_keys():
    old = dataclasses.replace(vnfc("VDU2"), host_key="ssh-ed25519 AAAA")
    assert host_keys.managed_for({}, {}, {"VDU1", "VDU2"}, [old]) == {"VDU2"}


def test_new_vnfcs_get_keys_and_the_pin_is_recorded_public_only():
    a, b, c = vnfc("VDU1", 0), vnfc("VDU1", 1), vnfc("VDU2", 0)
    keys = host_keys.assign([a, b, c], {"VDU1"}, {"VDU1-1", "VDU2-0"})
    assert set(keys) == {"VDU1-1"}
    assert b.host_key == keys["VDU1-1"].public
    assert a.host_key is None and c.host_key is None
    item = info.vnfc_resource_info(b, "vim1")
    assert item["metadata"]["sshHostKey"] == keys["VDU1-1"].public
    assert keys["VDU1-1"].private not in json.dumps(item)
    # Read back for later operations (and the MgmtDriver's pin).
    instance = {"instantiatedVnfInfo": {"vnfcResourceInfo": [item]}}
    assert existing(instance)[0].host_key == keys["VDU1-1"].public


def test_plain_server_gets_the_user_data_kept_ones_a_placeholder():
    a, b = vnfc("VDU1", 0), vnfc("VDU1", 1)
    template = {
        "resources": {
            "VDU1-0": copy.deepcopy(SERVER),
            "VDU1-1": copy.deepcopy(SERVER),
        }
    }
    keys = host_keys.assign([a, b], {"VDU1"}, {"VDU1-1"})
    out, files = host_keys.inject(template, {}, [a, b], {"VDU1"}, keys)
    new = out["resources"]["VDU1-1"]["properties"]
    assert new["user_data"] == host_keys.cloud_config(keys["VDU1-1"])
    assert new["user_data_format"] == "RAW"
    assert new["user_data_update_policy"] == "IGNORE"
    kept = out["resources"]["VDU1-0"]["properties"]
    assert kept["user_data"] == host_keys.KEPT
    assert kept["user_data_update_policy"] == "IGNORE"
    assert "user_data" not in template["resources"]["VDU1-1"]["properties"]
    assert files == {}


def test_nested_template_copy_takes_the_user_data_as_hidden_parameter(
    sample, simple
):
    vnfcs = [vnfc("VDU1", 0), vnfc("VDU2", 0)]
    top, files = hot.load(sample.root, simple)
    template, files = hot.join_server_groups(
        hot.expand(top, simple, vnfcs), files, vnfcs, simple
    )
    keys = host_keys.assign(vnfcs, {"VDU1"}, {"VDU1-0", "VDU2-0"})
    out, out_files = host_keys.inject(template, files, vnfcs, {"VDU1"}, keys)
    item = out["resources"]["VDU1-0"]
    assert item["type"] == "hostkey/VDU1.yaml"
    assert item["properties"][host_keys.USER_DATA_PARAM] == (
        host_keys.cloud_config(keys["VDU1-0"])
    )
    nested = yaml.safe_load(out_files["hostkey/VDU1.yaml"])
    param = nested["parameters"][host_keys.USER_DATA_PARAM]
    assert param["hidden"] is True
    assert nested["resources"]["VDU1"]["properties"]["user_data"] == {
        "get_param": host_keys.USER_DATA_PARAM
    }
    # The private key is in no file, only in that VNFC's property.
    assert not any(keys["VDU1-0"].private in t for t in out_files.values())
    assert out["resources"]["VDU2-0"]["type"] == "VDU2.yaml"


def test_server_with_its_own_user_data_is_refused():
    server = {
        "type": "OS::Nova::Server",
        "properties": {"user_data": "#!/bin/sh\n"},
    }
    with pytest.raises(errors.UnsupportedPackage, match="own user_data"):
        host_keys.inject(
            {"resources": {"VDU1-0": server}}, {}, [vnfc()], {"VDU1"}, {}
        )


def test_the_private_key_is_never_logged(sample, simple, caplog):
    """Generation and injection log nothing that holds the key."""
    caplog.set_level(logging.DEBUG)
    vnfcs = [vnfc("VDU1", 0)]
    top, files = hot.load(sample.root, simple)
    template = hot.expand(top, simple, vnfcs)
    keys = host_keys.assign(vnfcs, {"VDU1"}, {"VDU1-0"})
    host_keys.inject(template, files, vnfcs, {"VDU1"}, keys)
    secret_line = keys["VDU1-0"].private.splitlines()[1]
    assert secret_line not in caplog.text


def test_unpinned_vnfc_reports_nova_s_zone_but_is_not_pinned_to_it():
    """A VNFC granted no zone keeps no zone constraint on later stack
    updates (Heat would replace its server), while zoneId says where it
    runs."""
    one = dataclasses.replace(vnfc(), observed_zone="AZ-3")
    item = info.vnfc_resource_info(one, "vim1")
    assert item["zoneId"] == "AZ-3"
    assert item["metadata"]["zone"] is None
    back = existing({"instantiatedVnfInfo": {"vnfcResourceInfo": [item]}})[0]
    assert back.zone is None
    assert back.observed_zone == "AZ-3"
    pinned = info.vnfc_resource_info(
        dataclasses.replace(vnfc(), zone="AZ-1"), "v"
    )
    assert (
        existing({"instantiatedVnfInfo": {"vnfcResourceInfo": [pinned]}})[
            0
        ].zone
        == "AZ-1"
    )


SAMPLES = pathlib.Path(__file__).resolve().parents[5] / "samples"


@pytest.fixture(scope="module")
def k8s_cluster(tmp_path_factory):
    """The k8s_cluster sample: both VDUs in one anti-affinity group
    (nested template copies per server group and per host key)."""
    data = builder.build_csar_bytes(SAMPLES / "vnf_packages" / "k8s_cluster")
    dest = tmp_path_factory.mktemp("k8s-cluster") / "pkg"
    return csar.extract_csar(io.BytesIO(data), dest)


def test_scale_out_leaves_keyed_vnfcs_resources_as_they_were(k8s_cluster):
    """Both VDUs keyed at instantiate: a later scale out (a request
    without vnfcSshHostKeys) sends Heat the same resource, nested
    template and nfv entries for every existing VNFC; only the hidden
    user data turns into the placeholder, which the server ignores
    (user_data_update_policy IGNORE), and it stays that on the next
    update. Anything else that changed would make Heat replace
    masterNode-0's server, or any other."""
    flavour = k8s_cluster.vnfd.flavour("cluster_install")
    top, files = hot.load(k8s_cluster.root, flavour)
    nets = {"masterNode_CP1": "net", "workerNode_CP1": "net"}

    def stack(vnfcs, managed, keys):
        template, out = hot.join_server_groups(
            hot.expand(top, flavour, vnfcs), files, vnfcs, flavour
        )
        template, out = host_keys.inject(template, out, vnfcs, managed, keys)
        nfv = hot.nfv_parameter(flavour, vnfcs, nets, template)
        return template["resources"], out, nfv["VDU"]

    # Granted no zone; Nova's zone is what the driver reads back.
    first = [
        dataclasses.replace(v, observed_zone=f"AZ-{n}")
        for n, v in enumerate(
            [vnfc("masterNode"), vnfc("workerNode", 0), vnfc("workerNode", 1)]
        )
    ]
    managed = host_keys.managed_vdus(
        {host_keys.PARAM: ["masterNode", "workerNode"]}, None, flavour.vdus
    )
    keys = host_keys.assign(first, managed, {v.name for v in first})
    created = stack(first, managed, keys)
    updates = []
    vnfcs = first
    for index in (2, 3):
        recorded = [info.vnfc_resource_info(v, "vim1") for v in vnfcs]
        before = existing(
            {"instantiatedVnfInfo": {"vnfcResourceInfo": recorded}}
        )
        vnfcs = [*before, vnfc("workerNode", index)]
        managed = host_keys.managed_for({}, None, flavour.vdus, before)
        keys = host_keys.assign(vnfcs, managed, {f"workerNode-{index}"})
        updates.append(stack(vnfcs, managed, keys))

    param = host_keys.USER_DATA_PARAM
    for name in ("masterNode-0", "workerNode-0", "workerNode-1"):
        was, now = created[0][name], updates[0][0][name]
        assert was["properties"].pop(param).startswith("#cloud-config\n")
        assert now["properties"].pop(param) == host_keys.KEPT
        assert now == was
        assert updates[1][0][name] == {
            **now,
            "properties": {**now["properties"], param: host_keys.KEPT},
        }
        assert updates[0][2][name] == created[2][name]
        nested = updates[0][1][now["type"]]
        assert nested == created[1][was["type"]]
        server = yaml.safe_load(nested)["resources"][name.split("-")[0]]
        assert server["properties"]["user_data_update_policy"] == "IGNORE"
    assert updates[1][1] == updates[0][1]
