"""SOL003 VNF performance management (clause 6): PM jobs, performance
reports and thresholds.

The pure rules (measurement table, request checks, hysteresis, schedule,
response and notification bodies) live here beside the DB-facing steps a
collector takes (jobs and thresholds due, publishing a report, recording
a threshold crossing). The API (``/vnfpm/v2``) and the collector that
queries Prometheus both build on this package; it imports neither.
"""
