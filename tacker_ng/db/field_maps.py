"""Which SOL attributes can be filtered on, and where they live in SQL.

A field map says, per resource, which SOL attribute path is a column and
which is a path inside a JSON document column, and what type its values
have. It is data: the leaf lists below read like the SOL data types, with
``name[]`` for arrays (any element matches), ``*`` for the key of a map,
``@key`` for the keys of a map, ``**`` for free-form key/value pairs and
``.`` for the container itself. :mod:`tacker_ng.db.filters` compiles
filters against it.
"""

import dataclasses
import datetime
import math
import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from tacker_ng.db import models, models_snapshots

STRING, ENUM, UUID, BOOLEAN, NUMBER, DATETIME, ANY = (
    "string",
    "enum",
    "uuid",
    "boolean",
    "number",
    "datetime",
    "any",
)
_EQUALITY = frozenset({"eq", "neq", "in", "nin"})
_ORDER = frozenset({"gt", "lt", "gte", "lte"})
_CONTAINS = frozenset({"cont", "ncont"})
#: Operators each type supports (SOL013 5.2.2: cont/ncont on strings).
OPS = {
    STRING: _EQUALITY | _ORDER | _CONTAINS,
    ANY: _EQUALITY | _ORDER | _CONTAINS,
    ENUM: _EQUALITY,
    UUID: _EQUALITY,
    BOOLEAN: _EQUALITY,
    NUMBER: _EQUALITY | _ORDER,
    DATETIME: _EQUALITY | _ORDER,
}


@dataclasses.dataclass(frozen=True)
class AnyValue:
    """A value for a free-form attribute: a string that may also be read
    as a number or a boolean, matched against whatever type is stored."""

    text: str
    number: int | float | None
    boolean: bool | None


def _number(value: str) -> int | float:
    try:
        return int(value)
    except ValueError:
        number = float(value)  # ValueError for non-numbers
    if not math.isfinite(number):
        raise ValueError("not a finite number")
    return number


@dataclasses.dataclass(frozen=True)
class FieldType:
    """The type of an attribute's values and the operators it supports."""

    kind: str
    choices: tuple[str, ...] = ()

    @property
    def ops(self) -> frozenset[str]:
        return OPS[self.kind]

    def coerce(self, value: str) -> Any:
        """The typed value of a filter string; ValueError says why not."""
        kind = self.kind
        if kind == STRING:
            return value
        if kind == ENUM:
            if value not in self.choices:
                raise ValueError(f"must be one of {', '.join(self.choices)}")
            return value
        if kind == UUID:  # canonical form: ids are stored lower case
            try:
                return str(uuid.UUID(value))
            except ValueError:
                raise ValueError("is not a UUID") from None
        if kind == BOOLEAN:
            if value not in ("true", "false"):
                raise ValueError("must be true or false")
            return value == "true"
        if kind == NUMBER:
            try:
                return _number(value)
            except ValueError:
                raise ValueError("is not a number") from None
        if kind == DATETIME:
            return parse_datetime(value)
        try:
            number = _number(value)
        except ValueError:
            number = None
        boolean = {"true": True, "false": False}.get(value)
        return AnyValue(value, number, boolean)


def parse_datetime(value: str) -> datetime.datetime:
    """An RFC 3339 date-time (``Z`` or offset; none means UTC) as UTC."""
    text = value[:-1] + "+00:00" if value[-1:] in ("Z", "z") else value
    if len(text) < 19 or text[10] not in "Tt":
        raise ValueError("is not an RFC 3339 date-time")
    try:
        parsed = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise ValueError("is not an RFC 3339 date-time") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.UTC)
    return parsed.astimezone(datetime.UTC)


#: JSON path steps: a member, every array element, every map value, the
#: keys of a map.
KEY, EACH, VALUES, KEYS = "key", "each", "values", "keys"


@dataclasses.dataclass(frozen=True)
class ColumnField:
    """An attribute stored in a column of its own."""

    column: sa.Column
    type: FieldType


