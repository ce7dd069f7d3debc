"""tacker-ng processes run on native threads: eventlet is never loaded."""

import subprocess
import sys

ENTRY_MODULES = [
    "tacker_ng.cmd.api",
    "tacker_ng.cmd.conductor",
    "tacker_ng.cmd.all",
    "tacker_ng.cmd.status",
    "tacker_ng.wsgi.api",
]


def test_entry_points_do_not_load_eventlet():
    code = (
        "import importlib, sys\n"
        f"for m in {ENTRY_MODULES!r}: importlib.import_module(m)\n"
        "import oslo_messaging, futurist\n"
        "from oslo_service import backend\n"
        "assert sys.modules.get('eventlet') is None, 'eventlet loaded'\n"
        "assert backend.get_backend_type().value == 'threading'\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
