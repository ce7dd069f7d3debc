"""Sphinx configuration for the tacker-ng release notes (reno)."""

project = "tacker-ng release notes"
copyright = "2026, tacker-ng developers"
extensions = ["reno.sphinxext"]
master_doc = "index"
html_theme = "alabaster"
