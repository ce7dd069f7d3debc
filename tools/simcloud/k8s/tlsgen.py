"""A throw-away CA, a server certificate and a client certificate, made at
start with ``cryptography`` (like kubeadm's PKI, in miniature)."""

from __future__ import annotations

import datetime
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _name(cn: str, org: str | None = None) -> x509.Name:
    attrs = [x509.NameAttribute(NameOID.COMMON_NAME, cn)]
    if org:
        attrs.insert(0, x509.NameAttribute(NameOID.ORGANIZATION_NAME, org))
    return x509.Name(attrs)


def _builder(
    subject: x509.Name, issuer: x509.Name, public_key: object, days: int
) -> x509.CertificateBuilder:
    start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=5)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + datetime.timedelta(days=days))
    )


def make_pki(directory: Path, hosts: list[str]) -> dict[str, Path]:
    """Write ca.crt, server.{crt,key}, client.{crt,key}; return paths."""
    directory.mkdir(parents=True, exist_ok=True)
    ca_key = _key()
    ca_name = _name("simk8s-ca")
    ca_cert = (
        _builder(ca_name, ca_name, ca_key.public_key(), 3650)
        .add_extension(
            x509.BasicConstraints(ca=True, path_length=0), critical=True
        )
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(ca_key, hashes.SHA256())
    )
    sans: list[x509.GeneralName] = []
    for host in dict.fromkeys(
        hosts
        + [
            "localhost",
            "kubernetes",
            "kubernetes.default",
            "kubernetes.default.svc",
            "127.0.0.1",
        ]
    ):
        try:
            sans.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            sans.append(x509.DNSName(host))
    server_key = _key()
    server_cert = (
        _builder(
            _name("kube-apiserver"), ca_name, server_key.public_key(), 365
        )
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    client_key = _key()
    client_cert = (
        _builder(
            _name("kubernetes-admin", "system:masters"),
            ca_name,
            client_key.public_key(),
            365,
        )
        .add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    files = {
        "ca": (
            directory / "ca.crt",
            ca_cert.public_bytes(serialization.Encoding.PEM),
        ),
        "server_cert": (
            directory / "server.crt",
            server_cert.public_bytes(serialization.Encoding.PEM),
        ),
        "server_key": (directory / "server.key", _pem_key(server_key)),
        "client_cert": (
            directory / "client.crt",
            client_cert.public_bytes(serialization.Encoding.PEM),
        ),
        "client_key": (directory / "client.key", _pem_key(client_key)),
    }
    for path, data in files.values():
        path.write_bytes(data)
        if path.suffix == ".key":
            path.chmod(0o600)
    return {name: path for name, (path, _) in files.items()}
