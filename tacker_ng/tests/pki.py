"""A throw-away PKI for tests of TLS and mutual TLS: a CA, server
certificates for loopback addresses and client certificates, written as
PEM files (``cryptography``; nothing leaves the test's directory)."""

from __future__ import annotations

import dataclasses
import datetime
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


@dataclasses.dataclass(frozen=True)
class Issued:
    """A certificate and its key as files, and the certificate's DER."""

    cert: Path
    key: Path
    der: bytes

    @property
    def pair(self) -> tuple[str, str]:
        """``(cert, key)`` as requests' ``cert=`` wants it."""
        return str(self.cert), str(self.key)


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _write(directory: Path, stem: str, cert, key) -> Issued:
    directory.mkdir(parents=True, exist_ok=True)
    cert_path = directory / f"{stem}.crt"
    key_path = directory / f"{stem}.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    key_path.chmod(0o600)
    return Issued(
        cert_path, key_path, cert.public_bytes(serialization.Encoding.DER)
    )


class CertificateAuthority:
    """A CA that issues server and client certificates into ``directory``."""

    def __init__(self, directory: Path, name: str = "test-ca") -> None:
        self.directory = Path(directory)
        self.name = name
        self._key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        self._cert = (
            x509.CertificateBuilder()
            .subject_name(_name(name))
            .issuer_name(_name(name))
            .public_key(self._key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(
                x509.BasicConstraints(ca=True, path_length=0), critical=True
            )
            .sign(self._key, hashes.SHA256())
        )
        self.ca = _write(self.directory, name, self._cert, self._key).cert

    def _issue(self, stem: str, cn: str, usage, sans) -> Issued:
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        builder = (
            x509.CertificateBuilder()
            .subject_name(_name(cn))
            .issuer_name(self._cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(
                x509.BasicConstraints(ca=False, path_length=None),
                critical=True,
            )
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        )
        if sans:
            builder = builder.add_extension(
                x509.SubjectAlternativeName(sans), critical=False
            )
        cert = builder.sign(self._key, hashes.SHA256())
        return _write(self.directory, stem, cert, key)

    def server(self, host: str = "127.0.0.1") -> Issued:
        """A server certificate for ``host`` (an IP address or a name)."""
        try:
            san: x509.GeneralName = x509.IPAddress(ipaddress.ip_address(host))
        except ValueError:
            san = x509.DNSName(host)
        return self._issue(
            f"{self.name}-server-{host}",
            host,
            ExtendedKeyUsageOID.SERVER_AUTH,
            [san],
        )

    def client(self, cn: str) -> Issued:
        """A client certificate with common name ``cn``."""
        return self._issue(
            f"{self.name}-client-{cn}", cn, ExtendedKeyUsageOID.CLIENT_AUTH, []
        )
