"""``tools/demo.sh`` runs green and its output tells the story.

The demo is what the README's "Try it" and doc/source/install/demo.rst
show, so running it here keeps those commands from drifting. This test
session already holds a lane of minicloud (the ``minicloud`` fixture);
the demo runs on that lane and is told so instead of waiting for its
lock. Its ``openstack`` commands run through the fork server
(``DEMO_OPENSTACK``, forkclient.py): each one is the same
``openstackclient.shell.main()`` on the demo's own stdout and stderr,
without 3 s of imports per command.
"""

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional import services

# Two VNFs, a lease and their clean-up: about 6 minutes on a busy host.
pytestmark = [pytest.mark.minicloud, pytest.mark.timeout(1500)]
REPO = Path(__file__).resolve().parents[4]


@contextlib.contextmanager
def _warm_openstack(tmp: Path) -> Iterator[Path]:
    """An ``openstack`` stand-in that runs each command as a fork of a
    warm server (forkserver.py --socket)."""
    sock = tmp / "osc.sock"
    server = subprocess.Popen(
        [sys.executable, "-m", "tacker_ng.tests.functional.osc.forkserver",
         "--socket", str(sock)],
        cwd=REPO,
    )  # fmt: skip
    try:
        procs.wait_for(sock.exists, 120, "the openstack fork server")
        client = Path(__file__).with_name("forkclient.py")
        command = tmp / "openstack"
        command.write_text(
            f'#!/bin/sh\nexec "{sys.executable}" -I -S "{client}" '
            f'"{sock}" "$@"\n'
        )
        command.chmod(0o755)
        yield command
    finally:
        server.kill()
        server.wait(30)


def test_demo_runs_green(minicloud_clean, tmp_path):
    cloud = minicloud_clean
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    demo_tmp = tmp_path / "demo"
    demo_tmp.mkdir()
    with _warm_openstack(bin_dir) as openstack:
        _run_demo(cloud, demo_tmp, openstack)


def _run_demo(cloud, tmp_path: Path, openstack: Path) -> None:
    env = {
        **os.environ,
        "TACKER_NG_VENV": sys.prefix,
        "DEMO_PORT": str(services.free_port()),
        "DEMO_LANE": str(cloud.lane),
        "DEMO_MINICLOUD_LOCKED": "1",
        "DEMO_OPENSTACK": str(openstack),
        "TMPDIR": str(tmp_path),
    }
    done = subprocess.run(
        [str(REPO / "tools" / "demo.sh")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-6000:]
    steps = re.findall(r"==> (.*?)\x1b", out)
    assert len(steps) == 15, steps
    assert "Onboarding State  | ONBOARDED" in out
    # The zone reselection around full AZ-1 is visible in the output.
    az = {z: re.escape(cloud.az(z)) for z in cloud.zones()}
    others = "|".join(az[z] for z in cloud.zones() if z != "AZ-1")
    assert re.search(
        rf"zone reselection \d+/\d+: \S+ from {az['AZ-1']} to ({others})\b",
        out,
    )
    # instantiate, scale, scale-to-level, heal, terminate; then the
    # leased VNF's instantiate and terminate
    assert len(re.findall(r"\| Operation State \| COMPLETED +\|", out)) == 7
    # The leased VNF: its 3 VNFCs on the 3 reserved hosts, one per zone,
    # in the reservation's anti-affinity server group.
    assert "(anti-affinity):" in out
    placed = re.findall(r": ACTIVE on host (\S+), zone (\S+)", out)
    leased = ("AZ-2", "AZ-3", "AZ-4")
    assert sorted(placed) == [
        (cloud.hosts(z)[0], cloud.az(z)) for z in leased
    ], placed
    # The observer saw them ACTIVE in those zones, without drift. The
    # compute host shows only when the VIM's user may see it (Nova shows
    # it to admins; the demo's VIM user is project vnf's member: '-').
    section = out[out.index("==> What the observer sees") :]
    section = section[: section.index("==> Terminate and delete the leased")]
    observed = re.findall(r"\| ACTIVE +\| (\S+) +\| (\S+) +\| - +\|", section)
    assert sorted(z for _, z in observed) == [cloud.az(z) for z in leased], (
        section
    )
    hosts = {z: h for h, z in placed}
    assert all(h in ("-", hosts[z]) for h, z in observed), section
    assert "Traceback" not in out
    # The demo removed its files (the VNF and package were deleted by the
    # CLI; tacker-ng was stopped).
    assert not list(tmp_path.glob("tacker-ng-demo.*"))
