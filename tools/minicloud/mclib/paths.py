"""Where minicloud keeps things, and the fixed facts every module shares."""

from __future__ import annotations

import os
from pathlib import Path

TOOL_DIR = Path(__file__).resolve().parent.parent
REPO = TOOL_DIR.parent.parent


#: Which minicloud of the machine (env ``MINICLOUD_INSTANCE``, default 0).
#: Instance N>0 is a second, independent cloud: its own home, ports (+N*10),
#: databases (``mcN_*``) and RabbitMQ vhost, for work that must not share
#: the cloud the test suite uses. It reuses instance 0's virtualenv.
INSTANCE = int(os.environ.get("MINICLOUD_INSTANCE") or 0)
SUFFIX = str(INSTANCE) if INSTANCE else ""


def default_home(instance: int = INSTANCE) -> Path:
    """One minicloud per user and machine, shared by every checkout.

    A fresh clone (CI) then reuses the installed venv and the running
    cloud instead of installing a second one on the same fixed ports.
    """
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    name = f"minicloud{instance}" if instance else "minicloud"
    return Path(cache) / "tacker-ng" / name


HOME = Path(os.environ.get("MINICLOUD_HOME") or default_home()).resolve()
VENV = Path(
    os.environ.get("MINICLOUD_VENV")
    or (default_home(0) / "venv" if INSTANCE else HOME / "venv")
).resolve()
VBIN = VENV / "bin"
ETC = HOME / "etc"
DATA = HOME / "data"
LOGS = HOME / "logs"
RUN = HOME / "run"
STATE_FILE = HOME / "state.json"
INITIALIZED = DATA / ".initialized"
#: Cinder came after the first clouds: its schema and catalog entries are
#: set up once more on a cloud initialized without it.
CINDER_INITIALIZED = DATA / ".initialized-cinder"
#: The file-backed volume driver's "disks": ``volume-<id>`` and
#: ``snapshot-<id>`` (see mc_anyhost.file_volume).
CINDER_VOLUMES = DATA / "cinder-volumes"

HOST = "127.0.0.1"
REGION = "RegionOne"
PORTS = {
    name: port + 10 * INSTANCE
    for name, port in {
        "keystone": 25000,
        "placement": 28778,
        "nova-api": 28774,
        "heat-api": 28004,
        "glance": 29292,
        "neutron": 29696,
        "cinder-api": 28776,
    }.items()
}
AUTH_URL = f"http://{HOST}:{PORTS['keystone']}/v3"

# Shared MariaDB / RabbitMQ (already running on the machine; never ours).
DB_PORT = 3306
DB_PREFIX = f"mc{SUFFIX}_"
DB_USER = f"mc{SUFFIX}_os"
DB_PASSWORD = "mc-db-secret"  # noqa: S105 - throw-away test cloud
DATABASES = tuple(
    DB_PREFIX + name
    for name in (
        "keystone",
        "placement",
        "nova_api",
        "nova",
        "nova_cell0",
        "glance",
        "neutron",
        "heat",
        "cinder",
    )
)
RABBIT_PORT = 5672
RABBIT_VHOST = f"minicloud{SUFFIX}"
RABBIT_USER = f"minicloud{SUFFIX}"
RABBIT_PASSWORD = "mc-rabbit-secret"  # noqa: S105
TRANSPORT_URL = (
    f"rabbit://{RABBIT_USER}:{RABBIT_PASSWORD}@{HOST}:{RABBIT_PORT}/"
    f"{RABBIT_VHOST}"
)

# Keystone users; one password for all of them (test cloud).
PASSWORD = "secret"  # noqa: S105
PROJECT = "vnf"
PROJECT_USER = "vnfuser"


def db_url(name: str) -> str:
    """SQLAlchemy URL of one of minicloud's databases."""
    return f"mysql+pymysql://{DB_USER}:{DB_PASSWORD}@{HOST}:{DB_PORT}/{name}"


def ensure_dirs() -> None:
    """Create the state directories under HOME."""
    for d in (ETC, DATA, LOGS, RUN):
        d.mkdir(parents=True, exist_ok=True)
