"""Which vimConnectionInfo entries are references, provided, usable."""

from tacker_ng.conductor.operations import vim as vim_select
from tacker_ng.objects import vim_refs

K8S = "ETSINFV.KUBERNETES.V_1"
OPENSTACK = {
    "vimId": "v",
    "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
    "interfaceInfo": {"endpoint": "http://keystone"},
    "accessInfo": {"password": "pw"},
}
CLUSTER = {
    "vimId": "kubernetes-1",
    "vimType": K8S,
    "interfaceInfo": {
        "endpoint": "https://10.0.0.5:6443",
        "ssl_ca_cert": "-----BEGIN CERTIFICATE-----",
    },
    "accessInfo": {"bearer_token": "secret-token"},
}


def test_provided_entry_shows_no_secret_and_is_never_selected():
    entry = vim_refs.provided_entry("kubernetes-1", CLUSTER, "inst-a")
    assert entry == {
        "vimId": "kubernetes-1",
        "vimType": K8S,
        "interfaceInfo": {"endpoint": "https://10.0.0.5:6443"},
        "extra": {vim_refs.PROVIDED_BY: "inst-a"},
    }
    assert vim_refs.is_provided(entry) and not vim_refs.is_reference(entry)
    # "0-cluster" sorts before "vim1": the choice must not be by order.
    vims = {"0-cluster": entry, "vim1": OPENSTACK}
    assert vim_select.select(vims) == ("vim1", OPENSTACK)
    assert vim_refs.runs_on(vims) == {"vim1": OPENSTACK}


def test_only_provided_entries_is_no_vim_to_run_on(conf):
    entry = vim_refs.provided_entry("kubernetes-1", CLUSTER, "inst-a")
    conf.set_override("auth_url", "http://default-keystone", group="vim")
    vim_id, vim = vim_select.select({"kubernetes-1": entry})
    assert vim_id == vim_select.DEFAULT_VIM_ID
    assert vim["interfaceInfo"]["endpoint"] == "http://default-keystone"


def test_reference_is_a_vim_id_without_access_info():
    assert vim_refs.is_reference({"vimId": "kubernetes-1", "vimType": K8S})
    assert not vim_refs.is_reference(CLUSTER)  # complete: used as given
    assert not vim_refs.is_reference({"vimType": K8S})  # no vimId
    assert not vim_refs.is_reference(None)
