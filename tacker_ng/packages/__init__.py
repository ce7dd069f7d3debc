"""VNF packages (SOL004 CSAR): safe extraction, verification, VNFD model.

The package REST API and the conductor call :func:`extract_csar` (or
:func:`load_csar` for a stored package); infra drivers read the returned
:class:`~tacker_ng.objects.vnfd.Vnfd`.
"""

from tacker_ng.packages.csar import CsarContents, extract_csar, load_csar
from tacker_ng.packages.exceptions import (
    InvalidPackage,
    InvalidVnfd,
    PackageProblem,
)
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.packages.vnfd.parser import load_vnfd

__all__ = [
    "CsarContents",
    "CsarLimits",
    "InvalidPackage",
    "InvalidVnfd",
    "PackageProblem",
    "extract_csar",
    "load_csar",
    "load_vnfd",
]
