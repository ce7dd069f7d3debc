"""minicloud: a real single-host OpenStack for tacker-ng functional tests.

Stdlib only, so that it runs before minicloud's own virtualenv exists.
"""

import os

#: Variables of the caller's environment (e.g. tox's) that must not reach
#: minicloud's pip or services: PBR_VERSION would give every pbr package
#: built from an sdist (testresources, ...) and every running service
#: that version; PYTHONPATH would mix the caller's packages in.
_FOREIGN_ENV = ("PBR_VERSION", "PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")


def clean_env(**extra: str) -> dict[str, str]:
    """The process environment without the caller's Python settings."""
    env = {k: v for k, v in os.environ.items() if k not in _FOREIGN_ENV}
    env.update(extra)
    return env


class MiniCloudError(RuntimeError):
    """A prerequisite or a service failed; the message says which."""
