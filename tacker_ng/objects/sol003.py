"""SOL003 v3.3.1 data types that cross the driver boundary, typed.

TypedDicts, named and spelt as in ETSI GS NFV-SOL 003 (clauses 5.5 and
9.5), so that a reader can hold the code against the standard and mypy
can check what a driver reads. At run time they are plain dicts: JSON
round trips stay exact (unknown keys are kept, nothing is converted).
Only the attributes tacker-ng reads or writes are listed; ``Required``
marks the standard's mandatory ones.
"""

from __future__ import annotations

from typing import Any, Literal, Required, TypedDict

KeyValuePairs = dict[str, Any]


class Link(TypedDict):
    href: str


class ProblemDetails(TypedDict, total=False):
    """SOL013 clause 6.3."""

    type: str
    title: str
    status: Required[int]
    detail: Required[str]
    instance: str


class VimConnectionInfo(TypedDict, total=False):
    """Clause 4.4.1.6 (SOL003 common data types)."""

    vimId: str
    vimType: Required[str]
    interfaceInfo: KeyValuePairs
    accessInfo: KeyValuePairs
    extra: KeyValuePairs


class ResourceHandle(TypedDict, total=False):
    vimConnectionId: str
    resourceProviderId: str
    resourceId: Required[str]
    vimLevelResourceType: str


class VnfcResourceInfo(TypedDict, total=False):
    """Clause 5.5.3.5."""

    id: Required[str]
    vduId: Required[str]
    vnfdId: str
    computeResource: Required[ResourceHandle]
    zoneId: str
    storageResourceIds: list[str]
    reservationId: str
    vnfcCpInfo: list[KeyValuePairs]
    metadata: KeyValuePairs


class VnfcInfo(TypedDict, total=False):
    """Clause 5.5.3.23."""

    id: Required[str]
    vduId: Required[str]
    vnfcResourceInfoId: str
    vnfcState: Required[Literal["STARTED", "STOPPED"]]
    vnfcConfigurableProperties: KeyValuePairs


class ScaleInfo(TypedDict, total=False):
    aspectId: Required[str]
    vnfdId: str
    scaleLevel: Required[int]


class InstantiatedVnfInfo(TypedDict, total=False):
    """Clause 5.5.2.2, attribute ``instantiatedVnfInfo``."""

    flavourId: Required[str]
    vnfState: Required[Literal["STARTED", "STOPPED"]]
    scaleStatus: list[ScaleInfo]
    maxScaleLevels: list[ScaleInfo]
    extCpInfo: list[KeyValuePairs]
    extVirtualLinkInfo: list[KeyValuePairs]
    extManagedVirtualLinkInfo: list[KeyValuePairs]
    localizationLanguage: str
    vnfcResourceInfo: list[VnfcResourceInfo]
    virtualLinkResourceInfo: list[KeyValuePairs]
    virtualStorageResourceInfo: list[KeyValuePairs]
    vnfcInfo: list[VnfcInfo]
    metadata: KeyValuePairs


class VnfInstance(TypedDict, total=False):
    """Clause 5.5.2.2. ``vimConnectionInfo`` is decrypted in an
    ``LcmTask`` (drivers need the credentials), sealed everywhere else."""

    id: Required[str]
    vnfInstanceName: str
    vnfInstanceDescription: str
    vnfdId: Required[str]
    vnfProvider: Required[str]
    vnfProductName: Required[str]
    vnfSoftwareVersion: Required[str]
    vnfdVersion: Required[str]
    vnfConfigurableProperties: KeyValuePairs
    vimConnectionInfo: dict[str, VimConnectionInfo]
    instantiationState: Required[Literal["NOT_INSTANTIATED", "INSTANTIATED"]]
    instantiatedVnfInfo: InstantiatedVnfInfo
    metadata: KeyValuePairs
    extensions: KeyValuePairs
    _links: dict[str, Link]


class VnfLcmOpOcc(TypedDict, total=False):
    """Clause 5.5.2.13."""

    id: Required[str]
    operationState: Required[str]
    stateEnteredTime: Required[str]
    startTime: Required[str]
    vnfInstanceId: Required[str]
    grantId: str
    operation: Required[str]
    isAutomaticInvocation: Required[bool]
    operationParams: KeyValuePairs
    isCancelPending: Required[bool]
    cancelMode: Literal["GRACEFUL", "FORCEFUL"]
    error: ProblemDetails
    resourceChanges: KeyValuePairs
    changedInfo: KeyValuePairs
    changedExtConnectivity: list[KeyValuePairs]
    _links: dict[str, Link]


