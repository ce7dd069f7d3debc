"""One Keystone auth plugin (and so one token) per VIM credentials.

Every VIM call site makes its own session (each times its own calls),
and a new ``v3.Password`` plugin authenticates again: a convergence
observer cycle or a heal on minicloud cost a POST /v3/auth/tokens each,
and each new token a validation round trip in every service it reached
(their token caches had never seen it). Sessions now share the plugin of
their credentials: keystoneauth re-authenticates shortly before the token
expires, and a session that gets a 401 (token revoked, password changed)
invalidates the plugin and authenticates once more before it fails.

The key is a digest of everything that decides which token Keystone
issues and how it is fetched (endpoint, user, password, scope, TLS
verification): a changed VIM record never reuses an old token. Plugins
are held in a small LRU; passwords live only in the plugins, as before.
"""

import collections
import hashlib
import json
import threading
from typing import Any

from keystoneauth1.identity import v3

#: VIM credentials whose plugins are kept (least recently used dropped).
MAX_PLUGINS = 64

_lock = threading.Lock()
_plugins: collections.OrderedDict[str, v3.Password] = collections.OrderedDict()


def _key(auth_args: dict[str, Any], tls: object) -> str:
    blob = json.dumps([auth_args, tls], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def password_plugin(auth_args: dict[str, Any], tls: object) -> v3.Password:
    """The shared ``v3.Password`` plugin of these credentials; ``tls`` is
    what decides how Keystone's certificate is checked (JSON-able)."""
    key = _key(auth_args, tls)
    with _lock:
        plugin = _plugins.get(key)
        if plugin is None:
            plugin = v3.Password(**auth_args)
            _plugins[key] = plugin
            while len(_plugins) > MAX_PLUGINS:
                _plugins.popitem(last=False)
        else:
            _plugins.move_to_end(key)
        return plugin


def clear() -> None:
    """Forget every plugin (tests; a process that rotates credentials)."""
    with _lock:
        _plugins.clear()
