"""Request bodies: media type, JSON syntax and jsonschema, or a 4xx."""

from typing import Any

import jsonschema

from tacker_ng import exceptions
from tacker_ng.api.middleware import sanity

JSON = "application/json"
MERGE_PATCH = "application/merge-patch+json"

_VALIDATORS: dict[int, jsonschema.protocols.Validator] = {}


def _validator(schema: dict) -> jsonschema.protocols.Validator:
    validator = _VALIDATORS.get(id(schema))
    if validator is None:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
        _VALIDATORS[id(schema)] = validator
    return validator


def _where(error: jsonschema.ValidationError) -> str:
    path = "/".join(str(p) for p in error.absolute_path)
    return f" at '/{path}'" if path else ""


def validate(body: Any, schema: dict) -> None:
    """Raise 400 naming the first schema violation and where it is."""
    validator = _validator(schema)
    if validator.is_valid(body):
        return
    error = jsonschema.exceptions.best_match(validator.iter_errors(body))
    if error is not None:
        raise exceptions.BadRequest(
            f"Invalid request body{_where(error)}: {error.message}"
        )


def parse_json(
    request, schema: dict | None = None, media_type: str = JSON
) -> Any:
    """The request's JSON body, checked against ``schema`` if given.

    No body at all is the caller's mistake of a missing body (400, as
    SOL013 lists it), whatever Content-Type; a body of another type is
    415.
    """
    if not request.body:
        raise exceptions.BadRequest(
            f"The request body is missing: a {media_type} document is "
            "required."
        )
    content_type = (request.content_type or "").split(";")[0].strip()
    if content_type != media_type:
        raise exceptions.UnsupportedMediaType(
            f"Content-Type must be {media_type}, not "
            f"'{content_type or 'none'}'."
        )
    if sanity.JSON_BODY in request.environ:
        body = request.environ[sanity.JSON_BODY]
    else:
        body = sanity.decode(request.body)
    if schema is not None:
        validate(body, schema)
    return body
