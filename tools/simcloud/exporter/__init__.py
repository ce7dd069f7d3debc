"""A test exporter: node-exporter-shaped metrics for simulated VNFCs.

Test tool, never imported by the product. See
``doc/source/contributor/prometheus.rst``.
"""
