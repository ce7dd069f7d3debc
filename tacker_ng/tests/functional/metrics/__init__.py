"""Prometheus in the tests: exporters, tacker-ng's own metrics."""