@dataclasses.dataclass(frozen=True)
class JsonField:
    """An attribute inside a JSON document column: ``steps`` lead from the
    document's root to the values (more than one when arrays or maps are
    traversed; the filter matches when any of them matches)."""

    column: sa.Column
    steps: tuple[tuple[str, str], ...]
    type: FieldType

    @property
    def iterates(self) -> bool:
        return any(kind in (EACH, VALUES, KEYS) for kind, _ in self.steps)


def _type(spec: str) -> FieldType:
    if spec.startswith("enum(") and spec.endswith(")"):
        return FieldType(ENUM, tuple(spec[5:-1].split("|")))
    if spec not in OPS or spec == ENUM:
        raise ValueError(f"unknown field type {spec!r}")
    return FieldType(spec)


class FieldMap:
    """The filterable attributes of one SOL resource (see module doc)."""

    def __init__(
        self,
        name: str,
        table: sa.Table,
        columns: Mapping[str, str],
        documents: Mapping[str, str],
        leaves: Mapping[str, str],
        unrendered: tuple[str, ...] = (),
        hidden: sa.ColumnElement[bool] | None = None,
    ) -> None:
        self.name = name
        self.table = table
        #: Rows no list shows (e.g. being deleted), as a SQL condition.
        self.hidden = hidden
        #: Columns the resource's representation never shows (internal
        #: state, ownership): a list does not read them.
        self.unrendered = frozenset(unrendered) | {"updated_at"}
        self.columns: dict[str, ColumnField] = {}
        for attr, spec in columns.items():
            col, _, kind = spec.partition(":")
            self.columns[attr] = ColumnField(
                table.c[col], _type(kind or STRING)
            )
        self.documents = {a: table.c[c] for a, c in documents.items()}
        #: The leaf lists as declared, for the documentation.
        self.leaves = dict(leaves)
        #: document attribute -> [(pattern segments, type)]; segments may be
        #: '*', '**', '@key' and names with a '[]' suffix.
        self.patterns: dict[str, list[tuple[tuple[str, ...], FieldType]]] = {}
        for container, specs in leaves.items():
            for spec in specs.split():
                path, _, kind = spec.partition(":")
                # "." is the container itself (a document that is an
                # array of scalars: ``{"ids[]": "."}``).
                joined = container if path == "." else f"{container}/{path}"
                segments = tuple(joined.split("/"))
                root = self._check(segments)
                self.patterns.setdefault(root, []).append(
                    (segments, _type(kind or STRING))
                )

    def _check(self, segments: tuple[str, ...]) -> str:
        root = segments[0].removesuffix("[]")
        if root not in self.documents:
            raise ValueError(f"{self.name}: no document {root!r}")
        if "@key" in segments:
            before = segments[: segments.index("@key")]
            if any(s == "*" or s.endswith("[]") for s in before):
                raise ValueError(f"{self.name}: @key under an iteration")
        return root

    def resolve(self, attr: tuple[str, ...]) -> ColumnField | JsonField | None:
        """The field of a client's attribute path, or None if unknown."""
        if len(attr) == 1 and attr[0] in self.columns:
            return self.columns[attr[0]]
        for pattern, kind in self.patterns.get(attr[0], ()):
            steps = _match(pattern, attr)
            if steps is not None:
                # The first step names the document: the column itself.
                column = self.documents[attr[0]]
                return JsonField(column, steps[1:], kind)
        return None

    def attribute_names(self) -> list[str]:
        """Every supported attribute path, for documentation and errors."""
        names = list(self.columns)
        for patterns in self.patterns.values():
            names += ["/".join(p).replace("[]", "") for p, _ in patterns]
        return names


