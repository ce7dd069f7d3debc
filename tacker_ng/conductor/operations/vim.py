"""Which VIM an operation runs on: the instance's, else the default.

Entries for VIMs the instance *provides* (its Kubernetes cluster) are
never chosen; among the others the lowest vimConnectionInfo key wins,
the same rule as the infra drivers' (a Grant may name another).
"""

from typing import Any

from oslo_config import cfg

from tacker_ng import crypto, exceptions
from tacker_ng.objects import vim_refs

DEFAULT_VIM_ID = "default"


class NoVim(exceptions.UnprocessableEntity):
    message = (
        "The VNF instance has no vimConnectionInfo and no default VIM is "
        "configured ([vim] auth_url)."
    )


def default_vim(conf: cfg.ConfigOpts = cfg.CONF) -> dict[str, Any] | None:
    """The ``[vim]`` VIM as a VimConnectionInfo, or None."""
    if not conf.vim.auth_url:
        return None
    return {
        "vimId": DEFAULT_VIM_ID,
        "vimType": conf.vim.default_vim_type,
        "interfaceInfo": {
            "endpoint": conf.vim.auth_url,
            "skipCertificateVerification": not conf.vim.verify_tls,
        },
        "accessInfo": {
            "username": conf.vim.username,
            "password": conf.vim.password,
            "project": conf.vim.project_name,
            "userDomain": conf.vim.user_domain_name,
            "projectDomain": conf.vim.project_domain_name,
            **(
                {"region": conf.vim.region_name}
                if conf.vim.region_name
                else {}
            ),
        },
    }


def select(
    vim_connection_info: dict[str, Any] | None,
) -> tuple[str, dict[str, Any]]:
    """``(vimConnectionId, decrypted VimConnectionInfo)`` to run on."""
    usable = vim_refs.runs_on(vim_connection_info)
    if usable:
        vim_id = sorted(usable)[0]
        return vim_id, crypto.unseal(usable[vim_id])
    vim = default_vim()
    if vim is None:
        raise NoVim()
    return DEFAULT_VIM_ID, vim
