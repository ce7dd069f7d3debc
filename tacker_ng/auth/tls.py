"""TLS of the API servers: HTTPS, and mutual TLS when ``[api]
ssl_client_ca_file`` names the CA whose client certificates are
accepted (a client without one, or with one from another CA, fails the
handshake and never reaches the application)."""

from __future__ import annotations

import ssl

from oslo_config import cfg


def enabled(conf: cfg.ConfigOpts) -> bool:
    """Whether the API serves HTTPS."""
    return bool(conf.api.ssl_cert_file)


def server_context(conf: cfg.ConfigOpts) -> ssl.SSLContext | None:
    """The API's server SSL context, or None for plain HTTP."""
    if not enabled(conf):
        return None
    api = conf.api
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(api.ssl_cert_file, api.ssl_key_file or None)
    if api.ssl_client_ca_file:
        ctx.load_verify_locations(cafile=api.ssl_client_ca_file)
        ctx.verify_mode = ssl.CERT_REQUIRED
    return ctx


def check_files(conf: cfg.ConfigOpts) -> None:
    """Fail at start, with the option's name, on unreadable TLS files."""
    api = conf.api
    if api.ssl_client_ca_file and not api.ssl_cert_file:
        raise ValueError(
            "[api] ssl_client_ca_file needs [api] ssl_cert_file: mutual "
            "TLS is TLS first"
        )
    for name in ("ssl_cert_file", "ssl_key_file", "ssl_client_ca_file"):
        path = getattr(api, name)
        if path:
            try:
                with open(path, "rb"):
                    pass
            except OSError as exc:
                raise ValueError(
                    f"[api] {name} = {path}: {exc.strerror}"
                ) from None
    try:
        server_context(conf)
    except ssl.SSLError as exc:
        raise ValueError(f"[api] TLS files are not usable: {exc}") from None