def _match(pattern, attr) -> tuple[tuple[str, str], ...] | None:
    """JSON steps for ``attr`` if it matches ``pattern``, else None."""
    steps: list[tuple[str, str]] = []
    for index, seg in enumerate(pattern):
        if seg == "**":
            rest = attr[index:]
            if not rest:
                return None
            steps += [(VALUES, "*") if s == "*" else (KEY, s) for s in rest]
            return tuple(steps)
        if index >= len(attr):
            return None
        given = attr[index]
        if seg == "*":
            steps.append((VALUES, "*") if given == "*" else (KEY, given))
        elif seg == "@key":
            if given != "@key":
                return None
            steps.append((KEYS, "@key"))
        else:
            name = seg.removesuffix("[]")
            if given != name:
                return None
            steps.append((KEY, name))
            if seg.endswith("[]"):
                steps.append((EACH, "*"))
    if len(attr) != len(pattern):
        return None
    return tuple(steps)


# --- the resources -------------------------------------------------------

_HANDLE = "vimConnectionId resourceProviderId resourceId vimLevelResourceType"
_IP_OVER_ETHERNET = (
    "layerProtocol:enum(IP_OVER_ETHERNET) ipOverEthernet/macAddress "
    "ipOverEthernet/segmentationId"
)
_IP_ADDRESSES = (
    "type:enum(IPV4|IPV6) addresses[] isDynamic:boolean "
    "addressRange/minAddress addressRange/maxAddress subnetId"
)
_VNF_INFO = "vnfdId vnfProvider vnfProductName vnfSoftwareVersion vnfdVersion"
_OPERATIONS = (
    "INSTANTIATE|SCALE|SCALE_TO_LEVEL|CHANGE_FLAVOUR|TERMINATE|HEAL|OPERATE|"
    "CHANGE_EXT_CONN|MODIFY_INFO|CREATE_SNAPSHOT|REVERT_TO_SNAPSHOT|"
    "CHANGE_VNFPKG"
)
_OP_STATES = (
    "STARTING|PROCESSING|COMPLETED|FAILED_TEMP|FAILED|ROLLING_BACK|ROLLED_BACK"
)
_CHANGE = "ADDED|REMOVED|MODIFIED|TEMPORARY"
_IVI = "instantiatedVnfInfo"
_CPD = "extVirtualLinkInfo[]/currentVnfExtCpData[]"

