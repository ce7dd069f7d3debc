"""WSGI entry point for uwsgi / mod_wsgi / gunicorn run by the operator.

``tacker_ng.wsgi.api:application`` reads the config files named in
``TACKER_NG_CONFIG_FILES`` (comma separated), else the default locations.
The application is built on the first request so that importing this
module in a pre-forking server's master stays cheap and side-effect free.
"""

import os
import threading

from tacker_ng import service
from tacker_ng.api import app as api_app

_LOCK = threading.Lock()
_APP = None


def init_application():
    """Parse the config and build the WSGI application."""
    files = [
        f for f in os.environ.get("TACKER_NG_CONFIG_FILES", "").split(",") if f
    ]
    argv: list[str] = []
    for path in files:
        argv += ["--config-file", path]
    conf = service.prepare_service(argv)
    return api_app.build_wsgi_app(conf)


def application(environ, start_response):
    """The WSGI callable; initializes once per process."""
    global _APP  # noqa: PLW0603
    if _APP is None:
        with _LOCK:
            if _APP is None:
                _APP = init_application()
    return _APP(environ, start_response)
