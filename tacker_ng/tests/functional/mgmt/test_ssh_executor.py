"""The MgmtDriver SSH executor against real OpenSSH sshd test hosts.

Each host is sshd in its own network namespace (tools/testvms), with a
generated host key the test pins, as the VNFM pins the key it generated
for a VNFC; nothing here is mocked.
"""

import logging
import threading
import time

import pytest

from tacker_ng.mgmt import ssh, ssh_errors

FAST = ssh.Settings(
    connect_timeout=5,
    command_timeout=30,
    connect_attempts=3,
    retry_initial_delay=0.2,
    retry_max_delay=1.0,
)


def _key_executor(host, settings=FAST, **kwargs):
    kwargs.setdefault("host_key", host.host_public_key)
    return ssh.SshExecutor(
        host.address,
        ssh.Credentials(host.username, private_key=host.client_private_key),
        settings=settings,
        **kwargs,
    )


def test_key_auth_runs_a_command_and_returns_its_output(sshd):
    with _key_executor(sshd) as executor:
        result = executor.run(["id", "-un"])
        assert result.exit_status == 0
        assert result.stdout.strip() == sshd.username
        # Hostile values reach the remote program as single literal words.
        hostile = ["; rm -rf ~", "$(touch ~/pwned)", "a\nb", 'it\'s "q"']
        out = executor.run(["printf", "%s|", *hostile]).stdout
        assert out == "|".join(hostile) + "|"
        listed = executor.run(["ls", "-A", str(sshd.workdir / "home")])
        assert "pwned" not in listed.stdout


def test_pinned_fingerprint_is_accepted(sshd):
    with _key_executor(sshd, host_key=sshd.host_fingerprint) as executor:
        assert executor.run(["true"]).exit_status == 0


def test_wrong_host_key_is_refused_naming_the_host(sshd_factory):
    host, other = sshd_factory(), sshd_factory(start=False)
    for pinned in (other.host_public_key, other.host_fingerprint):
        executor = _key_executor(host, host_key=pinned)
        with pytest.raises(ssh_errors.HostKeyRejected) as err:
            executor.connect()
        problem = err.value.to_problem_details()
        assert problem["status"] == 502
        assert host.address in problem["detail"]
    assert "Accepted publickey" not in host.log
    assert "Accepted password" not in host.log


def test_unknown_host_is_refused_by_default(sshd, tmp_path):
    settings = ssh.Settings(
        connect_attempts=1, known_hosts_file=str(tmp_path / "known_hosts")
    )
    executor = _key_executor(sshd, settings=settings, host_key=None)
    with pytest.raises(ssh_errors.HostKeyRejected, match=sshd.address) as err:
        executor.connect()
    assert "trust_on_first_use is off" in err.value.detail
    assert sshd.host_fingerprint in err.value.detail
    assert not (tmp_path / "known_hosts").exists()


def test_known_hosts_file_and_trust_on_first_use(sshd_factory, tmp_path):
    host = sshd_factory()
    known = tmp_path / "known_hosts"
    tofu = ssh.Settings(
        connect_attempts=1,
        known_hosts_file=str(known),
        trust_on_first_use=True,
    )
    with _key_executor(host, settings=tofu, host_key=None) as executor:
        executor.run(["true"])
    assert host.host_public_key in known.read_text()
    # Recorded: now trusted from the file alone, TOFU off.
    strict = ssh.Settings(connect_attempts=1, known_hosts_file=str(known))
    with _key_executor(host, settings=strict, host_key=None) as executor:
        executor.run(["true"])
    # The host comes back with another key: refused even with TOFU on.
    other = sshd_factory(start=False)
    known.write_text(known.read_text().replace(
        host.host_public_key, other.host_public_key
    ))  # fmt: skip
    with pytest.raises(ssh_errors.HostKeyRejected, match=host.address):
        _key_executor(host, settings=tofu, host_key=None).connect()


def test_password_auth(sshd):
    creds = ssh.Credentials(sshd.username, password=sshd.password)
    with ssh.SshExecutor(
        sshd.address, creds, host_key=sshd.host_public_key, settings=FAST
    ) as executor:
        assert executor.run(["whoami"]).stdout.strip() == sshd.username


