"""Conductor-side execution of SOL003 LCM operations."""
