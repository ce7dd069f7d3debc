"""``/vnffm/v1``: the SOL003 VNF fault management interface (clause 7)."""