VNF_INSTANCE = FieldMap(
    "VnfInstance",
    models.VnfInstance.__table__,
    columns={
        "id": "id:uuid",
        "vnfInstanceName": "vnf_instance_name",
        "vnfInstanceDescription": "vnf_instance_description",
        "vnfdId": "vnfd_id",
        "vnfProvider": "vnf_provider",
        "vnfProductName": "vnf_product_name",
        "vnfSoftwareVersion": "vnf_software_version",
        "vnfdVersion": "vnfd_version",
        "instantiationState": "instantiation_state:"
        "enum(NOT_INSTANTIATED|INSTANTIATED)",
    },
    documents={
        "vnfConfigurableProperties": "vnf_configurable_properties",
        "vimConnectionInfo": "vim_connection_info",
        "instantiatedVnfInfo": "instantiated_vnf_info",
        "metadata": "metadata",
        "extensions": "extensions",
    },
    leaves={
        "vnfConfigurableProperties": "@key **:any",
        "metadata": "@key **:any",
        "extensions": "@key **:any",
        # accessInfo is left out on purpose: it holds (encrypted) secrets.
        "vimConnectionInfo": "@key",
        "vimConnectionInfo/*": "vimId vimType interfaceInfo/**:any "
        "extra/**:any",
        _IVI: "flavourId vnfState:enum(STARTED|STOPPED) localizationLanguage",
        f"{_IVI}/scaleStatus[]": "aspectId vnfdId scaleLevel:number",
        f"{_IVI}/maxScaleLevels[]": "aspectId vnfdId scaleLevel:number",
        f"{_IVI}/extCpInfo[]": "id cpdId cpConfigId vnfdId extLinkPortId "
        "associatedVnfcCpId associatedVnfVirtualLinkId metadata/**:any",
        f"{_IVI}/extCpInfo[]/cpProtocolInfo[]": _IP_OVER_ETHERNET,
        f"{_IVI}/extCpInfo[]/cpProtocolInfo[]/ipOverEthernet/ipAddresses[]": (
            _IP_ADDRESSES
        ),
        f"{_IVI}/extVirtualLinkInfo[]": "id",
        f"{_IVI}/extVirtualLinkInfo[]/resourceHandle": _HANDLE,
        f"{_IVI}/extVirtualLinkInfo[]/extLinkPorts[]": "id cpInstanceId",
        f"{_IVI}/extVirtualLinkInfo[]/extLinkPorts[]/resourceHandle": _HANDLE,
        f"{_IVI}/{_CPD}": "cpdId",
        f"{_IVI}/{_CPD}/cpConfig/*": "parentCpConfigId linkPortId",
        f"{_IVI}/{_CPD}/cpConfig/*/cpProtocolData[]": _IP_OVER_ETHERNET,
        f"{_IVI}/extManagedVirtualLinkInfo[]": "id vnfVirtualLinkDescId "
        "vnfdId extManagedMultisiteVirtualLinkId",
        f"{_IVI}/extManagedVirtualLinkInfo[]/networkResource": _HANDLE,
        f"{_IVI}/extManagedVirtualLinkInfo[]/vnfLinkPorts[]": "id "
        "cpInstanceId cpInstanceType:enum(VNFC_CP|EXT_CP)",
        f"{_IVI}/extManagedVirtualLinkInfo[]/vnfLinkPorts[]/resourceHandle": (
            _HANDLE
        ),
        f"{_IVI}/monitoringParameters[]": "id vnfdId name performanceMetric",
        f"{_IVI}/vnfcResourceInfo[]": "id vduId vnfdId zoneId "
        "storageResourceIds[] reservationId metadata/**:any",
        f"{_IVI}/vnfcResourceInfo[]/computeResource": _HANDLE,
        f"{_IVI}/vnfcResourceInfo[]/vnfcCpInfo[]": "id cpdId vnfExtCpId "
        "vnfLinkPortId metadata/**:any",
        f"{_IVI}/vnfcResourceInfo[]/vnfcCpInfo[]/cpProtocolInfo[]": (
            _IP_OVER_ETHERNET
        ),
        f"{_IVI}/virtualLinkResourceInfo[]": "id vnfVirtualLinkDescId vnfdId "
        "zoneId reservationId metadata/**:any",
        f"{_IVI}/virtualLinkResourceInfo[]/networkResource": _HANDLE,
        f"{_IVI}/virtualLinkResourceInfo[]/vnfLinkPorts[]": "id "
        "cpInstanceId cpInstanceType:enum(VNFC_CP|EXT_CP)",
        f"{_IVI}/virtualLinkResourceInfo[]/vnfLinkPorts[]/resourceHandle": (
            _HANDLE
        ),
        f"{_IVI}/virtualStorageResourceInfo[]": "id virtualStorageDescId "
        "vnfdId zoneId reservationId metadata/**:any",
        f"{_IVI}/virtualStorageResourceInfo[]/storageResource": _HANDLE,
    },
    unrendered=("project_id", "current_op_occ_id", "version"),
)

