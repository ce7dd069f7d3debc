"""Errors of the Kubernetes infra driver, each with its ProblemDetails."""

from tacker_ng import exceptions


class InvalidVimConnection(exceptions.UnprocessableEntity):
    """vimConnectionInfo lacks what a Kubernetes client needs."""

    message = "vimConnectionInfo is not usable: {reason}"


class InvalidManifest(exceptions.UnprocessableEntity):
    """The package's manifests or the request's file list are unusable."""

    message = "The Kubernetes manifests cannot be deployed: {reason}"


class ApiError(exceptions.TackerNgError):
    """The Kubernetes API refused or failed a request."""

    status = 502
    title = "Kubernetes API Error"
    message = "{action} {kind} {name}: {reason}"
    #: The API server's HTTP status (409: AlreadyExists or Conflict).
    code: int = 0


class Unreachable(exceptions.TackerNgError):
    """The API server did not answer (refused, reset, timed out, TLS):
    a problem of the VIM that a retry of the operation may overcome."""

    status = 504
    title = "Kubernetes API Unreachable"
    message = "{action} {kind} {name}: {reason}"


class NotOwned(exceptions.Conflict):
    """An object of the manifests exists and belongs to something else."""

    title = "Kubernetes Object Exists"
    message = (
        "{object} already exists and was not created for this VNF "
        "instance; choose another additionalParams.namespace."
    )


class WorkloadGone(exceptions.Conflict):
    """A VDU's workload was deleted outside the VNFM: only a heal (which
    re-creates it from the package) can run on the CNF until then."""

    title = "Kubernetes Workload Gone"
    message = (
        "{object}, the workload of {vdu}, is gone from the cluster "
        "(deleted outside the VNFM); heal the VNF first: a heal "
        "re-creates it from the package."
    )


class Unschedulable(exceptions.TackerNgError):
    """A pod cannot be placed: the scheduler's own message is the detail."""

    status = 409
    title = "Pod Unschedulable"
    message = "Pod {pod} of {workload} cannot be scheduled: {reason}"


class NotReady(exceptions.TackerNgError):
    status = 504
    title = "Kubernetes Timeout"
    message = "{what} not {state} after {timeout}s ([kubernetes] {option})."
