"""``/v1.0/vims``: the VIM registry, as OpenStack Tacker serves it to
python-tackerclient (``openstack vim register/list/show/set/delete``).

Credentials are sealed (Fernet) before they reach the database and never
come back in a response. A new VIM is PENDING until a conductor has
tried it (:mod:`tacker_ng.conductor.vim_status`); the API itself never
talks to a VIM.
"""

from __future__ import annotations

import uuid
from typing import Any

import pecan
import webob

from tacker_ng import crypto, exceptions, policies
from tacker_ng.api import routing, validation
from tacker_ng.api.controllers.nfvo import errors as nfvo_errors
from tacker_ng.api.controllers.vnflcm import common as lcm_common
from tacker_ng.api.schemas import vims as schemas
from tacker_ng.db import api as db_api
from tacker_ng.db import vim_registry
from tacker_ng.objects import tacker_vim, times

RULE = "tacker_ng:vims:"


def _context():
    return pecan.request.context


def _scope() -> str | None:
    """The project whose VIMs the caller sees (None: an admin, all)."""
    return lcm_common.scope(_context())


def _authorize(action: str, project_id: str | None = None) -> None:
    ctx = _context()
    target = {"project_id": project_id or ctx.project_id}
    policies.authorize(ctx, RULE + action, target)


def _render(row: dict[str, Any]) -> dict[str, Any]:
    body = tacker_vim.view(row, crypto.mask(row["vim_connection_info"]))
    for key in ("created_at", "updated_at"):
        if body[key] is not None:
            body[key] = times.sol_time(body[key])
    return body


def _vci(vim: dict[str, Any]) -> dict[str, Any]:
    try:
        return tacker_vim.to_vim_connection_info(vim)
    except tacker_vim.Unsupported as exc:
        raise exceptions.BadRequest(str(exc)) from None


def _owner(vim: dict[str, Any]) -> str:
    """The project of a new VIM: the caller's; an admin may name one."""
    ctx = _context()
    wanted = vim.get("tenant_id")
    if wanted and wanted != ctx.project_id and _scope() is not None:
        raise exceptions.Forbidden(
            "Only an admin registers a VIM for another project."
        )
    return wanted or ctx.project_id


class VimController:
    """``/v1.0/vims/{vim_id}``."""

    def __init__(self, vim_id: str) -> None:
        self.vim_id = vim_id

    def _get(self) -> dict[str, Any]:
        with db_api.reader(_context()) as session:
            return vim_registry.get(session, self.vim_id, _scope())

    @routing.resource()
    def index(self) -> dict:
        row = self._get()
        _authorize("show", row["project_id"])
        return {"vim": _render(row)}

    @index.when(method="PUT", template="json")
    def index_put(self) -> dict:
        vim = validation.parse_json(pecan.request, schemas.UPDATE)["vim"]
        row = self._get()
        _authorize("update", row["project_id"])
        values: dict[str, Any] = {
            k: vim[k] for k in ("name", "description") if k in vim
        }
        if {"auth_cred", "vim_project", "auth_url"} & set(vim):
            kind = tacker_vim.LEGACY_TYPES.get(row["vim_type"], "openstack")
            try:
                vci = tacker_vim.updated(
                    crypto.unseal(row["vim_connection_info"]), kind, vim
                )
            except tacker_vim.Unsupported as exc:
                raise exceptions.BadRequest(str(exc)) from None
            values["vim_connection_info"] = crypto.seal(vci)
        for attempt in db_api.retrying():
            with attempt, db_api.writer(_context()) as session:
                vim_registry.update(
                    session,
                    self.vim_id,
                    _scope(),
                    values,
                    vim.get("is_default"),
                )
        return {"vim": _render(self._get())}

    @index.when(method="DELETE", template="json")
    def index_delete(self) -> webob.Response:
        row = self._get()
        _authorize("delete", row["project_id"])
        for attempt in db_api.retrying():
            with attempt, db_api.writer(_context()) as session:
                vim_registry.delete(session, self.vim_id, _scope())
        return webob.Response(status=204)


class VimsController:
    """``/v1.0/vims``: list and register."""

    def __init__(self) -> None:
        nfvo_errors.register()

    @routing.resource()
    def index(self) -> dict:
        _authorize("index")
        name = pecan.request.GET.get("name")
        with db_api.reader(_context()) as session:
            rows = vim_registry.list_visible(session, _scope(), name)
        return {"vims": [_render(r) for r in rows]}

    @index.when(method="POST", template="json")
    def index_post(self) -> dict:
        vim = validation.parse_json(pecan.request, schemas.CREATE)["vim"]
        project_id = _owner(vim)
        _authorize("create", project_id)
        vim_id = str(uuid.uuid4())
        sealed = crypto.seal(_vci(vim))
        for attempt in db_api.retrying():
            with attempt, db_api.writer(_context()) as session:
                vim_registry.create(
                    session,
                    vim_id,
                    sealed,
                    project_id,
                    vim["name"],
                    vim.get("description") or "",
                    bool(vim.get("is_default")),
                )
        pecan.response.status = 201
        return {"vim": _render(self._row(vim_id))}

    def _row(self, vim_id: str) -> dict[str, Any]:
        with db_api.reader(_context()) as session:
            return vim_registry.get(session, vim_id, None)

    @pecan.expose()
    def _lookup(self, vim_id: str, *remainder):
        return VimController(vim_id.removesuffix(".json")), remainder
