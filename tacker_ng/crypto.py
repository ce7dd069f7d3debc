"""Secrets at rest: Fernet encryption of credentials stored in the DB.

VIM passwords, OAuth2 client secrets and SSH keys are stored as
``fernet:<token>`` strings. Keys live in ``[DEFAULT] fernet_key_repository``
as files named 0, 1, 2, ...; the highest-numbered key encrypts and every
key decrypts, so an operator rotates by adding a higher-numbered key and
removes old ones once nothing uses them.
"""

import copy
import os
import threading
from typing import Any

from cryptography import fernet
from oslo_config import cfg

from tacker_ng import exceptions

PREFIX = "fernet:"

#: Keys whose values are secrets wherever they appear in a credentials dict.
SECRET_KEYS = frozenset(
    {
        "password",
        "clientSecret",
        "clientPassword",
        "client_secret",
        "bearer_token",
        "token",
        "privateKey",
        "private_key",
        "ssh_private_key",
        "client_key",
        "clientKey",
        "secret",
    }
)


class SecretsUnavailable(exceptions.TackerNgError):
    message = "Stored credentials cannot be decrypted: {reason}"


_LOCK = threading.Lock()
_CACHE: dict[str, fernet.MultiFernet] = {}


def _key_files(repo: str) -> list[str]:
    names = [n for n in os.listdir(repo) if n.isdigit()]
    return sorted(names, key=int, reverse=True)


def _load(repo: str) -> fernet.MultiFernet:
    with _LOCK:
        if repo in _CACHE:
            return _CACHE[repo]
        os.makedirs(repo, mode=0o700, exist_ok=True)
        names = _key_files(repo)
        if not names:
            path = os.path.join(repo, "0")
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(fernet.Fernet.generate_key())
            names = ["0"]
        keys = []
        for name in names:
            with open(os.path.join(repo, name), "rb") as f:
                keys.append(fernet.Fernet(f.read().strip()))
        _CACHE[repo] = fernet.MultiFernet(keys)
        return _CACHE[repo]


def forget_keys() -> None:
    """Drop cached keys (after a rotation; tests)."""
    with _LOCK:
        _CACHE.clear()


def _box() -> fernet.MultiFernet:
    return _load(cfg.CONF.fernet_key_repository)


def encrypt(value: str) -> str:
    """``fernet:<token>`` for a secret string (idempotent)."""
    if value.startswith(PREFIX):
        return value
    return PREFIX + _box().encrypt(value.encode()).decode()


def decrypt(value: str) -> str:
    """The plain secret of a ``fernet:`` string (plain strings pass)."""
    if not value.startswith(PREFIX):
        return value
    try:
        return _box().decrypt(value[len(PREFIX) :].encode()).decode()
    except fernet.InvalidToken as exc:
        raise SecretsUnavailable(
            reason="no Fernet key in the key repository matches"
        ) from exc


def _walk(value: Any, on_secret) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in SECRET_KEYS and isinstance(item, str):
                replaced = on_secret(item)
                if replaced is not None:
                    out[key] = replaced
            else:
                out[key] = _walk(item, on_secret)
        return out
    if isinstance(value, list):
        return [_walk(item, on_secret) for item in value]
    return copy.copy(value)


def seal(value: Any) -> Any:
    """A copy with every secret field encrypted (for storing)."""
    return _walk(value, encrypt)


def unseal(value: Any) -> Any:
    """A copy with every secret field decrypted (for the drivers)."""
    return _walk(value, decrypt)


def mask(value: Any) -> Any:
    """A copy without any secret field (for responses and logs)."""
    return _walk(value, lambda _secret: None)
