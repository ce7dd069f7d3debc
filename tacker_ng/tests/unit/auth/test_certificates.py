"""Certificate thumbprints (RFC 8705 and Keystone's) and where a
request's client certificate is found."""

import base64
import hashlib
import ssl

from tacker_ng.auth import certificates
from tacker_ng.tests.unit.auth import certs


class _Sock:
    def __init__(self, der):
        self.der = der

    def getpeercert(self, binary_form=False):
        return self.der


def test_rfc8705_and_keystone_thumbprints_bind():
    der = certs.der()
    rfc = base64.urlsafe_b64encode(hashlib.sha256(der).digest()).decode()
    pem = ssl.DER_cert_to_PEM_cert(der).encode()
    keystone = base64.urlsafe_b64encode(hashlib.sha256(pem).digest()).decode()
    for thumb in (rfc.rstrip("="), rfc, keystone):
        assert certificates.bound_to(thumb, der)
    assert not certificates.bound_to(rfc, certs.der())
    assert not certificates.bound_to(rfc, None)
    assert not certificates.bound_to("", der)


def test_peer_certificate_from_gunicorn_or_cheroot():
    der = certs.der()
    assert (
        certificates.peer_certificate({"gunicorn.socket": _Sock(der)}) == der
    )
    pem = ssl.DER_cert_to_PEM_cert(der).strip()
    assert certificates.peer_certificate({"SSL_CLIENT_CERT": pem}) == der
    assert (
        certificates.peer_certificate({"gunicorn.socket": _Sock(None)}) is None
    )
    assert certificates.peer_certificate({"SSL_CLIENT_CERT": "junk"}) is None
    # A header cannot pose as the certificate.
    assert certificates.peer_certificate({"HTTP_SSL_CLIENT_CERT": pem}) is None
