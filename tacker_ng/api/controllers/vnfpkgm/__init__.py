"""SOL005 VNF package management interface (``/vnfpkgm/v1``) controllers."""
