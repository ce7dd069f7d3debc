"""Run the real ``openstack`` command against a tacker-ng deployment.

Standalone form: ``--os-auth-type http_basic --os-endpoint URL``, exactly
what the user guide shows, in a child process (a fork of a warm server,
see forkserver.py), so that the installed plugins (tacker-ng's,
python-tackerclient's, python-blazarclient's) are loaded the way a
user's shell loads them.
"""

import json
import os
import subprocess
from typing import Any

from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.osc import forkserver


class Cli:
    """``openstack`` with one endpoint and http_basic credentials."""

    def __init__(self, endpoint: str, user: str, password: str) -> None:
        #: The console script and its auth options (tests that need the
        #: script itself, e.g. on a terminal, run it with these).
        self.base = [
            procs.script("openstack"),
            "--os-auth-type",
            "http_basic",
            "--os-endpoint",
            endpoint,
            "--os-username",
            user,
            "--os-password",
            password,
        ]

    def run(
        self,
        *args: str,
        check: bool = True,
        timeout: float = 120,
        env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess:
        """``openstack <args>``; ``env`` adds to this process's
        environment (e.g. ``OS_TACKER_API_VERSION``)."""
        done = forkserver.run(
            [*self.base[1:], *args],
            env={**os.environ, **env} if env else None,
            timeout=timeout,
        )
        if check and done.returncode:
            raise AssertionError(
                f"openstack {' '.join(args)} exited {done.returncode}:\n"
                f"{done.stdout}\n{done.stderr}"
            )
        return done

    def json(self, *args: str) -> Any:
        """Run with ``-f json``; the decoded output."""
        out = self.run(*args, "-f", "json").stdout
        # Some commands print a banner line before the JSON.
        start = min(i for i in (out.find("{"), out.find("[")) if i >= 0)
        return json.loads(out[start:])

    def lcm(self, *args: str, **kw) -> subprocess.CompletedProcess:
        """python-tackerclient's vnflcm commands on the v2 API."""
        return self.run("--os-tacker-api-version", "2", *args, **kw)

    def lcm_json(self, *args: str) -> Any:
        return self.json("--os-tacker-api-version", "2", *args)
