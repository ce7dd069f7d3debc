"""Uploading and running a script over SFTP, secrets through stdin,
against a real OpenSSH sshd test host (tools/testvms)."""

import logging

import pytest

from tacker_ng.mgmt import ssh, ssh_errors, ssh_scripts

FAST = ssh.Settings(
    connect_timeout=5,
    command_timeout=30,
    connect_attempts=3,
    retry_initial_delay=0.2,
    retry_max_delay=1.0,
)
SECRET = "j0in-t0ken.s3cr3t"

# Reports where it runs, its mode and its directory's, its arguments one
# per line, whether the secret (from stdin) is in its command line, and
# echoes the secret (which the logs must mask).
SCRIPT = b"""#!/bin/sh
set -eu
read -r token
echo "path=$0"
echo "mode=$(stat -c %a "$0") dirmode=$(stat -c %a "$(dirname "$0")")"
for a in "$@"; do printf 'arg=[%s]\\n' "$a"; done
if tr '\\0' ' ' < /proc/$$/cmdline | grep -qF "$token"; then
  echo "secret-in-argv=yes"; else echo "secret-in-argv=no"; fi
echo "token=$token"
"""

FAILING = b"""#!/bin/sh
echo "preparing"
echo "kubeadm: the join failed" >&2
exit 3
"""


def _executor(host):
    return ssh.SshExecutor(
        host.address,
        ssh.Credentials(host.username, private_key=host.client_private_key),
        host_key=host.host_public_key,
        settings=FAST,
    )


def _field(out: str, name: str) -> str:
    for line in out.splitlines():
        if line.startswith(f"{name}="):
            return line.split("=", 1)[1]
    raise AssertionError(f"{name} not in {out!r}")


def test_script_uploaded_private_run_with_quoted_args_and_removed(
    sshd, caplog
):
    caplog.set_level(logging.DEBUG)
    hostile = ["; rm -rf ~", "$(touch ~/pwned)", "two words", "it's"]
    with _executor(sshd) as executor:
        result = ssh_scripts.run_script(
            executor,
            SCRIPT,
            hostile,
            name="install.sh",
            stdin=SECRET + "\n",
        )
        out = result.stdout
        path = _field(out, "path")
        assert path.endswith("/install.sh")
        assert _field(out, "mode") == "700 dirmode=700"
        args = [line[5:-1] for line in out.splitlines() if line[:4] == "arg="]
        assert args == hostile
        assert _field(out, "secret-in-argv") == "no"
        assert _field(out, "token") == SECRET  # it did get the secret
        # The temporary directory is gone; no injected command ran.
        directory = path.rsplit("/", 1)[0]
        gone = executor.run(["test", "-e", directory], check=False)
        assert gone.exit_status == 1
        home = executor.run(["ls", "-A", str(sshd.workdir / "home")])
        assert "pwned" not in home.stdout
    assert SECRET not in caplog.text
    assert "token=***" in caplog.text  # the output was logged, masked


def test_failing_script_raises_with_its_tail_and_is_removed(sshd):
    with _executor(sshd) as executor:
        with pytest.raises(ssh_errors.CommandFailed) as err:
            ssh_scripts.run_script(executor, FAILING, name="join.sh")
        assert err.value.exit_status == 3
        assert "kubeadm: the join failed" in err.value.tail
        assert "preparing" in err.value.tail
        leftovers = executor.run(
            ["sh", "-c", 'ls -d "${TMPDIR:-/tmp}"/tacker-ng.* 2>/dev/null'],
            check=False,
        )
        assert leftovers.stdout.strip() == ""


def test_stdin_reaches_a_plain_command(sshd):
    with _executor(sshd) as executor:
        result = executor.run(["sha256sum"], stdin=SECRET)
    import hashlib

    assert result.stdout.split()[0] == (
        hashlib.sha256(SECRET.encode()).hexdigest()
    )


def test_script_name_cannot_leave_its_directory(sshd):
    executor = _executor(sshd)  # refused before any connection
    for name in ("../evil", "a/b", "..", ""):
        with pytest.raises(ValueError, match="plain file name"):
            ssh_scripts.upload(executor, b"x", "/srv", name)
