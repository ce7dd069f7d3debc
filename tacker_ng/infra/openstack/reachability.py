"""Is an OpenStack VIM usable now? One token validation at its Keystone.

The token may come from the per-credentials cache
(:mod:`.auth_cache`), so a plain token fetch could answer from memory;
asking Keystone to validate it (``GET /v3/auth/tokens`` with the token as
its own subject) proves both that Keystone answers and that the
credentials still hold (a changed password revokes the user's tokens).
"""

from __future__ import annotations

from typing import Any

from keystoneauth1 import exceptions as ks_exc

from tacker_ng import exceptions
from tacker_ng.infra.openstack import session as os_session


def probe(vim: dict[str, Any]) -> str | None:
    """None when the VIM answers and accepts its credentials, else why
    not, in tacker-ng's words (no address, no library text)."""
    try:
        session, _ = os_session.make_session(vim)
        token = session.get_token()
        endpoint = vim["interfaceInfo"]["endpoint"].rstrip("/")
        resp = session.get(
            f"{endpoint}/auth/tokens",
            headers={"X-Subject-Token": token},
            authenticated=True,
            raise_exc=False,
        )
    except exceptions.TackerNgError as exc:
        return str(exc.detail)
    except ks_exc.ClientException as exc:
        return f"Keystone of the VIM failed the check ({type(exc).__name__})"
    if resp.status_code == 200:
        return None
    if resp.status_code in (401, 404):
        return (
            "Keystone of the VIM no longer accepts its token (HTTP "
            f"{resp.status_code}): the credentials may have changed"
        )
    return f"Keystone of the VIM answered HTTP {resp.status_code}"
