"""simk8s: a Kubernetes API simulator for tests (not imported by the product).

It speaks enough of the Kubernetes REST API for the official ``kubernetes``
client and Debian's ``kubectl`` to work unchanged. See
``doc/source/contributor/simk8s.rst``.
"""
