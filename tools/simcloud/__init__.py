"""Simulated clouds for tests (never imported by the product)."""
