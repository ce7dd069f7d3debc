"""Read Heat's failure texts: was it a lack of capacity, and which VNFC?

Pure functions over the ``resource_status_reason`` strings of Heat events
(no I/O), so that AZ reselection decides on tested text handling only.
Paths are parsed segment by segment, never with a greedy ``.*``: OpenStack
Tacker's ``resources\\.((.*)-([0-9]+))`` runs into the instance UUID of
Nova's "Exceeded maximum number of retries" message and finds no VNFC.
"""

import dataclasses
import functools
import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any

#: A path segment ``resources.<name>`` ends at '.', ':' or whitespace.
_SEGMENT_RE = re.compile(r"resources\.(?P<name>[^\s.:\"']+)")
#: Generic VNFC resource name (``<VDU>-<index>``) when no names are known.
_VNFC_NAME_RE = re.compile(r"^.+-\d+$")
#: Heat's texts for a resource it stopped because another one failed.
_CANCELLED_RE = re.compile(
    r"(?:Stack|Resource) (?:CREATE|UPDATE|DELETE|CHECK) cancelled"
    r"|Operation cancelled|\bcancelled\b$",
    re.IGNORECASE,
)
_FAILED_STATUSES = ("CREATE_FAILED", "UPDATE_FAILED")
#: Heat's text for a server in ERROR whose fault Nova had not recorded yet
#: (Nova sets the state, then writes the fault; Heat can poll in between).
_UNKNOWN_FAULT_RE = re.compile(r"Message: Unknown, Code: Unknown")


class InvalidErrorRegex(ValueError):
    """``[placement] az_resource_error_regex`` does not compile."""


@functools.lru_cache(maxsize=32)
def compile_regex(pattern: str) -> re.Pattern[str]:
    """Compile the operator's capacity regex once (clear error if bad)."""
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise InvalidErrorRegex(
            f"[placement] az_resource_error_regex {pattern!r} is not a "
            f"valid regular expression: {exc}"
        ) from exc


def is_capacity_error(reason: str, pattern: str) -> bool:
    """True when ``reason`` says the zone lacked capacity (regex search)."""
    return bool(reason) and compile_regex(pattern).search(reason) is not None


def is_cancellation(reason: str) -> bool:
    """True for Heat's "cancelled" texts: a consequence, not a cause."""
    return bool(_CANCELLED_RE.search(reason or ""))


def is_unknown_fault(reason: str) -> bool:
    """True when Heat saw a server in ERROR without Nova's fault yet: the
    cause is unknown, not "not capacity"; ask Nova for the fault."""
    return bool(_UNKNOWN_FAULT_RE.search(reason or ""))


def failed_vnfc(reason: str, known: Collection[str] = ()) -> str | None:
    """The top-level resource (VNFC) a Heat failure path names first.

    ``Resource UPDATE failed: resources.VDU1-0: Resource CREATE failed:
    ResourceInError: resources.VDU1: ...`` names ``VDU1-0``. With
    ``known`` names, only those count (a name containing '.' is matched
    literally); without, the first ``<name>-<n>`` segment does.
    """
    if not reason:
        return None
    for match in _SEGMENT_RE.finditer(reason):
        name = match.group("name")
        if (known and name in known) or (
            not known and _VNFC_NAME_RE.match(name)
        ):
            return name
    best: tuple[int, str] | None = None
    for name in known:
        hit = re.search(
            r"resources\." + re.escape(name) + r"(?=[.:\s])", reason
        )
        if hit and (best is None or hit.start() < best[0]):
            best = (hit.start(), name)
    return best[1] if best else None


def failed_zone(
    reason: str, zones_by_vnfc: Mapping[str, str | None]
) -> str | None:
    """The zone the failed VNFC was placed in (its locationConstraints)."""
    name = failed_vnfc(reason, zones_by_vnfc.keys())
    return zones_by_vnfc.get(name) if name else None


@dataclasses.dataclass(frozen=True)
class Failure:
    """What Heat reported for one failed VNFC (or an unnamed resource)."""

    #: VNFC resource name (``VDU1-0``), or None when no VNFC is named.
    vnfc: str | None
    #: Every distinct reason seen for it, first first.
    reasons: tuple[str, ...]
    #: One of the reasons matches the capacity regex.
    capacity: bool
    #: Every reason is a cancellation (a consequence of another failure).
    cancelled: bool

    @property
    def reason(self) -> str:
        return self.reasons[0] if self.reasons else ""

    @property
    def unknown(self) -> bool:
        """Only Heat's "Message: Unknown" placeholder: Nova's fault of the
        server says what really happened."""
        return not self.capacity and all(
            is_unknown_fault(t) for t in self.reasons
        )


def _field(event: Any, name: str) -> Any:
    if isinstance(event, Mapping):
        return event.get(name)
    return getattr(event, name, None)


def failures(
    events: Iterable[Any],
    known: Collection[str],
    pattern: str,
) -> list[Failure]:
    """Group the *_FAILED events of one stack attempt by VNFC.

    ``events`` are Heat events (objects or dicts with ``resource_name``,
    ``resource_status`` and ``resource_status_reason``) of the root stack
    and, optionally, nested stacks or Nova faults phrased the same way.
    """
    reasons: dict[str | None, list[str]] = {}
    for event in events:
        if _field(event, "resource_status") not in _FAILED_STATUSES:
            continue
        reason = _field(event, "resource_status_reason") or ""
        resource = _field(event, "resource_name")
        name = resource if resource in known else failed_vnfc(reason, known)
        bucket = reasons.setdefault(name, [])
        if reason not in bucket:
            bucket.append(reason)
    out = []
    for name, texts in reasons.items():
        capacity = any(is_capacity_error(t, pattern) for t in texts)
        cancelled = not capacity and all(is_cancellation(t) for t in texts)
        out.append(Failure(name, tuple(texts), capacity, cancelled))
    return out


@dataclasses.dataclass(frozen=True)
class Verdict:
    """How one failed stack attempt is judged."""

    #: VNFC name -> the capacity reason (reselect these).
    capacity: dict[str, str]
    #: Reasons of failures that are not a lack of capacity (fail at once).
    other: tuple[str, ...]

    @property
    def reselectable(self) -> bool:
        return bool(self.capacity) and not self.other


def judge(found: Iterable[Failure]) -> Verdict:
    """Capacity failures of named VNFCs, and every other real failure.

    Cancellations are ignored (Heat cancels the rest of a stack when one
    resource fails). A capacity failure that names no VNFC cannot be
    reselected, so it counts as "other".
    """
    capacity: dict[str, str] = {}
    other: list[str] = []
    for failure in found:
        if failure.cancelled:
            continue
        if failure.capacity and failure.vnfc is not None:
            capacity[failure.vnfc] = next(
                (t for t in failure.reasons if not is_cancellation(t)),
                failure.reason,
            )
            continue
        real = [t for t in failure.reasons if not is_cancellation(t)]
        if real:
            other.append(real[0])
    return Verdict(capacity, tuple(other))
