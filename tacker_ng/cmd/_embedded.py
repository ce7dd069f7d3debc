"""First-start bootstrap of the embedded default (tacker-ng-all).

Creates the state directory's htpasswd with one ``admin`` user and a
random password (bcrypt), and keeps the password in a 0600 file so the
operator can read it; nothing is created when the files already exist.
"""

import os
import secrets

import bcrypt
from oslo_config import cfg

ADMIN_USER = "admin"


def _write_private(path: str, data: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(data)


def ensure_admin_credentials(conf: cfg.ConfigOpts) -> str | None:
    """Create the htpasswd and password file on first start.

    Returns the path of the password file, or None when basic auth is not
    in use or the operator manages the htpasswd file. While the generated
    login is in use, its ``admin`` user is admin by default (the other
    users of http_basic are not: ``[api] http_basic_admin_users``).
    """
    if conf.api.auth_strategy != "http_basic":
        return None
    htpasswd = conf.oslo_middleware.http_basic_auth_user_file
    password_file = os.path.join(conf.state_path, "admin-password")
    if os.path.exists(htpasswd):
        if not os.path.exists(password_file):
            return None
        _admin_by_default(conf)
        return password_file
    password = secrets.token_urlsafe(18)
    digest = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=10))
    os.makedirs(os.path.dirname(htpasswd), mode=0o700, exist_ok=True)
    _write_private(password_file, password + "\n")
    _write_private(htpasswd, f"{ADMIN_USER}:{digest.decode()}\n")
    _admin_by_default(conf)
    return password_file


def _admin_by_default(conf: cfg.ConfigOpts) -> None:
    # A default, not an override: a configured list still wins.
    conf.set_default("http_basic_admin_users", [ADMIN_USER], group="api")
