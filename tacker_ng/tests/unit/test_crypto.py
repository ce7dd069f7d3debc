"""Secrets at rest: seal/unseal/mask and key rotation."""

import os
import stat

import pytest
from cryptography import fernet

from tacker_ng import crypto

CREDS = {
    "vim1": {
        "vimType": "x",
        "accessInfo": {"username": "u", "password": "p@ss"},
        "extra": {"nested": [{"client_secret": "s3!cr#t"}]},
    }
}


@pytest.fixture(autouse=True)
def keys(conf):
    crypto.forget_keys()
    yield conf.fernet_key_repository
    crypto.forget_keys()


def test_seal_unseal_mask(keys):
    sealed = crypto.seal(CREDS)
    assert sealed["vim1"]["accessInfo"]["username"] == "u"
    assert sealed["vim1"]["accessInfo"]["password"].startswith("fernet:")
    # '@', '!' and '#' are outside a Fernet token's alphabet: found only
    # if a secret were left in clear.
    assert "p@ss" not in repr(sealed) and "s3!cr#t" not in repr(sealed)
    assert crypto.unseal(sealed) == CREDS
    masked = crypto.mask(sealed)
    assert masked["vim1"]["accessInfo"] == {"username": "u"}
    assert masked["vim1"]["extra"]["nested"] == [{}]
    assert crypto.seal(sealed) == sealed  # idempotent


def test_key_file_created_private(keys):
    crypto.encrypt("x")
    mode = stat.S_IMODE(os.stat(os.path.join(keys, "0")).st_mode)
    assert mode == 0o600


def test_rotation_keeps_old_tokens_readable(keys):
    old = crypto.encrypt("secret")
    with open(os.path.join(keys, "1"), "wb") as f:
        f.write(fernet.Fernet.generate_key())
    crypto.forget_keys()
    new = crypto.encrypt("secret")
    assert crypto.decrypt(old) == crypto.decrypt(new) == "secret"
    os.remove(os.path.join(keys, "0"))
    crypto.forget_keys()
    assert crypto.decrypt(new) == "secret"
    with pytest.raises(crypto.SecretsUnavailable):
        crypto.decrypt(old)
