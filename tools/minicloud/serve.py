"""Serve one OpenStack WSGI app with gunicorn (runs in minicloud's venv).

gunicorn's own command line would reach oslo.config's argv parsing and
kill the worker, so the app is loaded with a clean sys.argv.
usage: serve.py NAME module:attr[()] PORT [app args...]
"""

from __future__ import annotations

import importlib
import os
import sys

from gunicorn.app.base import BaseApplication


class OneApp(BaseApplication):
    """One worker, eight threads, bound to 127.0.0.1."""

    def __init__(self, name: str, target: str, port: str, argv: list[str]):
        self.name, self.target, self.port, self.argv = name, target, port, argv
        super().__init__()

    def load_config(self) -> None:
        """gunicorn settings (no command line)."""
        logs = os.environ["MINICLOUD_LOGS"]
        for key, value in {
            "bind": f"127.0.0.1:{self.port}",
            "workers": 1,
            "threads": 8,
            "worker_class": "gthread",
            "timeout": 300,
            # gunicorn closes an idle connection after 2 s by default: a
            # client polling every 1-2 s then races the close and sees
            # "Connection reset by peer" (seen on cinder-api). Idle
            # connections longer than this are found closed before reuse.
            "keepalive": 75,
            "accesslog": f"{logs}/{self.name}-access.log",
            "errorlog": f"{logs}/{self.name}-gunicorn.log",
            "control_socket_disable": True,
            # The process title becomes "gunicorn: master [minicloud-NAME]".
            "proc_name": f"minicloud-{self.name}",
        }.items():
            if key in self.cfg.settings:
                self.cfg.set(key, value)

    def load(self):
        """Import the app (or call its factory) with a clean argv."""
        sys.argv = [self.name, *self.argv]
        module, attr = self.target.split(":")
        obj = getattr(importlib.import_module(module), attr.rstrip("()"))
        return obj() if attr.endswith("()") else obj


if __name__ == "__main__":
    OneApp(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]).run()
