"""Kubernetes resource quantities ("100m", "1Gi", "2") as numbers."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_SUFFIX = {
    "": Decimal(1),
    "n": Decimal("1e-9"),
    "u": Decimal("1e-6"),
    "m": Decimal("1e-3"),
    "k": Decimal(10) ** 3,
    "M": Decimal(10) ** 6,
    "G": Decimal(10) ** 9,
    "T": Decimal(10) ** 12,
    "P": Decimal(10) ** 15,
    "E": Decimal(10) ** 18,
    "Ki": Decimal(2) ** 10,
    "Mi": Decimal(2) ** 20,
    "Gi": Decimal(2) ** 30,
    "Ti": Decimal(2) ** 40,
    "Pi": Decimal(2) ** 50,
    "Ei": Decimal(2) ** 60,
}
_RE = re.compile(r"^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)([a-zA-Z]*)$")


class QuantityError(ValueError):
    """A string that is not a Kubernetes quantity."""


def parse(value: str | int | float) -> Decimal:
    """The quantity's value in base units (cores, bytes, count)."""
    if isinstance(value, int | float):
        return Decimal(str(value))
    match = _RE.match(str(value).strip())
    if not match or match.group(2) not in _SUFFIX:
        raise QuantityError(
            "quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        )
    number, suffix = match.groups()
    if "e" in number.lower() and suffix:
        raise QuantityError(f"unable to parse quantity's suffix: {value}")
    try:
        return Decimal(number) * _SUFFIX[suffix]
    except InvalidOperation as exc:
        raise QuantityError(f"unable to parse quantity: {value}") from exc


def is_valid(value: object) -> bool:
    """True when ``value`` parses as a quantity."""
    try:
        parse(value)  # type: ignore[arg-type]
    except (QuantityError, TypeError):
        return False
    return True


def milli(value: str | int | float) -> int:
    """The quantity in thousandths, rounded up (how cpu is accounted)."""
    scaled = parse(value) * 1000
    return int(scaled.to_integral_value(rounding="ROUND_CEILING"))


def whole(value: str | int | float) -> int:
    """The quantity rounded up to a whole unit (memory, pods, storage)."""
    return int(parse(value).to_integral_value(rounding="ROUND_CEILING"))
