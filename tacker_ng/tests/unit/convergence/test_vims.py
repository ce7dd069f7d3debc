"""The observer opens each sealed VIM once per cycle, not per VNFC."""

from tacker_ng import crypto
from tacker_ng.convergence import vims


def test_one_unseal_per_sealed_vim(conf, monkeypatch):
    sealed = crypto.seal(
        {"vim1": {"vimId": "vim1", "accessInfo": {"password": "s3cret"}}}
    )
    other = crypto.seal(
        {"vim1": {"vimId": "vim1", "accessInfo": {"password": "other"}}}
    )
    calls = []
    real = crypto.unseal

    def counting(value):
        calls.append(value)
        return real(value)

    monkeypatch.setattr(crypto, "unseal", counting)
    opened: dict = {}
    instances = [{"vim_connection_info": sealed}] * 5 + [
        {"vim_connection_info": other}
    ]
    found = [
        vims.resolve_cached(opened, i, "vim1", conf)
        for i in instances
        for _ in range(4)  # four VNFCs each
    ]
    assert len(calls) == 2
    assert found[0]["accessInfo"]["password"] == "s3cret"
    assert found[-1]["accessInfo"]["password"] == "other"
    assert vims.resolve_cached(opened, instances[0], "nope", conf) is None
