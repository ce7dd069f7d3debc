"""VNF packages for LCM tests, built from the Heat sample.

The LCM tests need hooks (MgmtDriver), several vnfdIds (change_vnfpkg) and
packages in the store without going through the package API; this builds
them from ``samples/vnf_packages/heat_vdu_affinity`` and onboards them
directly into the DB and the store.
"""

import functools
import io
import shutil
import tempfile
import uuid
from pathlib import Path

import sqlalchemy as sa
import yaml

from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.db.types import utcnow
from tacker_ng.packages import builder, catalog, csar, store

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "vnf_packages" / "heat_vdu_affinity"
SAMPLE_VNFD_ID = "6a6a3d4e-58b3-4f0c-9a0e-0e2a7f1f0a01"
HOOKS = (
    "instantiate_start",
    "instantiate_end",
    "terminate_start",
    "terminate_end",
    "scale_start",
    "scale_end",
    "heal_start",
    "heal_end",
)


@functools.lru_cache(maxsize=32)
def build(vnfd_id: str = SAMPLE_VNFD_ID, hooks: bool = True) -> bytes:
    """A CSAR of the sample with ``vnfd_id`` and fake MgmtDriver hooks.

    The archive is byte-for-byte reproducible (fixed member times), so it
    is built once per process and arguments: the YAML round trip took
    about 0.15 s of CPU for each LCM unit test."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "pkg"
        shutil.copytree(SAMPLE, src)
        for path in (src / "Definitions").glob("*.yaml"):
            path.write_text(path.read_text().replace(SAMPLE_VNFD_ID, vnfd_id))
        if hooks:
            (src / "Scripts").mkdir()
            (src / "Scripts" / "fake_mgmt.py").write_text(
                '"""Names the fake MgmtDriver of the tests."""\n'
            )
            for flavour in (src / "Definitions").glob("*_df_*.yaml"):
                doc = yaml.safe_load(flavour.read_text())
                vnf = doc["topology_template"]["node_templates"]["VNF"]
                ops = vnf.setdefault("interfaces", {}).setdefault("Vnflcm", {})
                for hook in HOOKS:
                    ops[hook] = {"implementation": "fake-mgmt"}
                vnf.setdefault("artifacts", {})["fake-mgmt"] = {
                    "type": "tosca.artifacts.Implementation.Python",
                    "file": "../Scripts/fake_mgmt.py",
                }
                flavour.write_text(yaml.safe_dump(doc, sort_keys=False))
        return builder.build_csar_bytes(src)


def onboard(context, data: bytes, project_id: str | None = None) -> dict:
    """Extract ``data`` into the store and insert an ONBOARDED row (of
    ``project_id``; None: no project, usable by admins)."""
    package_id = str(uuid.uuid4())
    dest = catalog.package_dir(package_id)
    dest.parent.mkdir(parents=True, exist_ok=True)
    contents = csar.extract_csar(io.BytesIO(data), dest)
    # The archive too, as onboarding keeps it (GET package_content).
    archive = store.archive_path(package_id)
    archive.parent.mkdir(parents=True, exist_ok=True)
    archive.write_bytes(data)
    vnfd = contents.vnfd
    row = {
        "id": package_id,
        "onboarding_state": "ONBOARDED",
        "operational_state": "ENABLED",
        "usage_state": "NOT_IN_USE",
        "vnfd_id": vnfd.descriptor_id,
        "vnf_provider": vnfd.provider,
        "vnf_product_name": vnfd.product_name,
        "vnf_software_version": vnfd.software_version,
        "vnfd_version": vnfd.descriptor_version,
        "package_size": len(data),
        "project_id": project_id,
        "created_at": utcnow(),
    }
    with db_api.writer(context) as session:
        session.execute(sa.insert(models.VnfPackage.__table__).values(**row))
    return row
