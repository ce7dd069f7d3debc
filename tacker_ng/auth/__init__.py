"""Who is calling: the API's authentication strategies (``[api]
auth_strategy``), client certificates of mutual TLS and the identity
handed to oslo.policy.

Nothing here imports the API layer; :mod:`tacker_ng.api.middleware.auth`
puts the configured pieces in front of the pecan application.
"""
