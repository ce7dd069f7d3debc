"""The SSH executor's pure parts: quoting, masking, backoff, tails."""

import base64
import shlex
import subprocess

import pytest

from tacker_ng.mgmt import sshcmd

HOSTILE = [
    "; rm -rf /",
    "$(touch /tmp/pwned)",
    "`touch /tmp/pwned`",
    "a\nrm -rf /",
    'it\'s "quoted"',
    "${HOME}",
    "| cat /etc/shadow",
    "&& reboot &",
    "",
    " lead and trail ",
    "-rf",
    "*",
    "\\",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_value_is_one_literal_word(value):
    command = sshcmd.build_command(["echo", value])
    assert shlex.split(command) == ["echo", value]


def test_hostile_values_reach_a_real_shell_unchanged(tmp_path):
    # A real POSIX shell, as sshd hands the line to the login shell: each
    # value arrives as exactly one argument and nothing runs.
    command = sshcmd.build_command(
        ["printf", "%s\\0", *HOSTILE, f"$(touch {tmp_path}/pwned)"]
    )
    out = subprocess.run(
        ["sh", "-c", command], capture_output=True, check=True
    ).stdout
    assert out.split(b"\0")[:-1] == [
        v.encode() for v in [*HOSTILE, f"$(touch {tmp_path}/pwned)"]
    ]
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize(
    "argv", ["echo hi", b"echo", [], ["echo", 3], ["echo", "a\0b"]]
)
def test_unsafe_argv_is_refused(argv):
    with pytest.raises(sshcmd.InvalidCommand):
        sshcmd.build_command(argv)


def test_mask_hides_every_secret_longest_first():
    text = "pw=s3cret tok=s3cret-longer again s3cret"
    masked = sshcmd.mask(text, ["s3cret", "s3cret-longer", None, ""])
    assert masked == "pw=*** tok=*** again ***"
    assert "s3cret" not in masked


def test_mask_without_secrets_is_identity():
    assert sshcmd.mask("nothing", [None, ""]) == "nothing"


def test_backoff_is_exponential_capped_and_bounded():
    assert sshcmd.backoff_delays(1, 2.0, 30.0) == []
    assert sshcmd.backoff_delays(7, 2.0, 30.0) == [2, 4, 8, 16, 30, 30]
    assert sshcmd.backoff_delays(4, 0.5, 10.0, factor=3) == [0.5, 1.5, 4.5]
    with pytest.raises(ValueError):
        sshcmd.backoff_delays(0, 1.0, 1.0)


def test_output_tail_keeps_last_lines_with_stderr_last():
    stdout = "".join(f"out {i}\n" for i in range(50))
    tail = sshcmd.output_tail(stdout, "fatal: boom\n", lines=3)
    assert tail == "out 48\nout 49\nfatal: boom"
    assert sshcmd.output_tail("", "", lines=3) == ""
    assert len(sshcmd.output_tail("x" * 10000, "", 5, max_chars=100)) == 100


def test_fingerprint_matches_ssh_keygen(tmp_path):
    key = tmp_path / "k"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)],
        check=True,
    )
    listed = subprocess.run(
        ["ssh-keygen", "-lf", f"{key}.pub"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()[1]
    blob = base64.b64decode((tmp_path / "k.pub").read_text().split()[1])
    assert sshcmd.fingerprint(blob) == listed
