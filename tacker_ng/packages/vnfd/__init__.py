"""VNFD (ETSI NFV-SOL001 TOSCA) parsing into the typed model.

Entry point: :func:`tacker_ng.packages.vnfd.parser.load_vnfd`; the model
lives in :mod:`tacker_ng.objects.vnfd`.
"""
