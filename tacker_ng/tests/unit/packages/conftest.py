"""Fixtures of the package tests: an isolated store with leak checking."""

import pytest

from tacker_ng.tests.unit.packages import helpers


class Store:
    """A package store dir below a sandbox dir; ``dest`` is the target."""

    def __init__(self, sandbox):
        self.sandbox = sandbox
        sandbox.mkdir()
        self.root = sandbox / "store"
        self.root.mkdir()
        self.dest = self.root / "pkg"
        self.before = helpers.tree(sandbox)

    def assert_untouched(self):
        """Nothing was written anywhere: no package, no temp dir, no leak."""
        assert helpers.tree(self.sandbox) == self.before


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "sandbox")
