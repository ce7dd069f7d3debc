"""Pecan hooks: request context, SOL Version check, error rendering."""

from oslo_config import cfg
from pecan import hooks
from webob import exc as webob_exc

from tacker_ng import context as tcontext
from tacker_ng import exceptions
from tacker_ng.api import errors, unserved, versions


class ContextHook(hooks.PecanHook):
    """Build the RequestContext from the headers the auth layer set."""

    priority = 10

    def before(self, state) -> None:
        state.request.context = tcontext.RequestContext.from_environ(
            state.request.environ
        )


class SolVersionHook(hooks.PecanHook):
    """Enforce the SOL013 ``Version`` header on versioned resources."""

    priority = 20

    def on_route(self, state) -> None:
        path = state.request.path
        api = versions.api_for_path(path)
        if api is None or not versions.needs_version_header(api, path):
            return
        requested = state.request.headers.get(versions.VERSION_HEADER)
        if requested is None and not api.version_required:
            return
        if not requested:
            raise exceptions.BadRequest(
                f"The '{versions.VERSION_HEADER}' header is required; "
                f"supported versions: {', '.join(api.versions)}."
            )
        if requested not in api.versions:
            raise exceptions.NotAcceptable(
                f"API version '{requested}' is not supported; supported "
                f"versions: {', '.join(api.versions)}."
            )


class ErrorHook(hooks.PecanHook):
    """Turn any exception from a controller into ProblemDetails.

    A route no controller matched (pecan's own 404) under a prefix a
    misconfigured client calls gets a detail naming the fix
    (:mod:`tacker_ng.api.unserved`).
    """

    def on_error(self, state, exc):
        if isinstance(exc, webob_exc.HTTPNotFound):
            base = cfg.CONF.api.public_endpoint or state.request.host_url
            detail = unserved.hint(state.request.path, base)
            if detail is not None:
                exc = exceptions.NotFound(detail)
        return errors.from_exception(exc)


class FormBodyHook(hooks.PecanHook):
    """Refuse HTML form bodies before pecan tries to parse them.

    No resource takes a form, and pecan would parse one while routing: a
    malformed multipart body would then fail there, as a 500.
    """

    priority = 5

    FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")

    def on_route(self, state) -> None:
        content_type = (state.request.content_type or "").lower()
        if content_type.startswith(self.FORM_TYPES):
            raise exceptions.UnsupportedMediaType(
                f"Content-Type {content_type} is not accepted here."
            )
