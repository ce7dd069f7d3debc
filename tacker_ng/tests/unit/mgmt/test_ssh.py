"""The SSH executor's logic that needs no SSH server.

Connection retries run against a real closed port on 127.0.0.1 (refused
at once), with the waits recorded instead of slept.
"""

import logging
import socket

import pytest

from tacker_ng.mgmt import ssh, ssh_errors


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _executor(**settings):
    waits = []
    executor = ssh.SshExecutor(
        "127.0.0.1",
        ssh.Credentials("admin", password="pa55-w0rd"),
        port=_closed_port(),
        settings=ssh.Settings(**settings),
        sleep=waits.append,
    )
    return executor, waits


def test_refused_host_is_retried_on_the_backoff_schedule_then_fails():
    executor, waits = _executor(
        connect_attempts=4, retry_initial_delay=0.5, retry_max_delay=1.5
    )
    with pytest.raises(ssh_errors.HostUnreachable) as err:
        executor.connect()
    assert waits == [0.5, 1.0, 1.5]
    problem = err.value.to_problem_details()
    assert problem["status"] == 504
    assert f"127.0.0.1:{executor.port}" in problem["detail"]
    assert "4 attempts" in problem["detail"]
    # How it failed in our words; paramiko's and the socket's in the log.
    assert problem["detail"].endswith(": the connection was refused")
    assert "Errno" not in problem["detail"]
    assert "Unable to connect" not in problem["detail"]


def test_retry_log_never_shows_the_password(caplog):
    caplog.set_level(logging.DEBUG)
    executor, _ = _executor(connect_attempts=2, retry_initial_delay=0)
    with pytest.raises(ssh_errors.HostUnreachable):
        executor.connect()
    assert "not reachable yet" in caplog.text
    assert "Unable to connect" in caplog.text  # paramiko's own words
    assert "pa55-w0rd" not in caplog.text


def test_credentials_repr_hides_secrets():
    creds = ssh.Credentials(
        "admin", password="pw-1", private_key="KEY", passphrase="pp-2"
    )
    shown = repr(creds)
    assert "admin" in shown
    assert not any(s in shown for s in ("pw-1", "KEY", "pp-2"))


def test_no_credentials_is_refused_before_connecting():
    executor = ssh.SshExecutor(
        "127.0.0.1", ssh.Credentials("admin"), settings=ssh.Settings()
    )
    with pytest.raises(ssh_errors.AuthenticationFailed, match="no private"):
        executor.connect()


def test_unusable_private_key_is_refused_without_echoing_it():
    executor = ssh.SshExecutor(
        "127.0.0.1",
        ssh.Credentials("admin", private_key="not-a-key-SECRETBITS"),
        settings=ssh.Settings(),
    )
    with pytest.raises(ssh_errors.AuthenticationFailed) as err:
        executor.connect()
    assert "SECRETBITS" not in err.value.detail


def test_malformed_pinned_host_key_is_refused():
    executor = ssh.SshExecutor(
        "127.0.0.1",
        ssh.Credentials("admin", password="x"),
        port=_closed_port(),
        host_key="ssh-ed25519 !!!not-base64",
        settings=ssh.Settings(connect_attempts=1),
    )
    with pytest.raises(ssh_errors.HostKeyRejected, match="127.0.0.1"):
        executor.connect()


def test_string_command_is_refused_before_connecting():
    executor, waits = _executor()
    with pytest.raises(ValueError, match="argv list"):
        executor.run("echo hi; rm -rf /")
    assert waits == []


def test_settings_come_from_mgmt_ssh(conf):
    conf.set_override("connect_attempts", 3, group="mgmt_ssh")
    conf.set_override("trust_on_first_use", True, group="mgmt_ssh")
    settings = ssh.Settings.from_conf(conf)
    assert settings.connect_attempts == 3
    assert settings.trust_on_first_use is True
    assert settings.known_hosts_file is None
