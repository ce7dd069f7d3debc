"""additionalParams.k8sCluster: decrypted here only, 422 when unusable."""

import pytest

from tacker_ng import crypto
from tacker_ng.mgmt.kubernetes_cluster import commands, params


@pytest.fixture
def fernet(tmp_path, monkeypatch):
    from oslo_config import cfg

    from tacker_ng import conf  # noqa: F401 - registers the options

    (tmp_path / "0").write_text("pT1jGUlMw8kM6qZzBt1O6N0mv9cJ8v5kTqvVxYh1mEg=")
    cfg.CONF.set_override("fernet_key_repository", str(tmp_path))
    yield
    cfg.CONF.clear_override("fernet_key_repository")


def test_sealed_key_is_decrypted(fernet):
    body = {
        "additionalParams": crypto.seal(
            {
                "k8sCluster": {
                    "ssh": {"username": "ubuntu", "privateKey": "PEM"},
                    "workerVdu": "w",
                }
            }
        )
    }
    sealed = body["additionalParams"]["k8sCluster"]["ssh"]["privateKey"]
    assert sealed != "PEM"
    got = params.from_request(body)
    assert got.credentials.private_key == "PEM"
    assert got.credentials.username == "ubuntu"
    assert got.worker_vdu == "w" and got.master_vdu == "masterNode"
    assert "PEM" not in repr(got)


@pytest.mark.parametrize(
    "additional",
    [None, {}, {"k8sCluster": "x"}, {"k8sCluster": {"ssh": {}}}],
)
def test_missing_parameters_are_422(additional):
    with pytest.raises(commands.ClusterError) as err:
        params.from_request({"additionalParams": additional})
    assert err.value.status == 422
