"""Is a Kubernetes VIM usable now? One authenticated discovery call
(``GET /api``), which an anonymous client may not make, so an answer
proves the API server is there and the credentials still hold."""

from __future__ import annotations

from typing import Any

import urllib3
from kubernetes import client as k8s_client

from tacker_ng import exceptions
from tacker_ng.infra.kubernetes import connection


def probe(vim: dict[str, Any]) -> str | None:
    """None when the cluster answers and accepts the credentials, else
    why not, in tacker-ng's words (no address, no library text)."""
    try:
        with connection.api_client(vim) as api:
            k8s_client.CoreApi(api).get_api_versions(_request_timeout=10)
    except exceptions.TackerNgError as exc:
        return str(exc.detail)
    except k8s_client.ApiException as exc:
        if exc.status in (401, 403):
            return (
                "the Kubernetes API server refused the credentials "
                f"(HTTP {exc.status})"
            )
        return f"the Kubernetes API server answered HTTP {exc.status}"
    except urllib3.exceptions.SSLError:
        return "the TLS handshake with the Kubernetes API server failed"
    except (urllib3.exceptions.HTTPError, OSError):
        return "the Kubernetes API server could not be reached"
    return None
