"""SOL013 (5.3) attribute selectors on the dicts of one response page.

``all_fields``, ``fields``, ``exclude_fields`` and ``exclude_default``
decide which complex attributes a list response carries. They are applied
to the page's dicts (never to every row); a controller may also ask
:meth:`Selector.includes` which top-level attributes it needs to load.
"""

import dataclasses
from collections.abc import Mapping
from typing import Any

from tacker_ng import exceptions

PARAMS = ("all_fields", "fields", "exclude_fields", "exclude_default")
#: Combinations SOL013 5.3 does not allow.
_EXCLUSIVE = (
    ("all_fields", "fields"),
    ("all_fields", "exclude_fields"),
    ("all_fields", "exclude_default"),
    ("fields", "exclude_fields"),
    ("exclude_fields", "exclude_default"),
)
MAX_PATHS = 64

#: A parsed list of attribute paths: name -> True (whole attribute) or a
#: sub-tree; the name ``*`` stands for every key of a map.
Tree = dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Spec:
    """What selectors know about one resource type."""

    name: str
    #: Every top-level attribute of the SOL data type.
    attributes: frozenset[str]
    #: Optional complex attributes: dropped by ``fields`` unless listed.
    complex: frozenset[str]
    #: Dropped by ``exclude_default`` and when no selector is given.
    default_excluded: frozenset[str]


def _spec(name: str, attributes: str, complex_: str, default: str) -> Spec:
    return Spec(
        name,
        frozenset(attributes.split()) | frozenset(complex_.split()),
        frozenset(complex_.split()),
        frozenset(default.split()),
    )


_INSTANCE_COMPLEX = (
    "vnfConfigurableProperties vimConnectionInfo instantiatedVnfInfo "
    "metadata extensions"
)
VNF_INSTANCE = _spec(
    "VnfInstance",
    "id vnfInstanceName vnfInstanceDescription vnfdId vnfProvider "
    "vnfProductName vnfSoftwareVersion vnfdVersion instantiationState _links",
    _INSTANCE_COMPLEX,
    _INSTANCE_COMPLEX,
)
_OP_OCC_DEFAULT = (
    "operationParams error resourceChanges changedInfo changedExtConnectivity"
)
VNF_LCM_OP_OCC = _spec(
    "VnfLcmOpOcc",
    "id operationState stateEnteredTime startTime vnfInstanceId grantId "
    "operation isAutomaticInvocation isCancelPending cancelMode "
    "vnfSnapshotInfoId _links",
    f"{_OP_OCC_DEFAULT} modificationsTriggeredByVnfPkgChange",
    _OP_OCC_DEFAULT,
)
_PKG_DEFAULT = (
    "softwareImages additionalArtifacts userDefinedData checksum "
    "onboardingFailureDetails onboardingWarnings"
)
VNF_PKG_INFO = _spec(
    "VnfPkgInfo",
    "id vnfdId vnfProvider vnfProductName vnfSoftwareVersion vnfdVersion "
    "compatibleSpecificationVersions packageSecurityOption "
    "signingCertificate onboardingState operationalState usageState "
    "vnfmInfo _links",
    _PKG_DEFAULT,
    _PKG_DEFAULT,
)


def _invalid(reason: str) -> exceptions.BadRequest:
    return exceptions.BadRequest(f"Invalid attribute selector: {reason}")


def _tree(param: str, text: str, spec: Spec) -> Tree:
    paths = text.split(",")
    if len(paths) > MAX_PATHS:
        raise _invalid(f"{param} lists more than {MAX_PATHS} attributes")
    tree: Tree = {}
    for path in paths:
        segments = path.split("/")
        if not all(segments):
            raise _invalid(
                f"{param} has an empty attribute name or path segment in "
                f"{path!r}"
            )
        if segments[0] not in spec.attributes:
            raise _invalid(
                f"{param} names {segments[0]!r}, which is not an attribute "
                f"of {spec.name}"
            )
        node = tree
        for segment in segments[:-1]:
            child = node.setdefault(segment, {})
            if child is True:  # the whole parent is already listed
                break
            node = child
        else:
            node[segments[-1]] = True
    return tree


@dataclasses.dataclass(frozen=True)
class Selector:
    """The selector of one request, applied with :meth:`apply`."""

    spec: Spec
    #: Complex attributes removed unless ``include`` keeps (parts of) them.
    dropped: frozenset[str] = frozenset()
    include: Tree = dataclasses.field(default_factory=dict)
    exclude: Tree = dataclasses.field(default_factory=dict)

    def includes(self, attribute: str) -> bool:
        """Whether any part of a top-level attribute is in the output."""
        if self.exclude.get(attribute) is True:
            return False
        return attribute not in self.dropped or attribute in self.include

    def apply(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The response dict for ``body`` (not modified)."""
        out = dict(body)
        for name in self.dropped:
            if name not in out:
                continue
            kept = self.include.get(name)
            if kept is None:
                del out[name]
            elif kept is not True:
                out[name] = _project(out[name], kept)
        return _remove(out, self.exclude) if self.exclude else out


def _project(value: Any, tree: Tree) -> Any:
    """Only the parts of ``value`` named in ``tree`` (through lists)."""
    if isinstance(value, list):
        return [_project(item, tree) for item in value]
    if not isinstance(value, Mapping):
        return value
    out = {}
    for key, item in value.items():
        sub = tree.get(key, tree.get("*"))
        if sub is True:
            out[key] = item
        elif sub is not None:
            out[key] = _project(item, sub)
    return out


def _remove(value: Any, tree: Tree) -> Any:
    """``value`` without the parts named in ``tree`` (through lists)."""
    if isinstance(value, list):
        return [_remove(item, tree) for item in value]
    if not isinstance(value, Mapping):
        return value
    out = {}
    for key, item in value.items():
        sub = tree.get(key, tree.get("*"))
        if sub is None:
            out[key] = item
        elif sub is not True:
            out[key] = _remove(item, sub)
    return out


def parse(params: Mapping[str, Any], spec: Spec) -> Selector:
    """The selector for a request's query parameters (``request.GET``).

    400 on a combination SOL013 forbids, an empty list or an attribute the
    resource does not have. No selector means ``exclude_default``.
    """
    given = {}
    for name in PARAMS:
        values = (
            params.getall(name)
            if hasattr(params, "getall")
            else ([params[name]] if name in params else [])
        )
        if len(values) > 1:
            raise _invalid(f"{name} is given more than once")
        if values:
            given[name] = values[0]
    for first, second in _EXCLUSIVE:
        if first in given and second in given:
            raise _invalid(f"{first} and {second} cannot be combined")
    if "all_fields" in given:
        return Selector(spec)
    for name in ("fields", "exclude_fields"):
        if name in given and not given[name]:
            raise _invalid(f"{name} is empty")
    if "exclude_fields" in given:
        return Selector(
            spec,
            exclude=_tree("exclude_fields", given["exclude_fields"], spec),
        )
    include = (
        _tree("fields", given["fields"], spec) if "fields" in given else {}
    )
    if "fields" in given and "exclude_default" not in given:
        return Selector(spec, spec.complex, include)
    return Selector(spec, spec.default_excluded, include)
