"""JSON Merge Patch (RFC 7396), as SOL003 PATCH requests use it."""

import copy
from typing import Any


def apply(target: Any, patch: Any) -> Any:
    """``target`` with ``patch`` merged in; neither argument is changed.

    Objects merge recursively, ``null`` deletes a member, anything else
    replaces the target value.
    """
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = apply(result.get(key), value)
    return result
