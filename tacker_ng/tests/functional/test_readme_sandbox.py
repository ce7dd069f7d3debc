"""README's "Try it", as a newcomer runs it: tacker-ng-all with
``--sandbox`` on a fresh state directory, then the README's console
block in one bash session, in order. It must end with the CNF
instantiated (COMPLETED) and scaled, healed and terminated, and a lease
ACTIVE on the simulated Nova. The wall time from the start of
tacker-ng-all to the COMPLETED instantiate is printed (not asserted);
the install, which run-embedded.sh does once, is the test venv's.
"""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import requests

from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional import services
from tacker_ng.tests.functional.test_user_docs import console_commands

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.rst"


def readme_try_it() -> list[str]:
    """The commands of README's "Try it" console block."""
    section = README.read_text().split("Try it\n======\n", 1)[1]
    section = section.split("\n=====", 1)[0]
    return console_commands(section)


def test_readme_try_it_on_the_sandbox(tmp_path):
    commands = readme_try_it()
    assert commands[0].startswith("export PATH=$PWD/.venv/bin:$PATH")
    home = tmp_path / "home"
    home.mkdir()
    port = services.free_port()
    conf = procs.write_config(
        str(tmp_path / "sandbox.conf"),
        {"api": {"port": port}, "sandbox": {"enabled": True}},
    )
    env = {**os.environ, "HOME": str(home)}
    env.pop("XDG_STATE_HOME", None)
    env.pop("OS_TACKER_API_VERSION", None)
    venv_bin = str(Path(sys.executable).parent)
    # Each command's end is stamped (seconds since the epoch) on stderr.
    script = "\n".join(
        c.replace("$PWD/.venv/bin", venv_bin).replace(":9890", f":{port}")
        + f'\necho "@@ {i} $(date +%s.%N)" >&2'
        for i, c in enumerate(commands)
    )
    with procs.processes() as started:
        start = time.time()
        proc = procs.Process(
            "tacker-ng-all",
            [procs.script("tacker-ng-all"), "--config-file", conf],
            str(tmp_path / "all.log"),
            env=env,
        )
        started.append(proc)
        url = f"http://127.0.0.1:{port}"
        procs.wait_http(f"{url}/", proc)
        assert "SANDBOX" in procs.wait_for(
            lambda: "paste in order" in proc.log_text() and proc.log_text(),
            30,
            "the sandbox banner",
        )
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        out = done.stdout + done.stderr
        assert done.returncode == 0, out
        instantiated = re.search(r"INSTANTIATE \S+ COMPLETED", out)
        assert instantiated, out
        for op in ("SCALE", "HEAL", "TERMINATE"):
            assert re.search(rf"{op} \S+ COMPLETED", out), (op, out)
        password = (
            (home / ".local/state/tacker-ng/admin-password")
            .read_text()
            .strip()
        )
        auth = ("admin", password)
        resp = requests.get(f"{url}/", timeout=10)
        assert resp.headers["X-Tacker-Ng-Sandbox"] == "true"

        def lease_status():
            leases = requests.get(
                f"{url}/reservation/v1/leases", auth=auth, timeout=10
            ).json()["leases"]
            return leases[0]["status"] if leases else None

        assert procs.wait_for(
            lambda: lease_status() == "ACTIVE", 60, "the lease to start"
        )
        ends = {
            int(i): float(t)
            for i, t in re.findall(r"^@@ (\d+) (\S+)$", out, re.M)
        }
        step = next(
            i for i, c in enumerate(commands) if "vnflcm instantiate" in c
        )
        print(
            f"\nREADME Try it: instantiate COMPLETED {ends[step] - start:.1f}"
            f" s after tacker-ng-all started; all {len(commands)} commands "
            f"done after {ends[len(commands) - 1] - start:.1f} s"
        )
