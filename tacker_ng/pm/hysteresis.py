"""Simple thresholds with hysteresis (SOL003 6.5.3.4 ThresholdCriteria).

A notification with crossing direction UP is due when the measured value
reaches or exceeds ``thresholdValue + hysteresis``, DOWN when it reaches
or undercuts ``thresholdValue - hysteresis``; a value in between leaves
the threshold where it was, which is what keeps a value that wobbles
around the threshold from sending a storm of notifications.

A threshold starts DOWN (nothing crossed yet): its first value at or
above the upper bound is an UP crossing, a first value at or below the
lower bound is no crossing at all. Which side a value is on is pure
(:func:`side`); whether that is a change is for the database to decide
(:func:`tacker_ng.db.pm_thresholds.set_direction`), so two collectors
that see the same value notify once.
"""

UP = "UP"
DOWN = "DOWN"
#: The state of a threshold no value has crossed yet.
INITIAL = DOWN
DIRECTIONS = (UP, DOWN)


def side(
    value: float, threshold_value: float, hysteresis: float
) -> str | None:
    """UP or DOWN when ``value`` is beyond the band around the threshold,
    None inside it (the previous state holds)."""
    if hysteresis < 0:
        raise ValueError("hysteresis must not be negative")
    if value >= threshold_value + hysteresis:
        return UP
    if value <= threshold_value - hysteresis:
        return DOWN
    return None


def crossing(
    previous: str | None,
    value: float,
    threshold_value: float,
    hysteresis: float,
) -> str | None:
    """The crossing ``value`` makes from state ``previous`` (None: the
    threshold has no state yet), or None when it makes none."""
    now = side(value, threshold_value, hysteresis)
    if now is None or now == (previous or INITIAL):
        return None
    return now
