"""``/vnfpm/v2``: the SOL003 VNF performance management interface
(clause 6): PM jobs with their reports, and thresholds."""
