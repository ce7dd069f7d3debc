"""Run commands on a VNFC over SSH (paramiko) for MgmtDriver hooks.

Credentials come from the caller already decrypted and are never logged.
A host's key must be known before the first connection: pinned (the VNFM
generated the VNFC's host key and handed it over in user data, so it
knows the key or its fingerprint) or in ``[mgmt_ssh] known_hosts_file``;
an unknown host is refused unless an operator turns on trust-on-first-use.
Commands are argv lists, each word quoted (:func:`sshcmd.build_command`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import select
import socket
import time
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType

import paramiko
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.mgmt import ssh_errors as errors
from tacker_ng.mgmt import ssh_hostkeys as hostkeys
from tacker_ng.mgmt import sshcmd

LOG = logging.getLogger(__name__)

_KEY_CLASSES: tuple[type[paramiko.PKey], ...] = (
    paramiko.Ed25519Key,
    paramiko.ECDSAKey,
    paramiko.RSAKey,
)


@dataclasses.dataclass(frozen=True)
class Credentials:
    """Who logs in: a private key (PEM/OpenSSH text) and/or a password."""

    username: str
    password: str | None = dataclasses.field(default=None, repr=False)
    private_key: str | None = dataclasses.field(default=None, repr=False)
    passphrase: str | None = dataclasses.field(default=None, repr=False)

    def secrets(self) -> list[str]:
        return [
            s for s in (self.password, self.passphrase, self.private_key) if s
        ]

    def pkey(self) -> paramiko.PKey | None:
        """The private key object, or None without a key."""
        if not self.private_key:
            return None
        for key_class in _KEY_CLASSES:
            try:
                return key_class.from_private_key(
                    io.StringIO(self.private_key), password=self.passphrase
                )
            except (paramiko.SSHException, ValueError):
                continue
        # Never the key text itself in the message.
        raise ValueError(
            "the private key is not a usable RSA, ECDSA or Ed25519 key "
            "(or its passphrase is wrong)"
        )


@dataclasses.dataclass(frozen=True)
class Settings:
    """The ``[mgmt_ssh]`` options an executor runs with."""

    connect_timeout: float = 10.0
    command_timeout: float = 600.0
    connect_attempts: int = 12
    retry_initial_delay: float = 2.0
    retry_max_delay: float = 30.0
    known_hosts_file: str | None = None
    trust_on_first_use: bool = False
    output_tail_lines: int = 20

    @classmethod
    def from_conf(cls, conf: cfg.ConfigOpts | None = None) -> Settings:
        group = (conf or cfg.CONF).mgmt_ssh
        return cls(**{f.name: group[f.name] for f in dataclasses.fields(cls)})


@dataclasses.dataclass(frozen=True)
class Result:
    """A finished command: its exit status and captured output."""

    exit_status: int
    stdout: str
    stderr: str


class SshExecutor:
    """One SSH session to one host; use as a context manager.

    ``host_key`` pins the host's key: an OpenSSH public key line
    (``ssh-ed25519 AAAA...``) or its fingerprint (``SHA256:...``). Without
    it, ``known_hosts_file`` (and trust-on-first-use) of the settings apply.
    """

    def __init__(
        self,
        host: str,
        credentials: Credentials,
        *,
        port: int = 22,
        host_key: str | None = None,
        settings: Settings | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.host = host
        self.port = port
        self.credentials = credentials
        self.host_key = host_key.strip() if host_key else None
        self.settings = settings or Settings.from_conf()
        self._sleep = sleep
        self._client: paramiko.SSHClient | None = None

    @property
    def where(self) -> str:
        return self.host if self.port == 22 else f"{self.host}:{self.port}"

    def __enter__(self) -> SshExecutor:
        self.connect()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def _mask(self, text: str, extra: Iterable[str] = ()) -> str:
        return sshcmd.mask(text, [*self.credentials.secrets(), *extra])

    def _new_client(self) -> paramiko.SSHClient:
        return hostkeys.new_client(
            self.host,
            self.port,
            self.host_key,
            known_hosts_file=self.settings.known_hosts_file,
            trust_on_first_use=self.settings.trust_on_first_use,
        )

    def _connect_once(self, pkey: paramiko.PKey | None) -> paramiko.SSHClient:
        client = self._new_client()
        timeout = self.settings.connect_timeout
        try:
            client.connect(
                self.host,
                port=self.port,
                username=self.credentials.username,
                password=self.credentials.password,
                pkey=pkey,
                passphrase=None,
                timeout=timeout,
                banner_timeout=timeout,
                auth_timeout=timeout,
                allow_agent=False,
                look_for_keys=False,
            )
        except BaseException:
            client.close()
            raise
        return client

    def connect(self) -> None:
        """Connect, retrying with backoff while the host is not up yet."""
        if self._client is not None:
            return
        if not (self.credentials.password or self.credentials.private_key):
            raise errors.AuthenticationFailed(
                host=self.where,
                username=self.credentials.username,
                reason="no private key nor password was given",
            )
        try:
            pkey = self.credentials.pkey()
        except ValueError as exc:
            raise errors.AuthenticationFailed(
                host=self.where,
                username=self.credentials.username,
                reason=str(exc),
            ) from None
        settings = self.settings
        delays = sshcmd.backoff_delays(
            settings.connect_attempts,
            settings.retry_initial_delay,
            settings.retry_max_delay,
        )
        start = time.monotonic()
        for attempt in range(1, settings.connect_attempts + 1):
            try:
                self._client = self._connect_once(pkey)
                LOG.debug("SSH: connected to %s", self.where)
                return
            except hostkeys.HostKeyMismatch as exc:
                raise errors.HostKeyRejected(
                    host=self.where, reason=str(exc)
                ) from None
            except paramiko.BadHostKeyException as exc:
                raise errors.HostKeyRejected(
                    host=self.where,
                    reason=f"it presented {exc.key.get_name()} key "
                    f"{sshcmd.fingerprint(exc.key.asbytes())}, expected "
                    f"{sshcmd.fingerprint(exc.expected_key.asbytes())}",
                ) from None
            except paramiko.AuthenticationException as exc:
                LOG.info("SSH %s: login refused: %s", self.where, exc)
                raise errors.AuthenticationFailed(
                    host=self.where,
                    username=self.credentials.username,
                    reason=errors.login_refusal(exc),
                ) from None
            except (OSError, EOFError, paramiko.SSHException) as exc:
                raw = self._mask(str(exc) or type(exc).__name__)
                reason = errors.connect_failure(exc)
            if attempt < settings.connect_attempts:
                delay = delays[attempt - 1]
                LOG.info(
                    "SSH: %s not reachable yet (attempt %d of %d: %s); "
                    "next attempt in %.1fs",
                    self.where,
                    attempt,
                    settings.connect_attempts,
                    raw,
                    delay,
                )
                self._sleep(delay)
        LOG.warning("SSH: %s not reachable: %s", self.where, raw)
        raise errors.HostUnreachable(
            host=self.where,
            attempts=settings.connect_attempts,
            elapsed=time.monotonic() - start,
            reason=reason,
        )

    def sftp(self) -> paramiko.SFTPClient:
        """An SFTP session on the connection (the caller closes it)."""
        self.connect()
        assert self._client is not None
        try:
            return self._client.open_sftp()
        except (OSError, EOFError, paramiko.SSHException) as exc:
            LOG.warning("SSH %s: no SFTP session: %s", self.where, exc)
            raise errors.SshError(
                host=self.where, reason="the server opened no SFTP session"
            ) from None

    def run(
        self,
        argv: Sequence[str],
        *,
        timeout: float | None = None,
        secrets: Iterable[str] = (),
        check: bool = True,
        stdin: str | bytes | None = None,
        log_output: bool = True,
    ) -> Result:
        """Run ``argv`` on the host; return its exit status and output.

        ``secrets`` are values in ``argv`` or the output (a join token, a
        password being set) to mask in logs and errors besides the login
        credentials. ``stdin`` is written to the command's standard input
        and then closed: the way to hand a secret to a command, since an
        argv is visible to every user of the host (``ps``, /proc) and is
        logged (masked). It is never logged. A non-zero exit raises
        :class:`CommandFailed` when ``check``; a command outliving
        ``timeout`` raises CommandTimeout. ``log_output=False`` for a
        command whose output is itself a secret (a kubeconfig): it is
        neither logged nor put in an error.
        """
        command = sshcmd.build_command(argv)
        secrets = list(secrets)
        if isinstance(stdin, str) and stdin.strip():
            secrets.append(stdin.strip())  # echoed back: still masked
        shown = self._mask(command, secrets)
        self.connect()
        assert self._client is not None
        timeout = self.settings.command_timeout if timeout is None else timeout
        LOG.info("SSH %s: running %s", self.where, shown)
        transport = self._client.get_transport()
        if transport is None or not transport.is_active():
            raise errors.SshError(host=self.where, reason="the session ended")
        try:
            channel = transport.open_session(
                timeout=self.settings.connect_timeout
            )
        except (OSError, EOFError, paramiko.SSHException) as exc:
            LOG.warning("SSH %s: no channel: %s", self.where, exc)
            raise errors.SshError(
                host=self.where,
                reason=f"the server opened no channel for {shown}",
            ) from None
        try:
            channel.exec_command(command)
            if stdin:
                _feed(channel, stdin, self.where)
            channel.shutdown_write()
            out, err, done = _collect(channel, timeout)
            # -1: the connection closed without an exit status.
            status = channel.recv_exit_status() if done else -1
        except (OSError, EOFError, paramiko.SSHException) as exc:
            LOG.warning("SSH %s: %s was cut off: %s", self.where, shown, exc)
            raise errors.SshError(
                host=self.where,
                reason=f"{shown} was cut off (the SSH connection broke)",
            ) from None
        finally:
            channel.close()
        result = Result(
            exit_status=status,
            stdout=out.decode("utf-8", "replace"),
            stderr=err.decode("utf-8", "replace"),
        )
        for name, text in (
            ("stdout", result.stdout),
            ("stderr", result.stderr),
        ):
            if text and log_output:
                LOG.debug(
                    "SSH %s: %s of %s:\n%s",
                    self.where,
                    name,
                    shown,
                    self._mask(text, secrets),
                )
        tail = self._mask(
            sshcmd.output_tail(
                result.stdout if log_output else "",
                result.stderr,
                self.settings.output_tail_lines,
            ),
            secrets,
        )
        if not done:
            raise errors.CommandTimeout(
                host=self.where, command=shown, timeout=timeout, tail=tail
            )
        if check and status != 0:
            raise errors.CommandFailed(
                host=self.where, command=shown, exit_status=status, tail=tail
            )
        LOG.info("SSH %s: %s exited with %d", self.where, shown, status)
        return result


def _feed(channel: paramiko.Channel, stdin: str | bytes, where: str) -> None:
    """Write ``stdin`` to the command. A command may end without reading
    it all (a script failing its preflight check): the closed channel is
    then no error of its own, the exit status and output tell what
    happened (a connection that really broke ends without a status)."""
    try:
        channel.sendall(stdin.encode() if isinstance(stdin, str) else stdin)
    except OSError as exc:
        if not channel.closed:
            raise
        LOG.debug(
            "SSH %s: the command ended before its input (%s)", where, exc
        )


def _collect(
    channel: paramiko.Channel, timeout: float
) -> tuple[bytes, bytes, bool]:
    """Read stdout and stderr until the command exits or time runs out.

    Both streams are drained together so a command filling one pipe's
    window cannot block; returns (stdout, stderr, exited).
    """
    out, err = bytearray(), bytearray()
    deadline = time.monotonic() + timeout
    while True:
        while channel.recv_ready():
            out += channel.recv(65536)
        while channel.recv_stderr_ready():
            err += channel.recv_stderr(65536)
        drained = not (channel.recv_ready() or channel.recv_stderr_ready())
        ended = channel.eof_received or channel.closed
        if channel.exit_status_ready() and drained and ended:
            return bytes(out), bytes(err), True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return bytes(out), bytes(err), False
        with contextlib.suppress(OSError, ValueError, socket.error):
            select.select([channel], [], [], min(remaining, 0.5))
