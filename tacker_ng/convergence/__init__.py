"""Convergence: desired vs observed state, drift, auto-heal or alarm.

``desired`` and ``drift`` are pure (no I/O); ``nova`` lists servers in
batches per VIM; ``observer`` writes what it saw and hands drift to
``converge``, which starts an automatic HEAL or raises an FM alarm.
"""
