"""Unit tests of tacker-ng's own metrics."""