class LcmRequest(TypedDict, total=False):
    """The request body of any LCM operation (clauses 5.5.2.4-5.5.2.11):
    which attributes are present depends on the operation (e.g.
    ``flavourId`` for instantiate, ``aspectId`` for scale)."""

    # InstantiateVnfRequest
    flavourId: str
    instantiationLevelId: str
    extVirtualLinks: list[KeyValuePairs]
    extManagedVirtualLinks: list[KeyValuePairs]
    vimConnectionInfo: dict[str, VimConnectionInfo]
    localizationLanguage: str
    vnfConfigurableProperties: KeyValuePairs
    extensions: KeyValuePairs
    # ScaleVnfRequest / ScaleVnfToLevelRequest
    type: Literal["SCALE_OUT", "SCALE_IN"]
    aspectId: str
    numberOfSteps: int
    scaleInfo: list[ScaleInfo]
    # ChangeVnfFlavourRequest
    newFlavourId: str
    # HealVnfRequest
    vnfcInstanceId: list[str]
    cause: str
    healScript: str
    # TerminateVnfRequest
    terminationType: Literal["FORCEFUL", "GRACEFUL"]
    gracefulTerminationTimeout: int
    # ChangeCurrentVnfPkgRequest
    vnfdId: str
    # OperateVnfRequest
    changeStateTo: Literal["STARTED", "STOPPED"]
    stopType: Literal["FORCEFUL", "GRACEFUL"]
    gracefulStopTimeout: int
    # every request
    additionalParams: KeyValuePairs


# -- Grant (SOL003 clause 9.5) ------------------------------------------------


class ResourceDefinition(TypedDict, total=False):
    """Clause 9.5.3.2."""

    id: Required[str]
    type: Required[
        Literal["COMPUTE", "VL", "STORAGE", "LINKPORT", "OSCONTAINER"]
    ]
    vduId: str
    vnfdId: str
    resourceTemplateId: str | list[str]
    resource: ResourceHandle


class ConstraintResourceRef(TypedDict, total=False):
    """Clause 9.5.3.7."""

    idType: Required[Literal["RES_MGMT", "GRANT"]]
    resourceId: Required[str]
    vimConnectionId: str
    resourceProviderId: str


class PlacementConstraint(TypedDict, total=False):
    """Clause 9.5.3.6."""

    affinityOrAntiAffinity: Required[Literal["AFFINITY", "ANTI_AFFINITY"]]
    scope: Required[Literal["NFVI_POP", "ZONE", "ZONE_GROUP", "NFVI_NODE"]]
    resource: Required[list[ConstraintResourceRef]]
    fallbackBestEffort: bool


class GrantRequest(TypedDict, total=False):
    """Clause 9.5.2.2."""

    vnfInstanceId: Required[str]
    vnfLcmOpOccId: Required[str]
    vnfdId: Required[str]
    dstVnfdId: str
    flavourId: str
    operation: Required[str]
    isAutomaticInvocation: Required[bool]
    instantiationLevelId: str
    addResources: list[ResourceDefinition]
    tempResources: list[ResourceDefinition]
    removeResources: list[ResourceDefinition]
    updateResources: list[ResourceDefinition]
    placementConstraints: list[PlacementConstraint]
    vimConstraints: list[KeyValuePairs]
    additionalParams: KeyValuePairs
    _links: dict[str, Link]


class ZoneInfo(TypedDict, total=False):
    """Clause 9.5.3.3."""

    id: Required[str]
    zoneId: Required[str]
    vimConnectionId: str
    resourceProviderId: str


class GrantInfo(TypedDict, total=False):
    """Clause 9.5.3.4."""

    resourceDefinitionId: Required[str]
    reservationId: str
    vimConnectionId: str
    resourceProviderId: str
    zoneId: str
    resourceGroupId: str


class VimComputeResourceFlavour(TypedDict, total=False):
    vimConnectionId: str
    resourceProviderId: str
    vnfdVirtualComputeDescId: Required[str]
    vimFlavourId: Required[str]


class VimSoftwareImage(TypedDict, total=False):
    vimConnectionId: str
    resourceProviderId: str
    vnfdSoftwareImageId: Required[str]
    vimSoftwareImageId: Required[str]


class VimAssets(TypedDict, total=False):
    computeResourceFlavours: list[VimComputeResourceFlavour]
    softwareImages: list[VimSoftwareImage]


class Grant(TypedDict, total=False):
    """Clause 9.5.2.3."""

    id: Required[str]
    vnfInstanceId: Required[str]
    vnfLcmOpOccId: Required[str]
    vimConnectionInfo: dict[str, VimConnectionInfo]
    zones: list[ZoneInfo]
    zoneGroups: list[KeyValuePairs]
    addResources: list[GrantInfo]
    tempResources: list[GrantInfo]
    removeResources: list[GrantInfo]
    updateResources: list[GrantInfo]
    vimAssets: VimAssets
    extVirtualLinks: list[KeyValuePairs]
    extManagedVirtualLinks: list[KeyValuePairs]
    additionalParams: KeyValuePairs
    _links: dict[str, Link]
