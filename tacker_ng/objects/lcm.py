"""SOL003 LCM enumerations (VnfInstance, VnfLcmOpOcc and cancel modes).

The rules between them (the op-occ state machine) are in
:mod:`tacker_ng.objects.state_machine`.
"""

import enum


class InstantiationState(enum.StrEnum):
    NOT_INSTANTIATED = "NOT_INSTANTIATED"
    INSTANTIATED = "INSTANTIATED"


class OperationState(enum.StrEnum):
    STARTING = "STARTING"
    PROCESSING = "PROCESSING"
    COMPLETED = "COMPLETED"
    FAILED_TEMP = "FAILED_TEMP"
    FAILED = "FAILED"
    ROLLING_BACK = "ROLLING_BACK"
    ROLLED_BACK = "ROLLED_BACK"


class Operation(enum.StrEnum):
    INSTANTIATE = "INSTANTIATE"
    SCALE = "SCALE"
    SCALE_TO_LEVEL = "SCALE_TO_LEVEL"
    CHANGE_FLAVOUR = "CHANGE_FLAVOUR"
    TERMINATE = "TERMINATE"
    HEAL = "HEAL"
    OPERATE = "OPERATE"
    CHANGE_EXT_CONN = "CHANGE_EXT_CONN"
    MODIFY_INFO = "MODIFY_INFO"
    CREATE_SNAPSHOT = "CREATE_SNAPSHOT"
    REVERT_TO_SNAPSHOT = "REVERT_TO_SNAPSHOT"
    CHANGE_VNFPKG = "CHANGE_VNFPKG"


class CancelMode(enum.StrEnum):
    GRACEFUL = "GRACEFUL"
    FORCEFUL = "FORCEFUL"
