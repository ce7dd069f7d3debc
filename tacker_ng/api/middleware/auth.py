"""Authentication pipelines for ``[api] auth_strategy``.

* ``keystone``: keystonemiddleware auth_token (it strips spoofed identity
  headers itself).
* ``oauth2``: Keystone's OAuth 2.0 access tokens (keystonemiddleware's
  oauth2_token filter, plus the RFC 6750 challenge and RFC 8705
  certificate binding: :mod:`tacker_ng.auth.keystone_oauth2`).
* ``external_oauth2``: any authorization server's tokens by RFC 7662
  introspection (:mod:`tacker_ng.auth.external_oauth2`).
* ``http_basic``: oslo.middleware's htpasswd (bcrypt) basic auth; users
  get ``[api] http_basic_roles`` (member, reader) unless named in
  ``http_basic_admin_users``.
* ``noauth``: nobody is asked; for tests and demos.

The pieces live in :mod:`tacker_ng.auth`; this module only picks them.
"""

from keystonemiddleware import auth_token
from oslo_config import cfg
from oslo_middleware import basic_auth

from tacker_ng.auth import external_oauth2, identity, keystone_oauth2


def wrap(app, conf: cfg.ConfigOpts):
    """Put the configured authentication in front of ``app``."""
    api = conf.api
    strategy = api.auth_strategy
    project = api.http_basic_project_id
    if strategy == "keystone":
        return auth_token.AuthProtocol(app, {"oslo_config_config": conf})
    if strategy == "oauth2":
        return keystone_oauth2.wrap(app, conf)
    if strategy == "external_oauth2":
        return external_oauth2.ExternalOAuth2(app, conf)
    if strategy == "http_basic":
        inner = identity.SetIdentity(
            app,
            api.http_basic_roles,
            project,
            admins=api.http_basic_admin_users,
            projects=api.http_basic_user_projects,
        )
        return identity.StripIdentityHeaders(
            basic_auth.BasicAuthMiddleware(inner)
        )
    return identity.StripIdentityHeaders(
        identity.SetIdentity(app, api.noauth_roles, project)
    )
