"""The callbackUri and authentication of a PM job or threshold, which in
SOL003 v3.3.1 are its notification subscription: checked like an LCM
subscription's (authType parameters, outbound policy, the test GET that
must answer 204) and stored with the secrets sealed."""

from collections.abc import Mapping
from typing import Any

from oslo_config import cfg

from tacker_ng import crypto
from tacker_ng.api.controllers import subscribing
from tacker_ng.nfvo import callback

_UNSET: Any = object()


def accept(
    callback_uri: str,
    authentication: Mapping[str, Any] | None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> dict[str, Any] | None:
    """Check a callback and return its authentication sealed (or None).

    ``authentication`` may be already sealed (a modification that keeps
    the stored one): the test GET decrypts it like a delivery does.
    """
    auth = dict(authentication) if authentication else None
    subscribing.check_authentication(auth)
    callback.check_urls(callback_uri, auth, conf)
    if conf.notification.test_callback_uri:
        subscribing.check_callback(
            {"callbackUri": callback_uri, "authentication": auth}
        )
    return crypto.seal(auth) if auth else None


def modified(
    row: Mapping[str, Any], patch: Mapping[str, Any]
) -> dict[str, Any]:
    """The columns a PmJobModifications / ThresholdModifications merge
    patch changes, after checking the callback it leaves."""
    uri = patch.get("callbackUri", row["callback_uri"])
    auth = patch.get("authentication", _UNSET)
    if auth is _UNSET:
        auth = row["authentication"]
    sealed = accept(uri, auth)
    changes: dict[str, Any] = {}
    if "callbackUri" in patch:
        changes["callback_uri"] = uri
    if "authentication" in patch:
        changes["authentication"] = sealed
    return changes
