"""Errors of the reservation service, in the one tacker-ng hierarchy.

No capacity and "cannot change this now" are 409s (Blazar answers 500
for the first); malformed leases are 400s.
"""

from tacker_ng import exceptions


class InvalidLease(exceptions.BadRequest):
    message = "Invalid lease: {reason}"


class InvalidDate(InvalidLease):
    message = "Invalid {field} '{date}': use 'YYYY-MM-DD HH:MM' or 'now'."


class MissingDate(InvalidDate):
    message = "{field} is required: 'YYYY-MM-DD HH:MM' (UTC) or 'now'."


class InsufficientCapacity(exceptions.Conflict):
    title = "Conflict"
    message = "Not enough capacity for the lease: {reason}"

    def __init__(self, reason: str) -> None:
        super().__init__(reason=reason)
        #: The planner's own explanation, without the prefix.
        self.reason = reason


class CantUpdateParameter(exceptions.Conflict):
    message = "{param} cannot be changed now: {reason}"


class InvalidStatus(exceptions.Conflict):
    message = "Lease {lease_id} is {status}: {reason}"


class LeaseNameExists(exceptions.Conflict):
    message = "A lease named '{name}' already exists in this project."


class LeaseNotFound(exceptions.NotFound):
    message = "Lease {lease_id} could not be found."


class HostNotFound(exceptions.NotFound):
    message = "Host {host_id} could not be found."


class HostExists(exceptions.Conflict):
    message = "Host {name} is already registered."


class HostInUse(exceptions.Conflict):
    message = "Host {host_id} has current or future reservations."


class HypervisorNotFound(exceptions.BadRequest):
    message = "Nova knows no hypervisor named '{name}'."


class ReservationNotFound(exceptions.NotFound):
    message = "Reservation {reservation_id} could not be found."


class ReservationNotActive(exceptions.Conflict):
    message = (
        "Reservation {reservation_id} is {status}; only an active "
        "reservation can be used."
    )


class NovaNotConfigured(exceptions.ServiceUnavailable):
    message = (
        "The reservation service has no Nova credentials: configure "
        "[reservation_nova] (auth_type, auth_url, username, ...)."
    )


class NovaError(exceptions.ServiceUnavailable):
    message = "Nova ([reservation_nova]) failed: {reason}"
