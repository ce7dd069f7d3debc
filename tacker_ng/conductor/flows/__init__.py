"""LCM operations as taskflow flows.

Each SOL003 operation runs as one linear flow (grant -> PROCESSING ->
``<op>_start`` hook -> infra driver -> ``<op>_end`` hook -> finish) whose
atom states taskflow persists in the shared database, so that a retry, a
rollback or another conductor continues exactly where the last run
stopped. See doc/source/admin/lcm-engine.rst.
"""