_RC = "resourceChanges"
VNF_LCM_OP_OCC = FieldMap(
    "VnfLcmOpOcc",
    models.VnfLcmOpOcc.__table__,
    columns={
        "id": "id:uuid",
        "operationState": f"operation_state:enum({_OP_STATES})",
        "stateEnteredTime": "state_entered_time:datetime",
        "startTime": "start_time:datetime",
        "vnfInstanceId": "vnf_instance_id:uuid",
        "grantId": "grant_id",  # assigned by the NFVO: any string
        "operation": f"operation:enum({_OPERATIONS})",
        "isAutomaticInvocation": "is_automatic_invocation:boolean",
        "isCancelPending": "is_cancel_pending:boolean",
        "cancelMode": "cancel_mode:enum(GRACEFUL|FORCEFUL)",
    },
    documents={
        "operationParams": "operation_params",
        "error": "error",
        "resourceChanges": "resource_changes",
        "changedInfo": "changed_info",
        "changedExtConnectivity": "changed_ext_connectivity",
    },
    leaves={
        "operationParams": "**:any",
        "error": "type title status:number detail instance",
        f"{_RC}/affectedVnfcs[]": "id vduId vnfdId "
        f"changeType:enum({_CHANGE}) resourceDefinitionId zoneId "
        "metadata/**:any affectedVnfcCpIds[] addedStorageResourceIds[] "
        "removedStorageResourceIds[]",
        f"{_RC}/affectedVnfcs[]/computeResource": _HANDLE,
        f"{_RC}/affectedVirtualLinks[]": "id vnfVirtualLinkDescId vnfdId "
        f"changeType:enum({_CHANGE}|LINK_PORT_ADDED|LINK_PORT_REMOVED) "
        "vnfLinkPortIds[] resourceDefinitionId zoneId metadata/**:any",
        f"{_RC}/affectedVirtualLinks[]/networkResource": _HANDLE,
        f"{_RC}/affectedExtLinkPorts[]": "id changeType:enum(ADDED|REMOVED) "
        "extCpInstanceId resourceDefinitionId",
        f"{_RC}/affectedExtLinkPorts[]/resourceHandle": _HANDLE,
        f"{_RC}/affectedVirtualStorages[]": "id virtualStorageDescId vnfdId "
        f"changeType:enum({_CHANGE}) resourceDefinitionId zoneId "
        "metadata/**:any",
        f"{_RC}/affectedVirtualStorages[]/storageResource": _HANDLE,
        "changedInfo": "vnfInstanceName vnfInstanceDescription "
        f"{_VNF_INFO} vnfConfigurableProperties/**:any metadata/**:any "
        "extensions/**:any",
        "changedInfo/vimConnectionInfo/*": "vimId vimType",
        "changedExtConnectivity[]": "id",
        "changedExtConnectivity[]/resourceHandle": _HANDLE,
        "changedExtConnectivity[]/extLinkPorts[]": "id cpInstanceId",
        "changedExtConnectivity[]/extLinkPorts[]/resourceHandle": _HANDLE,
        "changedExtConnectivity[]/currentVnfExtCpData[]": "cpdId",
    },
    unrendered=("progress", "conductor_host", "project_id"),
)

_FILTER = "filter/vnfInstanceSubscriptionFilter"
_PRODUCTS = f"{_FILTER}/vnfProductsFromProviders[]"
LCCN_SUBSCRIPTION = FieldMap(
    "LccnSubscription",
    models.LccnSubscription.__table__,
    columns={
        "id": "id:uuid",
        "callbackUri": "callback_uri",
        "verbosity": "verbosity:enum(FULL|SHORT)",
    },
    documents={"filter": "filter"},
    leaves={
        _FILTER: "vnfdIds[] vnfInstanceIds[] vnfInstanceNames[]",
        _PRODUCTS: "vnfProvider",
        f"{_PRODUCTS}/vnfProducts[]": "vnfProductName",
        f"{_PRODUCTS}/vnfProducts[]/versions[]": "vnfSoftwareVersion "
        "vnfdVersions[]",
        "filter": "notificationTypes[]:enum("
        "VnfLcmOperationOccurrenceNotification|"
        "VnfIdentifierCreationNotification|"
        "VnfIdentifierDeletionNotification) "
        f"operationTypes[]:enum({_OPERATIONS}) "
        f"operationStates[]:enum({_OP_STATES})",
    },
    unrendered=("fingerprint", "project_id"),
)

_PKGM_PRODUCTS = "filter/vnfProductsFromProviders[]"

