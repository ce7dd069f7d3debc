"""The reservation service's Nova errors reach ``/v1/os-hosts`` callers
(a host registration is an RPC call): worded by tacker-ng, never with
keystoneauth's text (Nova's URL) or the exception's class."""

import pytest
import requests
from keystoneauth1 import exceptions as ks_exc
from novaclient import exceptions as nova_exc

from tacker_ng.reservation import exceptions, nova


def _refused() -> ks_exc.ConnectFailure:
    failure = ks_exc.ConnectFailure(
        "Unable to establish connection to http://10.0.0.9:8774/v2.1/"
        "os-hypervisors: HTTPConnectionPool(host='10.0.0.9', port=8774): "
        "[Errno 111] Connection refused"
    )
    inner = requests.ConnectionError("pool")
    inner.__context__ = ConnectionRefusedError(111, "Connection refused")
    failure.__context__ = inner
    return failure


@pytest.mark.parametrize(
    ("raised", "detail"),
    [
        (
            _refused(),
            "Nova ([reservation_nova]) failed: search hypervisor: the "
            "connection was refused",
        ),
        (
            nova_exc.Conflict(409, "Aggregate agg-1 busy", request_id="r"),
            "Nova ([reservation_nova]) failed: search hypervisor: Nova "
            "answered HTTP 409: Aggregate agg-1 busy",
        ),
    ],
)
def test_nova_failures_in_our_words(raised, detail):
    @nova._translated
    def search_hypervisor():
        raise raised

    with pytest.raises(exceptions.NovaError) as caught:
        search_hypervisor()
    assert caught.value.detail == detail
    assert caught.value.status == 503
