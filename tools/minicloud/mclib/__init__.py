"""minicloud: a real single-host OpenStack for tacker-ng functional tests.

Stdlib only, so that it runs before minicloud's own virtualenv exists.
"""


class MiniCloudError(RuntimeError):
    """A prerequisite or a service failed; the message says which."""
