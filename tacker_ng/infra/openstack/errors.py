"""Errors of the OpenStack infra driver, each with its ProblemDetails.

What a VIM answered is told in the words of :mod:`tacker_ng.
outbound_errors`: the VIM by its vimId, the service, the HTTP status and
the service's own message (scrubbed of addresses); a client library's
text is logged (:func:`refused`). Heat's stack status reasons are a
cloud's verdict and shown scrubbed (:func:`verdict`).
"""

from oslo_log import log as logging

from tacker_ng import exceptions, outbound_errors

LOG = logging.getLogger(__name__)


class InvalidVimConnection(exceptions.UnprocessableEntity):
    """vimConnectionInfo lacks what a Keystone v3 session needs."""

    message = "vimConnectionInfo is not usable: {reason}"


class UnsupportedPackage(exceptions.UnprocessableEntity):
    """The package needs something this driver does not do."""

    message = "The VNF package cannot be deployed on OpenStack: {reason}"


class InvalidRequest(exceptions.UnprocessableEntity):
    """The LCM request lacks what the Heat templates need."""

    message = "The request cannot be deployed: {reason}"


class VimError(exceptions.TackerNgError):
    """Heat or Nova refused or failed a request."""

    status = 502
    title = "VIM Error"
    message = "{reason}"


class StackGone(VimError):
    """The VNF's stack is gone from Heat (deleted outside the VNFM)."""

    title = "Stack Gone"
    message = (
        "Heat stack {stack} not found: it was deleted outside the VNFM. "
        "Heal the VNF first: a heal re-creates the stack."
    )


class VimUnreachable(exceptions.TackerNgError):
    """Keystone, Heat or Nova did not answer in time, or refused the
    connection: a transient problem of the VIM, the step can be retried."""

    status = 504
    title = "VIM Unreachable"
    message = "{vim} is unreachable: {reason}"


class VimAuthRefused(VimError):
    """Keystone refused the vimConnectionInfo's credentials."""

    title = "VIM Authentication Refused"
    message = "{vim} refused the credentials of vimConnectionInfo: {reason}"


class StackFailed(exceptions.TackerNgError):
    """A Heat stack action ended in *_FAILED (no reselection applies)."""

    status = 502
    title = "Stack Failed"
    message = "Heat stack {stack} {action} failed: {reason}"


class StackTimeout(exceptions.TackerNgError):
    status = 504
    title = "Stack Timeout"
    message = (
        "Heat stack {stack} still {status} after {timeout}s "
        "([openstack] stack_timeout)."
    )


class InsufficientCapacity(exceptions.Conflict):
    """Capacity failures that zone reselection could not overcome."""

    title = "Insufficient Capacity"
    message = "{reason}"


class VolumeHasSnapshots(exceptions.Conflict):
    """The operation would delete a volume that has Cinder snapshots,
    which Cinder refuses (Heat would fail the stack half-way)."""

    title = "Volume Has Snapshots"
    message = "{reason}"


def vim_name(session: object) -> str:
    """How errors name the VIM of ``session`` ("VIM <vimId>")."""
    name = getattr(session, "vim_name", None)
    return name if isinstance(name, str) else "the VIM"


def refused(vim: str, what: str, exc: BaseException) -> VimError:
    """VimError for a VIM that refused or failed ``what`` ("Heat stack
    create"): its status and message, the library's text to the log."""
    LOG.warning("%s on %s failed: %s", what, vim, exc)
    if outbound_errors.http_status(exc) is None:
        how = outbound_errors.transport_failure(exc)
    else:
        how = f"the VIM answered {outbound_errors.answer(exc)}"
    return VimError(reason=f"{what} on {vim} failed: {how}")


def verdict(reason: object) -> str:
    """A Heat stack (or resource) status reason as a caller may see it."""
    return outbound_errors.scrub(reason) or "Heat gave no reason"
