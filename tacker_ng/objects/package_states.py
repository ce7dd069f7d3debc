"""States of a VNF package (SOL005 VnfPkgInfo) and the onboarding machine.

onboardingState: CREATED -> UPLOADING -> PROCESSING -> ONBOARDED, or ERROR
from UPLOADING/PROCESSING. A failed upload of the body (client gone,
too large) goes back to CREATED. operationalState is DISABLED until the
package is ONBOARDED; usageState is maintained by the LCM.
"""

import enum


class OnboardingState(enum.StrEnum):
    CREATED = "CREATED"
    UPLOADING = "UPLOADING"
    PROCESSING = "PROCESSING"
    ONBOARDED = "ONBOARDED"
    ERROR = "ERROR"


class OperationalState(enum.StrEnum):
    ENABLED = "ENABLED"
    DISABLED = "DISABLED"


class UsageState(enum.StrEnum):
    IN_USE = "IN_USE"
    NOT_IN_USE = "NOT_IN_USE"


#: States in which a process (API upload, conductor) owns the package and
#: renews its lease; a lease that lapses moves the package to ERROR.
IN_PROGRESS = frozenset(
    {OnboardingState.UPLOADING, OnboardingState.PROCESSING}
)

#: States in which DELETE is allowed (besides DISABLED and NOT_IN_USE).
DELETABLE = frozenset(
    {
        OnboardingState.CREATED,
        OnboardingState.ONBOARDED,
        OnboardingState.ERROR,
    }
)
