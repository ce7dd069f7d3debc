"""The user guides' console examples run as written against a real API.

Every ``.. code-block:: console`` block of the guides listed in GUIDES is
run, in order, in one bash session per guide (``set -euo pipefail``):
lines starting with ``$ `` begin a command, the following lines belong to
it. The docs cannot drift from the API without this test failing.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tacker_ng.tests.functional import deployment, services
from tacker_ng.tests.functional.receiver import Receiver

ROOT = Path(__file__).resolve().parents[3]
USER_DOCS = ROOT / "doc" / "source" / "user"
#: Guides in the order a newcomer reads them (later ones use $PKG).
GUIDES = ("vnf-packages.rst", "vnf-lcm.rst", "package-notifications.rst")
_BLOCK = re.compile(
    r"^\.\. code-block:: console\n\n((?:[ ]{3,}.*\n|\n)+)", re.M
)


def console_commands(text: str) -> list[str]:
    """The commands of every console block of an .rst text."""
    commands: list[str] = []
    for block in _BLOCK.findall(text):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        for line in lines:
            if line.startswith("$ "):
                commands.append(line[2:])
            elif commands:
                commands[-1] += "\n" + line
    return commands


#: States an ``until`` loop must stop at besides the one it waits for:
#: a package can end ERROR, an op occ in any of its final states.
_LOOP_ENDS = {
    "onboardingState": {"ONBOARDED", "ERROR"},
    "operationState": {"COMPLETED", "FAILED_TEMP", "FAILED", "ROLLED_BACK"},
}


def test_every_polling_loop_stops_at_every_end():
    """A loop waiting for ONBOARDED alone spins for ever on a package
    that ended ERROR (a second onboarding of one vnfdId does)."""
    loops = [
        c
        for guide in sorted(USER_DOCS.glob("*.rst"))
        for c in console_commands(guide.read_text())
        if c.startswith("until ")
    ]
    assert len(loops) >= 3
    for loop in loops:
        polled = [a for a in _LOOP_ENDS if a in loop]
        assert polled, loop
        for attribute in polled:
            for state in _LOOP_ENDS[attribute]:
                assert state in loop, (state, loop)


def test_loopback_recipe_keeps_the_other_default_networks_denied():
    """vnf-lcm.rst's line for allowing a loopback callbackUri is the
    default of [DEFAULT] outbound_deny_networks without loopback."""
    from tacker_ng.conf import default

    opt = next(o for o in default.opts if o.name == "outbound_deny_networks")
    text = (USER_DOCS / "vnf-lcm.rst").read_text()
    line = re.search(r"^ +outbound_deny_networks = (.*)$", text, re.M)
    assert line, "vnf-lcm.rst lost the outbound_deny_networks example"
    loopback = {"127.0.0.0/8", "::1/128"}
    assert line.group(1).split(",") == [
        net for net in opt.default if net not in loopback
    ]


def test_every_guide_with_console_blocks_runs():
    """A guide that gains a console block joins the run (in GUIDES, in
    reading order), so every documented command runs in one sequence and
    collisions between guides show; README's block runs on the sandbox
    (test_readme_sandbox.py)."""
    with_blocks = {
        guide.name
        for guide in USER_DOCS.glob("*.rst")
        if console_commands(guide.read_text())
    }
    assert with_blocks == set(GUIDES)


def test_console_blocks_are_found():
    """The extractor sees the walkthroughs (else the test below would
    pass by running nothing)."""
    commands = [
        c
        for guide in GUIDES
        for c in console_commands((USER_DOCS / guide).read_text())
    ]
    assert len(commands) >= 15
    assert any("package_content" in c for c in commands)
    assert any("/rollback" in c for c in commands)


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("docs")
    with (
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(tmp, sql_url) as dep,
    ):
        yield dep


def test_user_guides_run_as_written(api, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "samples").symlink_to(ROOT / "samples")
    (work / "tools").symlink_to(ROOT / "tools")
    script = ["set -euo pipefail"]
    for guide in GUIDES:
        script.append(f"echo '### {guide}'")
        script += console_commands((USER_DOCS / guide).read_text())
    with Receiver() as receiver:
        env = {
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
            "TACKER": api.url,
            "AUTH": "operator:op-pass",
            "CALLBACK": receiver.url,
        }
        done = subprocess.run(
            ["bash", "-c", "\n".join(script)],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    assert done.returncode == 0, (
        f"a documented command failed ({done.returncode}):\n"
        f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
    )
    out = done.stdout
    assert "NOT_INSTANTIATED" in out
    assert "vimConnectionInfo" in out  # the FAILED_TEMP error's detail
    assert receiver.url in out  # the subscription list
    # The CLI refused the snapshot and left no empty VnfSnapshotInfo.
    assert "snapshot refused: exit code 1" in out
    assert "HTTP 409 Conflict: " in done.stderr
    # python-tackerclient without API version 2 is told what to add, and
    # its op show and our op wait print the same column.
    assert "OS_TACKER_API_VERSION=2" in out
    assert "\nROLLED_BACK\nROLLED_BACK\nop wait: exit code 1\n" in out
    assert (work / "heat.zip").is_file() and (work / "vnfd.zip").is_file()
