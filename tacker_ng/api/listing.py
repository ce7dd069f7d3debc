"""The query of a SOL list request: filter, selectors, page; Link header.

Controllers call :func:`parse_list_query` before touching the database
(so a bad filter or selector is a 400 at once), hand the query's filter,
marker and limit to :func:`tacker_ng.db.listing.list_page`, shape each
row's dict with :meth:`ListQuery.select` and answer the next page's
marker with :func:`link_header`.
"""

import dataclasses
import urllib.parse
from typing import Any

import webob.multidict
from oslo_config import cfg

from tacker_ng import conf as _conf  # noqa: F401 (registers [api])
from tacker_ng import exceptions
from tacker_ng.api import filtering, selectors
from tacker_ng.db import field_maps, filters, paging


@dataclasses.dataclass(frozen=True)
class ListResource:
    """A list resource: its filterable fields and its selector rules."""

    name: str
    fields: field_maps.FieldMap
    #: None: the resource takes no attribute selectors (they are ignored).
    selectors: selectors.Spec | None


VNF_INSTANCES = ListResource(
    "VnfInstance", field_maps.VNF_INSTANCE, selectors.VNF_INSTANCE
)
VNF_LCM_OP_OCCS = ListResource(
    "VnfLcmOpOcc", field_maps.VNF_LCM_OP_OCC, selectors.VNF_LCM_OP_OCC
)
SUBSCRIPTIONS = ListResource(
    "LccnSubscription", field_maps.LCCN_SUBSCRIPTION, None
)
PKGM_SUBSCRIPTIONS = ListResource(
    "PkgmSubscription", field_maps.PKGM_SUBSCRIPTION, None
)
VNF_PACKAGES = ListResource(
    "VnfPkgInfo", field_maps.VNF_PKG_INFO, selectors.VNF_PKG_INFO
)


@dataclasses.dataclass(frozen=True)
class ListQuery:
    """What a list request asks for, checked and parsed."""

    resource: ListResource
    filter: filtering.Filter | None
    selector: selectors.Selector | None
    marker: str | None
    limit: int

    def select(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` as the selectors want it in the response."""
        return self.selector.apply(body) if self.selector else body

    def includes(self, attribute: str) -> bool:
        """Whether the response needs (part of) a top-level attribute."""
        return self.selector.includes(attribute) if self.selector else True

    def select_needed(self) -> bool:
        """False when rendered rows are already what the selectors want:
        nothing projected or excluded, and every attribute dropped is a
        document the query did not read (the common default request)."""
        sel = self.selector
        if sel is None:
            return False
        documents = self.resource.fields.documents
        return bool(
            sel.include
            or sel.exclude
            or any(name not in documents for name in sel.dropped)
        )


def _single(params: Any, name: str) -> str | None:
    values = params.getall(name)
    if len(values) > 1:
        raise exceptions.BadRequest(f"{name} is given more than once.")
    return values[0] if values else None


def _utf8(text: str) -> str:
    return text.encode("latin-1").decode("utf-8")


def query_params(request: Any) -> webob.multidict.MultiDict:
    """The query parameters of ``request``, split on ``&`` only.

    WebOb also splits on ``;``, which is how SOL013 separates the terms
    of one ``filter`` (``(eq,a,1);(eq,b,2)``): a client that does not
    percent-encode it would see every term after the first dropped.
    """
    # WSGI hands the raw query as latin-1 text; percent-escapes are
    # decoded as latin-1 too, so each value goes back to bytes, then UTF-8.
    raw = request.environ.get("QUERY_STRING", "")
    try:
        pairs = [
            (_utf8(name), _utf8(value))
            for name, value in urllib.parse.parse_qsl(
                raw, keep_blank_values=True, encoding="latin-1", separator="&"
            )
        ]
    except UnicodeDecodeError:
        raise exceptions.BadRequest(
            "The query string is not valid UTF-8."
        ) from None
    return webob.multidict.MultiDict(pairs)


def parse_list_query(
    request: Any, resource: ListResource, conf: cfg.ConfigOpts = cfg.CONF
) -> ListQuery:
    """The :class:`ListQuery` of a webob request; 400 on bad parameters."""
    params = query_params(request)
    text = _single(params, "filter")
    flt = None
    if text is not None:
        flt = filtering.parse(text)
        filters.bind(flt, resource.fields)  # 400 now, not at query time
    selector = None
    if resource.selectors is not None:
        selector = selectors.parse(params, resource.selectors)
    marker = _single(params, paging.PARAM)
    if marker is not None and not marker:
        raise exceptions.BadRequest(f"{paging.PARAM} is empty.")
    return ListQuery(resource, flt, selector, marker, conf.api.max_page_size)


def next_page_url(url: str, marker: str, base: str | None = None) -> str:
    """``url`` with its marker replaced by ``marker``; the other query
    parameters are kept exactly as the client wrote them. ``base``
    (``[api] public_endpoint``) replaces the scheme, host and port."""
    parts = urllib.parse.urlsplit(url)
    kept = [
        item
        for item in parts.query.split("&")
        if item and item.partition("=")[0] != paging.PARAM
    ]
    kept.append(f"{paging.PARAM}={urllib.parse.quote(marker, safe='')}")
    query = "&".join(kept)
    if base:
        origin = urllib.parse.urlsplit(base.rstrip("/"))
        path = origin.path + parts.path
        return urllib.parse.urlunsplit(
            (origin.scheme, origin.netloc, path, query, "")
        )
    return urllib.parse.urlunsplit(
        (parts.scheme, parts.netloc, parts.path, query, "")
    )


def link_header(
    request: Any, marker: str | None, conf: cfg.ConfigOpts = cfg.CONF
) -> str | None:
    """The ``Link`` header value pointing at the next page, if any."""
    if marker is None:
        return None
    url = next_page_url(request.url, marker, conf.api.public_endpoint)
    return f'<{url}>; rel="next"'
