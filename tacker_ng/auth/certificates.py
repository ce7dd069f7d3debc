"""Client certificates of mutual TLS and the tokens bound to them.

The API servers verify the client's chain during the TLS handshake
(:mod:`tacker_ng.auth.tls`); here the verified certificate is read back
for a request and compared with the ``x5t#S256`` confirmation of a
certificate-bound access token (RFC 8705 section 3.1).

RFC 8705 defines the thumbprint as base64url(SHA-256(DER)) without
padding. Keystone's OAuth 2.0 endpoint hashes the PEM text instead (and
keeps the padding); both forms are accepted so that tokens of either
issuer bind.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ssl


def peer_certificate(environ: dict) -> bytes | None:
    """The DER client certificate of the request's TLS connection, or
    None (plain HTTP, or TLS without a client certificate).

    gunicorn (tacker-ng-api) hands over its socket; cheroot
    (tacker-ng-all) puts the PEM into ``SSL_CLIENT_CERT``. Neither key can
    be sent by a client: only ``HTTP_*`` keys come from headers.
    """
    sock = environ.get("gunicorn.socket")
    getpeercert = getattr(sock, "getpeercert", None)
    if getpeercert is not None:
        try:
            der = getpeercert(binary_form=True)
        except (ValueError, OSError):
            der = None
        if der:
            return der
    pem = environ.get("SSL_CLIENT_CERT")
    if pem:
        try:
            return ssl.PEM_cert_to_DER_cert(pem.strip() + "\n")
        except ValueError:
            return None
    return None


def thumbprints(der: bytes) -> tuple[str, ...]:
    """Every accepted ``x5t#S256`` form of the certificate ``der``."""
    rfc8705 = base64.urlsafe_b64encode(hashlib.sha256(der).digest())
    pem = ssl.DER_cert_to_PEM_cert(der).encode("ascii")
    keystone = base64.urlsafe_b64encode(hashlib.sha256(pem).digest())
    return (
        rfc8705.decode().rstrip("="),
        rfc8705.decode(),
        keystone.decode(),
    )


def bound_to(confirmation: str, der: bytes | None) -> bool:
    """Whether a token confirmed by thumbprint ``confirmation`` may be
    used over a connection that presented ``der``."""
    if not der or not confirmation:
        return False
    given = confirmation.encode()
    return any(
        hmac.compare_digest(given, t.encode()) for t in thumbprints(der)
    )