PKGM_SUBSCRIPTION = FieldMap(
    "PkgmSubscription",
    models.PkgmSubscription.__table__,
    columns={"id": "id:uuid", "callbackUri": "callback_uri"},
    documents={"filter": "filter"},
    leaves={
        "filter": "notificationTypes[]:enum("
        "VnfPackageOnboardingNotification|VnfPackageChangeNotification) "
        "vnfdId[] vnfPkgId[] operationalState[]:enum(ENABLED|DISABLED) "
        "usageState[]:enum(IN_USE|NOT_IN_USE)",
        _PKGM_PRODUCTS: "vnfProvider",
        f"{_PKGM_PRODUCTS}/vnfProducts[]": "vnfProductName",
        f"{_PKGM_PRODUCTS}/vnfProducts[]/versions[]": "vnfSoftwareVersion "
        "vnfdVersions[]",
    },
    unrendered=("fingerprint", "project_id", "authentication"),
)

_IMAGE_FORMATS = (
    "containerFormat:enum(AKI|AMI|ARI|BARE|DOCKER|OVA|OVF) "
    "diskFormat:enum(AKI|AMI|ARI|ISO|QCOW2|RAW|VDI|VHD|VHDX|VMDK)"
)
VNF_PKG_INFO = FieldMap(
    "VnfPkgInfo",
    models.VnfPackage.__table__,
    columns={
        "id": "id:uuid",
        "vnfdId": "vnfd_id",
        "vnfProvider": "vnf_provider",
        "vnfProductName": "vnf_product_name",
        "vnfSoftwareVersion": "vnf_software_version",
        "vnfdVersion": "vnfd_version",
        "onboardingState": "onboarding_state:"
        "enum(CREATED|UPLOADING|PROCESSING|ONBOARDED|ERROR)",
        "operationalState": "operational_state:enum(ENABLED|DISABLED)",
        "usageState": "usage_state:enum(IN_USE|NOT_IN_USE)",
    },
    documents={
        "checksum": "checksum",
        "softwareImages": "software_images",
        "additionalArtifacts": "additional_artifacts",
        "userDefinedData": "user_defined_data",
        "onboardingFailureDetails": "onboarding_failure_details",
        "onboardingWarnings": "onboarding_warnings",
    },
    leaves={
        "checksum": "algorithm hash",
        "softwareImages[]": "id name provider version isEncrypted:boolean "
        f"{_IMAGE_FORMATS} createdAt:datetime minDisk:number "
        "minRam:number size:number userMetadata/**:any imagePath imageUri",
        "softwareImages[]/checksum": "algorithm hash",
        "additionalArtifacts[]": "artifactPath artifactURI "
        "isEncrypted:boolean nonManoArtifactSetId "
        "artifactClassification:enum(HISTORY|TESTING) metadata/**:any",
        "additionalArtifacts[]/checksum": "algorithm hash",
        "userDefinedData": "@key **:any",
        "onboardingFailureDetails": "type title status:number detail instance",
        "onboardingWarnings[]": ".",
    },
)

_VNFC_SNAPSHOTS = "vnfSnapshot/vnfcSnapshots[]"
_SNAPSHOTS_TABLE = models_snapshots.VnfSnapshot.__table__
VNF_SNAPSHOT_INFO = FieldMap(
    "VnfSnapshotInfo",
    _SNAPSHOTS_TABLE,
    columns={"id": "id:uuid", "vnfSnapshotPkgId": "vnf_snapshot_pkg_id"},
    documents={"vnfSnapshot": "vnf_snapshot"},
    leaves={
        "vnfSnapshot": "id vnfInstanceId vnfdId creationStartedAt:datetime "
        "creationFinishedAt:datetime userDefinedData/**:any",
        _VNFC_SNAPSHOTS: "id vnfcInstanceId vnfcResourceInfoId "
        "creationStartedAt:datetime creationFinishedAt:datetime",
        f"{_VNFC_SNAPSHOTS}/computeSnapshotResource": _HANDLE,
    },
    unrendered=("project_id", "op_occ_id", "deleting", "vnf_instance_id"),
    hidden=_SNAPSHOTS_TABLE.c.deleting.is_(True),
)
