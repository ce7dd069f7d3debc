"""nova-lite (tools/simcloud/nova_lite) as a child process for the tests.

:func:`running` starts ``serve.py`` on a free port, waits for its ready
file and yields a :class:`NovaLite` with what the file says (auth URL,
admin credentials, service project, ``[reservation_nova]`` options) and
real python-novaclient clients on it; on exit it stops the process with
SIGTERM and records its exit status.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3
from novaclient import client as nova_client

from tacker_ng.tests.functional import processes as procs

REPO = Path(__file__).resolve().parents[4]
SERVE = REPO / "tools" / "simcloud" / "nova_lite" / "serve.py"
MICROVERSION = "2.79"


@dataclasses.dataclass
class NovaLite:
    info: dict[str, Any]
    process: procs.Process
    ready_file: Path
    #: Exit status once stopped.
    returncode: int | None = None

    @property
    def reservation_nova(self) -> dict[str, str]:
        """tacker-ng's ``[reservation_nova]`` options for this simulator."""
        return dict(self.info["reservation_nova"])

    def session(self, username="admin", password=None, project="admin"):
        auth = v3.Password(
            auth_url=self.info["auth_url"],
            username=username,
            password=password or self.info["admin"]["password"],
            project_name=project,
            user_domain_name="Default",
            project_domain_name="Default",
        )
        return ks_session.Session(auth=auth)

    def nova(self, *args, **kwargs):
        """python-novaclient at 2.79 (admin in ``admin`` by default)."""
        return nova_client.Client(
            MICROVERSION,
            session=self.session(*args, **kwargs),
            region_name=self.info["region_name"],
        )


@contextlib.contextmanager
def running(tmp: Path, *args: str) -> Iterator[NovaLite]:
    """Run ``serve.py`` with ``args`` for the ``with`` block."""
    tmp.mkdir(parents=True, exist_ok=True)
    ready = tmp / "nova-lite.json"
    proc = procs.Process(
        "nova-lite",
        [
            sys.executable,
            str(SERVE),
            "--port",
            "0",
            "--ready-file",
            str(ready),
            *args,
        ],
        str(tmp / "nova-lite.log"),
    )
    sim = None
    try:

        def is_ready() -> bool:
            proc.assert_running()
            return ready.exists()

        procs.wait_for(is_ready, 30, "nova-lite's ready file", interval=0.1)
        sim = NovaLite(json.loads(ready.read_text()), proc, ready)
        yield sim
    finally:
        code = proc.stop()
        if sim is not None:
            sim.returncode = code
