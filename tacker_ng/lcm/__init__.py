"""LCM domain logic shared by the API and the conductor (no HTTP, no RPC)."""
