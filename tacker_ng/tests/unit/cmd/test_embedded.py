"""First start of the embedded default: admin login and banner."""

import os
import stat

import bcrypt

from tacker_ng.cmd import _embedded
from tacker_ng.cmd import all as all_cmd


def test_creates_admin_login_once(conf, tmp_path):
    conf.set_override("auth_strategy", "http_basic", group="api")
    password_file = _embedded.ensure_admin_credentials(conf)
    assert password_file == str(tmp_path / "admin-password")
    password = (tmp_path / "admin-password").read_text().strip()
    user, digest = (tmp_path / "htpasswd").read_text().strip().split(":", 1)
    assert user == "admin"
    assert bcrypt.checkpw(password.encode(), digest.encode())
    for name in ("admin-password", "htpasswd"):
        mode = stat.S_IMODE(os.stat(tmp_path / name).st_mode)
        assert mode == 0o600, name
    # A second start keeps the same credentials.
    assert _embedded.ensure_admin_credentials(conf) == password_file
    assert (tmp_path / "admin-password").read_text().strip() == password


def test_operator_htpasswd_is_left_alone(conf, tmp_path):
    conf.set_override("auth_strategy", "http_basic", group="api")
    (tmp_path / "htpasswd").write_text("ops:$2b$04$x\n")
    assert _embedded.ensure_admin_credentials(conf) is None
    assert not (tmp_path / "admin-password").exists()


def test_nothing_created_without_basic_auth(conf, tmp_path):
    conf.set_override("auth_strategy", "keystone", group="api")
    assert _embedded.ensure_admin_credentials(conf) is None
    assert not (tmp_path / "htpasswd").exists()


def test_banner_says_how_to_log_in(conf, tmp_path):
    conf.set_override("auth_strategy", "http_basic", group="api")
    text = all_cmd.banner(conf, str(tmp_path / "admin-password"))
    assert "http://127.0.0.1:9890/" in text
    assert f"password in {tmp_path}/admin-password" in text
    assert "curl -u admin:" in text


def test_generated_admin_stays_admin_other_users_do_not(conf, tmp_path):
    conf.set_override("auth_strategy", "http_basic", group="api")
    assert conf.api.http_basic_admin_users == []
    _embedded.ensure_admin_credentials(conf)
    assert conf.api.http_basic_admin_users == ["admin"]
    assert "admin" not in conf.api.http_basic_roles
    # An operator's own list wins over the embedded default.
    conf.set_override("http_basic_admin_users", ["ops"], group="api")
    _embedded.ensure_admin_credentials(conf)
    assert conf.api.http_basic_admin_users == ["ops"]


def test_operator_htpasswd_gets_no_admin(conf, tmp_path):
    conf.set_override("auth_strategy", "http_basic", group="api")
    (tmp_path / "htpasswd").write_text("admin:$2b$04$x\n")
    _embedded.ensure_admin_credentials(conf)
    assert conf.api.http_basic_admin_users == []


def test_banner_says_https_when_tls_is_on(conf, tmp_path):
    conf.set_override("ssl_cert_file", "/x.pem", group="api")
    assert "https://127.0.0.1:9890/" in all_cmd.banner(conf, None)
