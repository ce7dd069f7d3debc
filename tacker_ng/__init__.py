"""tacker-ng: an ETSI NFV-SOL003 VNF Manager for OpenStack and Kubernetes.

tacker-ng runs on native threads only. oslo.messaging pulls in oslo.service,
which depends on eventlet, and futurist imports eventlet when it can find
it; either would bring green threads into a threaded process. So before
any other import we select oslo.service's threading backend and make
eventlet unimportable in tacker-ng processes.
"""

import sys

sys.modules.setdefault("eventlet", None)  # type: ignore[arg-type]

from oslo_service import backend as _oslo_service_backend  # noqa: E402

if _oslo_service_backend.get_backend_type() is None:
    _oslo_service_backend.init_backend(
        _oslo_service_backend.BackendType.THREADING
    )
