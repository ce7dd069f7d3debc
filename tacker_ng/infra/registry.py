"""Find the infra driver for a vimType (entry points, loaded once)."""

import functools

from stevedore import driver as stevedore_driver
from stevedore import exception as stevedore_exc

from tacker_ng import exceptions
from tacker_ng.infra import base

NAMESPACE = "tacker_ng.infra_drivers"


class NoDriverForVim(exceptions.UnprocessableEntity):
    message = "No infra driver is installed for vimType '{vim_type}'."


@functools.cache
def get_driver(vim_type: str) -> base.InfraDriver:
    """The driver instance serving ``vim_type``."""
    try:
        manager = stevedore_driver.DriverManager(
            NAMESPACE, vim_type, invoke_on_load=True
        )
    except (stevedore_exc.NoMatches, RuntimeError) as exc:
        raise NoDriverForVim(vim_type=vim_type) from exc
    return manager.driver


def has_driver(vim_type: str) -> bool:
    try:
        get_driver(vim_type)
    except NoDriverForVim:
        return False
    return True
