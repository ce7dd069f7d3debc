"""Package compatibility level: which harmless deviations still onboard.

Packages written for OpenStack Tacker deviate from SOL001/SOL004 in ways
Tacker accepts and that do not change what gets deployed (a PlacementGroup
without its required ``description``, ``substitution_mappings``
requirements named ``virtual_link_external1_1`` for the declared
``virtual_link_external1``). At ``[vnf_package] compatibility = tacker``
(the default) such a deviation onboards and is recorded as a warning on
the package (VnfPkgInfo ``onboardingWarnings``); at ``strict`` it is
refused with the same error as before the level existed. Safety checks
never go through here: they refuse at every level.
"""

import re
from typing import Any

TACKER = "tacker"
STRICT = "strict"
LEVELS = (TACKER, STRICT)
#: Property names that only describe; a missing one changes nothing deployed.
DESCRIPTIVE_PROPERTIES = frozenset({"description"})
_SUFFIXED = re.compile(r"^(?P<base>.+)_[0-9]+$")


class Compatibility:
    """The level of one onboarding and the warnings it collected."""

    def __init__(self, level: str = TACKER) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown compatibility level {level!r}")
        self.level = level
        self.warnings: list[str] = []

    @property
    def strict(self) -> bool:
        return self.level == STRICT

    def tolerate(self, error: Exception, warning: str) -> None:
        """Raise ``error`` at ``strict``; otherwise record ``warning`` once
        (a package repeating one deviation gets one line per place)."""
        if self.strict:
            raise error
        if warning not in self.warnings:
            self.warnings.append(warning)

    def relax_descriptive(
        self,
        values: Any,
        definitions: dict[str, Any],
        where: str,
    ) -> dict[str, Any]:
        """``definitions`` with missing required descriptive properties made
        optional (and a warning each) at ``tacker``; unchanged at
        ``strict``, so the value check then refuses with its usual text."""
        if self.strict or not isinstance(values, dict):
            return definitions
        relaxed = dict(definitions)
        for name in sorted(DESCRIPTIVE_PROPERTIES & set(definitions)):
            written = definitions[name]
            definition = (
                {"type": written}
                if isinstance(written, str)
                else {**(written or {})}
            )
            if values.get(name) is not None or "default" in definition:
                continue
            if not definition.get("required", True):
                continue
            relaxed[name] = {**definition, "required": False}
            self.tolerate(
                AssertionError("unreachable"),
                f"{where}: required property {name} is missing "
                "(descriptive only; accepted)",
            )
        return relaxed


def declared_base(name: str, declared: Any) -> str | None:
    """The declared requirement ``name`` is a numbered variant of
    (``virtual_link_external1_2`` -> ``virtual_link_external1``), or None."""
    match = _SUFFIXED.match(name)
    if match and match.group("base") in declared:
        return match.group("base")
    return None
