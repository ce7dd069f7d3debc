"""Entry points of the tacker-ng console scripts."""
