"""SOL003 VNF LCM interface (``/vnflcm/v2``) controllers."""
