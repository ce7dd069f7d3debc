"""Run a script of the package on a VNFC: upload by SFTP, run, clean up.

A MgmtDriver's work on a VM is a script (the package's install scripts),
not a shell string: the script is copied over SFTP into a fresh private
directory (``mktemp -d -t``, mode 0700) as mode 0700, run with its
arguments each quoted by the executor, and the directory is removed
afterwards whatever the outcome. Secrets (a join token, a password) go
through the script's standard input, never its arguments: an argv is
readable by every user of the VM.
"""

from __future__ import annotations

import io
import posixpath
import re
from collections.abc import Iterable, Sequence

import paramiko
from oslo_log import log as logging

from tacker_ng.mgmt import ssh_errors as errors
from tacker_ng.mgmt.ssh import Result, SshExecutor

LOG = logging.getLogger(__name__)

SCRIPT_MODE = 0o700
_SAFE_NAME = re.compile(r"^[A-Za-z0-9._-]{1,100}$")


def upload(
    executor: SshExecutor, content: bytes, directory: str, name: str
) -> str:
    """Copy ``content`` to ``directory/name`` (mode 0700); its path."""
    if not _SAFE_NAME.match(name) or name in (".", ".."):
        raise ValueError(f"not a plain file name: {name!r}")
    path = posixpath.join(directory, name)
    sftp = executor.sftp()
    try:
        sftp.putfo(io.BytesIO(content), path, confirm=True)
        sftp.chmod(path, SCRIPT_MODE)
    except (OSError, paramiko.SSHException) as exc:
        LOG.warning(
            "SSH %s: uploading %s failed: %s", executor.where, name, exc
        )
        raise errors.SshError(
            host=executor.where,
            reason=f"uploading {name} over SFTP failed"
            + (
                " (permission denied)"
                if isinstance(exc, PermissionError)
                else ""
            ),
        ) from None
    finally:
        sftp.close()
    return path


def run_script(
    executor: SshExecutor,
    content: bytes,
    args: Sequence[str] = (),
    *,
    name: str = "script",
    stdin: str | bytes | None = None,
    secrets: Iterable[str] = (),
    timeout: float | None = None,
    check: bool = True,
    log_output: bool = True,
) -> Result:
    """Upload ``content`` as ``name`` and run it with ``args``.

    The script runs from a temporary directory of its own that is removed
    afterwards (also when it fails or times out). ``stdin`` is for
    secrets; errors are the executor's (CommandFailed with the output
    tail, secrets masked).
    """
    made = executor.run(["mktemp", "-d", "-t", "tacker-ng.XXXXXXXX"])
    directory = made.stdout.strip()
    base = posixpath.basename(directory)
    if not directory.startswith("/") or not base.startswith("tacker-ng."):
        raise errors.SshError(
            host=executor.where,
            reason=f"mktemp gave no directory ({directory[:100]!r})",
        )
    try:
        path = upload(executor, content, directory, name)
        return executor.run(
            [path, *args],
            stdin=stdin,
            secrets=secrets,
            timeout=timeout,
            check=check,
            log_output=log_output,
        )
    finally:
        try:
            executor.run(["rm", "-rf", "--", directory], check=True)
        except errors.SshError as exc:
            LOG.warning(
                "SSH %s: could not remove %s: %s",
                executor.where,
                directory,
                exc,
            )