def test_wrong_password_fails_at_once_and_is_not_shown(sshd, caplog):
    caplog.set_level(logging.DEBUG)
    creds = ssh.Credentials(sshd.username, password="Wr0ng-pa55word")
    executor = ssh.SshExecutor(
        sshd.address, creds, host_key=sshd.host_public_key, settings=FAST
    )
    with pytest.raises(ssh_errors.AuthenticationFailed) as err:
        executor.connect()
    assert sshd.username in err.value.detail
    assert "Wr0ng-pa55word" not in err.value.detail
    assert "Wr0ng-pa55word" not in caplog.text
    assert "not reachable yet" not in caplog.text  # not retried


def test_failing_command_carries_exit_status_and_output_tail(sshd):
    script = (
        "for i in $(seq 1 40); do echo line $i; done; echo boom >&2; exit 3"
    )
    with _key_executor(sshd) as executor:
        with pytest.raises(ssh_errors.CommandFailed) as err:
            executor.run(["sh", "-c", script])
        result = executor.run(["sh", "-c", "exit 4"], check=False)
    assert err.value.exit_status == 3
    assert err.value.tail.splitlines()[-2:] == ["line 40", "boom"]
    assert "line 1\n" not in err.value.tail
    problem = err.value.to_problem_details()
    assert sshd.address in problem["detail"]
    assert "exited with status 3" in problem["detail"]
    assert result.exit_status == 4


def test_command_that_ends_before_reading_its_input_fails_with_its_tail(
    sshd,
):
    """A script failing before it reads its standard input (a worker's
    join token arrives there) is a CommandFailed with its status and
    output, not a connection cut off: the rest of the input meets a
    closed channel (4 MB: more than SSH's window, so it always does)."""
    script = "echo 'preflight: swap is on' >&2; exit 3"
    with _key_executor(sshd) as executor:
        with pytest.raises(ssh_errors.CommandFailed) as err:
            executor.run(["sh", "-c", script], stdin="t" * 4_000_000)
        # The session goes on.
        assert executor.run(["true"]).exit_status == 0
    assert err.value.exit_status == 3
    assert "preflight: swap is on" in err.value.tail


def test_command_outliving_its_timeout_fails(sshd):
    with _key_executor(sshd) as executor:
        started = time.monotonic()
        with pytest.raises(ssh_errors.CommandTimeout, match="sleep 30"):
            executor.run(["sh", "-c", "echo started; sleep 30"], timeout=1.5)
    assert time.monotonic() - started < 10


def test_host_not_up_yet_is_retried_until_it_is(sshd_factory, caplog):
    caplog.set_level(logging.INFO)
    host = sshd_factory(start=False)
    timer = threading.Timer(2.0, host.start)
    timer.start()
    settings = ssh.Settings(
        connect_timeout=5,
        connect_attempts=10,
        retry_initial_delay=0.5,
        retry_max_delay=2.0,
    )
    try:
        with _key_executor(host, settings=settings) as executor:
            assert executor.run(["echo", "up"]).stdout == "up\n"
    finally:
        timer.join()
    assert "not reachable yet" in caplog.text


def test_unreachable_host_gives_up_after_bounded_retries(sshd_factory):
    host = sshd_factory(start=False)
    started = time.monotonic()
    with pytest.raises(ssh_errors.HostUnreachable) as err:
        _key_executor(host).connect()
    assert time.monotonic() - started < 10
    problem = err.value.to_problem_details()
    assert problem["status"] == 504
    assert host.address in problem["detail"]
    assert "3 attempts" in problem["detail"]


def test_secrets_never_in_captured_logs(sshd, caplog):
    caplog.set_level(logging.DEBUG)
    token = "abcdef.0123456789abcdef"
    creds = ssh.Credentials(sshd.username, password=sshd.password)
    with ssh.SshExecutor(
        sshd.address, creds, host_key=sshd.host_public_key, settings=FAST
    ) as executor:
        out = executor.run(
            ["sh", "-c", 'echo "token=$1 pw=$2"', "sh", token, sshd.password],
            secrets=[token],
        ).stdout
        with pytest.raises(ssh_errors.CommandFailed) as err:
            executor.run(["sh", "-c", "echo $1 >&2; exit 1", "sh", token],
                         secrets=[token])  # fmt: skip
    assert out.strip() == f"token={token} pw={sshd.password}"
    assert "running" in caplog.text and "***" in caplog.text
    for secret in (token, sshd.password):
        assert secret not in caplog.text
        assert secret not in err.value.detail
