"""RFC 6750 bearer tokens: reading one from a request and the answers
that refuse it.

A refusal is a ProblemDetails body (the API's error format) with the
``WWW-Authenticate: Bearer`` challenge RFC 6750 section 3 asks for: no
error code when the request carried no token, ``invalid_token`` for a
token that is malformed, expired, revoked, for another audience or bound
to another certificate, ``insufficient_scope`` (403) for a valid token
that grants no role here. The description never repeats the token.
"""

from __future__ import annotations

import hashlib
import json

import webob

REALM = "tacker-ng"
PROBLEM_JSON = "application/problem+json"


def token_from(environ: dict) -> str | None:
    """The bearer token of the ``Authorization`` header, if any."""
    header = environ.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    token = token.strip()
    return token or None


def fingerprint(token: str) -> str:
    """A short, non-reversible name of a token for logs and cache keys
    (tokens themselves are never logged)."""
    return hashlib.sha256(token.encode()).hexdigest()[:16]


def challenge(error: str | None = None, description: str = "") -> str:
    """The ``WWW-Authenticate`` value for ``error`` (RFC 6750 3.1)."""
    parts = [f'Bearer realm="{REALM}"']
    if error:
        parts.append(f'error="{error}"')
        if description:
            safe = description.replace("\\", "").replace('"', "'")
            parts.append(f'error_description="{safe}"')
    return ", ".join(parts)


def _problem(status: int, title: str, detail: str, header: str):
    body = {"type": "about:blank", "title": title, "status": status}
    body["detail"] = detail
    resp = webob.Response(
        status=status,
        body=json.dumps(body).encode(),
        content_type=PROBLEM_JSON,
        charset=None,
    )
    resp.headers["WWW-Authenticate"] = header
    return resp


def unauthorized(error: str | None, description: str) -> webob.Response:
    """401: no token (``error`` None) or ``invalid_token``."""
    detail = description or "A bearer token is required."
    return _problem(401, "Unauthorized", detail, challenge(error, detail))


def insufficient_scope(description: str) -> webob.Response:
    """403: a valid token that grants nothing here."""
    return _problem(
        403,
        "Forbidden",
        description,
        challenge("insufficient_scope", description),
    )


def unavailable(description: str) -> webob.Response:
    """503: the authorization server could not decide (not the caller's
    fault, and not ours to call a 500)."""
    body = {
        "type": "about:blank",
        "title": "Service Unavailable",
        "status": 503,
        "detail": description,
    }
    resp = webob.Response(
        status=503,
        body=json.dumps(body).encode(),
        content_type=PROBLEM_JSON,
        charset=None,
    )
    resp.headers["Retry-After"] = "5"
    return resp


class BearerChallenge:
    """Put the RFC 6750 challenge on 401 answers of an inner filter that
    speaks another dialect (keystonemiddleware says ``Keystone uri=``)."""

    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        had_token = token_from(environ) is not None

        def rewrite(status, headers, exc_info=None):
            if status.startswith("401"):
                headers = [
                    (k, v)
                    for k, v in headers
                    if k.lower() != "www-authenticate"
                ]
                error = "invalid_token" if had_token else None
                headers.append(
                    (
                        "WWW-Authenticate",
                        challenge(
                            error,
                            "The access token is invalid, expired or revoked."
                            if had_token
                            else "",
                        ),
                    )
                )
            return start_response(status, headers, exc_info)

        return self.app(environ, rewrite)
