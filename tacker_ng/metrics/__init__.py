"""tacker-ng's own metrics (``GET /metrics``, Prometheus text format).

* :mod:`.api_requests`: API requests by method, route template and
  status, and their durations (instrumented in the API process; shared
  between gunicorn workers through prometheus-client's multiprocess
  files).
* :mod:`.fleet`: op occs by operation and state, durations of finished
  ones, the notification backlog, conductors' liveness, observation
  cycles and the jobboard: read from the database, one statement per
  scrape (:mod:`tacker_ng.db.fleet_metrics`).
* :mod:`.conductor`: what a conductor measures itself and reports with
  its heartbeat.

Who may read ``/metrics`` is decided by the API (policy
``tacker_ng:metrics:show``, admins by default).
"""
