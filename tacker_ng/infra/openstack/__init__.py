"""OpenStack infra driver: Heat stacks, Nova zones, AZ reselection."""
