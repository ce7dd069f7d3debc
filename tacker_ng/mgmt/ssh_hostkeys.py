"""Host key verification of the SSH executor: pinned, known, or TOFU.

A host's key is checked before any credential is sent. Three sources, in
this order: a key or fingerprint pinned by the caller (the VNFM generated
the VNFC's host key, so it knows it before the first connection), the
operator's known_hosts file, or, only when the operator turned it on,
trust on first use (recorded in that file; a changed key is still refused).
"""

import base64
import binascii
import os

import paramiko
from oslo_log import log as logging

from tacker_ng.mgmt import ssh_errors as errors
from tacker_ng.mgmt import sshcmd

LOG = logging.getLogger(__name__)


class HostKeyMismatch(paramiko.SSHException):
    """Raised inside paramiko's connect by our policies (never retried)."""


class _PinnedFingerprint(paramiko.RejectPolicy):
    """Accept exactly the key with the pinned fingerprint, refuse others."""

    def __init__(self, expected: str) -> None:
        self.expected = expected

    def missing_host_key(
        self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey
    ) -> None:
        got = sshcmd.fingerprint(key.asbytes())
        if got != self.expected:
            raise HostKeyMismatch(
                f"it presented {key.get_name()} key {got}, expected "
                f"{self.expected}"
            )


class _Unknown(paramiko.RejectPolicy):
    """The default: a host without a known key is refused."""

    def missing_host_key(
        self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey
    ) -> None:
        raise HostKeyMismatch(
            f"its {key.get_name()} key "
            f"{sshcmd.fingerprint(key.asbytes())} is not pinned for it nor "
            "in [mgmt_ssh] known_hosts_file, and trust_on_first_use is off"
        )


class _TrustOnFirstUse(paramiko.AutoAddPolicy):
    def missing_host_key(
        self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey
    ) -> None:
        LOG.warning(
            "SSH: trusting the %s key %s of %s on first use "
            "([mgmt_ssh] trust_on_first_use)",
            key.get_name(),
            sshcmd.fingerprint(key.asbytes()),
            hostname,
        )
        super().missing_host_key(client, hostname, key)


def _known_hosts_name(host: str, port: int) -> str:
    return host if port == 22 else f"[{host}]:{port}"


def new_client(
    host: str,
    port: int,
    host_key: str | None,
    *,
    known_hosts_file: str | None,
    trust_on_first_use: bool,
) -> paramiko.SSHClient:
    """An SSHClient that accepts only the host keys described above.

    ``host_key`` is an OpenSSH public key line (``ssh-ed25519 AAAA...``)
    or its fingerprint (``SHA256:...``); when given, nothing else counts.
    """
    client = paramiko.SSHClient()
    if host_key and host_key.startswith("SHA256:"):
        client.set_missing_host_key_policy(_PinnedFingerprint(host_key))
        return client
    if host_key:
        key_type, _, rest = host_key.partition(" ")
        try:
            blob = base64.b64decode(rest.split()[0], validate=True)
            key = paramiko.PKey.from_type_string(key_type, blob)
        except (
            IndexError,
            ValueError,
            binascii.Error,
            paramiko.SSHException,
        ) as exc:
            raise errors.HostKeyRejected(
                host=_known_hosts_name(host, port),
                reason=f"the pinned host key is not an OpenSSH public "
                f"key line ({exc})",
            ) from exc
        client.get_host_keys().add(
            _known_hosts_name(host, port), key_type, key
        )
        client.set_missing_host_key_policy(_Unknown())
        return client
    path = known_hosts_file
    if path and trust_on_first_use and not os.path.exists(path):
        with open(path, "a", encoding="utf-8"):
            pass
    if path and os.path.exists(path):
        client.load_host_keys(path)
    if trust_on_first_use and path:
        client.set_missing_host_key_policy(_TrustOnFirstUse())
    else:
        client.set_missing_host_key_policy(_Unknown())
    return client


def pinned_key(vnfc_resource_info: dict) -> str | None:
    """The host key to pin for a VNFC: the public key the VNFM generated
    and handed to its server in user data (``metadata.sshHostKey`` of its
    VnfcResourceInfo, set by the OpenStack driver for the VDUs of
    ``additionalParams.vnfcSshHostKeys``); None when it has none."""
    meta = vnfc_resource_info.get("metadata") or {}
    key = meta.get("sshHostKey")
    return key if isinstance(key, str) and key else None
