"""Errors of the SSH executor, each with its ProblemDetails.

A MgmtDriver hook lets them propagate: the operation goes FAILED_TEMP with
the detail, which names the host and never holds a secret. The host is
the VNFC's management address - the VNF's own, which its
``instantiatedVnfInfo`` shows the same callers - not an endpoint of the
VNF manager's network; how a connection failed is said in our words
(:func:`connect_failure`), paramiko's and the socket's text (errnos) is
logged (:mod:`tacker_ng.outbound_errors`).
"""

import paramiko

from tacker_ng import exceptions, outbound_errors


class SshError(exceptions.TackerNgError):
    status = 502
    title = "SSH Error"
    message = "SSH to {host} failed: {reason}"


class HostKeyRejected(SshError):
    """The host's key is not the one we trust: no command was sent."""

    title = "SSH Host Key Rejected"
    message = (
        "The SSH host key of {host} was refused: {reason}. No command was "
        "run on it."
    )


class AuthenticationFailed(SshError):
    title = "SSH Authentication Failed"
    message = "{host} refused the SSH login of user '{username}': {reason}"


class HostUnreachable(SshError):
    status = 504
    title = "SSH Host Unreachable"
    message = (
        "{host} did not accept an SSH connection in {attempts} attempts "
        "over {elapsed:.0f}s ([mgmt_ssh] connect_attempts): {reason}"
    )


class CommandFailed(SshError):
    """A remote command exited non-zero; its output tail is the detail."""

    title = "Remote Command Failed"
    message = (
        "`{command}` on {host} exited with status {exit_status}. Last "
        "output:\n{tail}"
    )

    @property
    def exit_status(self) -> int:
        return int(self.kwargs["exit_status"])

    @property
    def tail(self) -> str:
        return str(self.kwargs["tail"])


class CommandTimeout(SshError):
    status = 504
    title = "Remote Command Timeout"
    message = (
        "`{command}` on {host} did not finish in {timeout:.0f}s. Last "
        "output:\n{tail}"
    )


def login_refusal(exc: paramiko.AuthenticationException) -> str:
    """Why the login was refused, in our words."""
    allowed = getattr(exc, "allowed_types", None)
    if allowed:
        return f"it accepts only {', '.join(allowed)} authentication"
    return "the key or password was not accepted"


def connect_failure(exc: BaseException) -> str:
    """How a connection attempt failed, in our words (paramiko's and the
    socket's text, with errnos, is logged)."""
    if isinstance(exc, paramiko.SSHException):
        return "the SSH handshake failed"
    return outbound_errors.transport_failure(exc)
