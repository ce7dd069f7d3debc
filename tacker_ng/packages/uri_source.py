"""``upload_from_uri``: where the package comes from and how to fetch it.

The API checks the URI (:func:`check_uri`) and stores the request with
its password sealed (:func:`tacker_ng.packages.store.save_source`); the
conductor downloads it (:func:`download`) with ``[vnf_package]``'s
timeouts, TLS settings and the archive size limit.
"""

from typing import Any

from oslo_config import cfg

from tacker_ng import outbound
from tacker_ng.packages import fetch, store
from tacker_ng.packages.fetch import FetchFailed

__all__ = ["FetchFailed", "check_uri", "download"]


def check_uri(uri: str, conf: cfg.ConfigOpts = cfg.CONF) -> None:
    """400 unless ``uri`` is an absolute URI of an allowed scheme, without
    user info (credentials go in ``userName``/``password``), whose host
    the outbound policy allows (:mod:`tacker_ng.outbound`)."""
    outbound.check_url(
        uri,
        "addressInformation",
        schemes=conf.vnf_package.upload_from_uri_schemes,
        conf=conf,
        credentials_in="userName and password of the "
        "UploadVnfPkgFromUriRequest",
    )


def download(
    package_id: str, request: dict[str, Any], conf: cfg.ConfigOpts = cfg.CONF
) -> tuple[int, dict[str, str]]:
    """Fetch ``request['addressInformation']`` into the package's part
    file; return ``(size, checksum)``."""
    opts = conf.vnf_package
    session = outbound.session(conf)
    session.verify = opts.upload_from_uri_ca_file or (
        opts.upload_from_uri_verify_tls
    )
    if request.get("userName") is not None:
        session.auth = (request["userName"], request.get("password") or "")
    with session:
        return fetch.download(
            session,
            request["addressInformation"],
            store.part_file(package_id),
            limit=opts.max_archive_size,
            timeout=opts.upload_from_uri_timeout,
            max_duration=opts.upload_from_uri_max_duration,
            schemes=tuple(opts.upload_from_uri_schemes),
        )
