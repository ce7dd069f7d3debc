"""Crashes and lost requests during onboarding never leave a package stuck.

A package UPLOADING/PROCESSING whose owner stopped renewing its lease
for ``[vnf_package] onboarding_timeout`` is ERROR (onboarding_interrupted)
the next time the API reads it, and can then be deleted. A conductor
that comes back late loses the conditional UPDATE and removes its files.
"""

import datetime
import threading
import time

import sqlalchemy as sa

from tacker_ng import context as tcontext
from tacker_ng.conductor import rpcapi
from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.packages import csar, onboarding, store
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm.conftest import PREFIX, V

PKGS = f"{PREFIX}/vnf_packages"
TABLE = models.VnfPackage.__table__
MINIMAL = helpers.make_zip(helpers.minimal_files())


def _age(package_id, seconds=3600):
    """Pretend the package's lease was last renewed ``seconds`` ago."""
    past = datetime.datetime.now(datetime.UTC) - datetime.timedelta(
        seconds=seconds
    )
    with db_api.writer() as session:
        session.execute(
            sa.update(TABLE)
            .where(TABLE.c.id == package_id)
            .values(updated_at=past)
        )


def _updated_at(package_id):
    with db_api.reader() as session:
        return session.execute(
            sa.select(TABLE.c.updated_at).where(TABLE.c.id == package_id)
        ).scalar()


def _interrupted(pkg):
    assert pkg["onboardingState"] == "ERROR", pkg
    assert pkg["operationalState"] == "DISABLED"
    details = pkg["onboardingFailureDetails"]
    assert details["reasonCode"] == "onboarding_interrupted"
    assert "Delete the package and upload it again" in details["detail"]


def test_conductor_dies_after_claiming(pkgm, monkeypatch):
    def die_after_claim(context, package_id):
        with db_api.writer(context) as session:
            from tacker_ng.db import vnf_packages

            vnf_packages.move(session, package_id, "PROCESSING", {"UPLOADING"})
        # ...and the process is gone: no lease renewal, no ERROR.

    monkeypatch.setattr(onboarding, "process_upload", die_after_claim)
    pkg = pkgm.create()
    pkgm.upload(pkg["id"], MINIMAL)
    assert pkgm.wait(pkg["id"], ("PROCESSING",))["onboardingState"] == (
        "PROCESSING"
    )
    # While the lease is fresh, it is busy: no DELETE.
    resp = pkgm.delete(pkg["id"], status=409)
    assert "PROCESSING" in resp.json["detail"]
    _age(pkg["id"])
    _interrupted(pkgm.get(pkg["id"]))
    assert pkgm.store_entries() == {".archives", ".incoming"}
    pkgm.delete(pkg["id"])


def test_lost_cast_is_seen_in_lists(pkgm, monkeypatch):
    monkeypatch.setattr(
        rpcapi.ConductorAPI, "upload_vnf_package", lambda *a, **k: None
    )
    pkg = pkgm.create()
    pkgm.upload(pkg["id"], MINIMAL)
    assert pkgm.get(pkg["id"])["onboardingState"] == "UPLOADING"
    _age(pkg["id"])
    listed = pkgm.app.get(
        PKGS,
        params={"filter": "(eq,onboardingState,ERROR)", "all_fields": ""},
        headers=V,
    ).json
    assert [p["id"] for p in listed] == [pkg["id"]]
    _interrupted(listed[0])
    assert not (store.incoming_path(pkg["id"])).exists()


def test_lease_is_renewed_while_processing(pkgm, monkeypatch):
    monkeypatch.setattr(onboarding, "renew_interval", lambda conf=None: 0.05)
    release = threading.Event()
    real = csar.extract_csar

    def slow(*args, **kwargs):
        release.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(csar, "extract_csar", slow)
    pkg = pkgm.create()
    pkgm.upload(pkg["id"], MINIMAL)
    pkgm.wait(pkg["id"], ("PROCESSING",))
    first = _updated_at(pkg["id"])
    time.sleep(0.4)
    assert _updated_at(pkg["id"]) > first
    release.set()
    assert pkgm.wait(pkg["id"])["onboardingState"] == "ONBOARDED"


def test_late_conductor_loses_and_cleans_up(pkgm, monkeypatch):
    release = threading.Event()
    done = threading.Event()
    real = csar.extract_csar
    real_process = onboarding._process

    def slow(*args, **kwargs):
        release.wait(10)
        return real(*args, **kwargs)

    def process(context, package_id):
        try:
            real_process(context, package_id)
        finally:
            done.set()

    monkeypatch.setattr(csar, "extract_csar", slow)
    monkeypatch.setattr(onboarding, "_process", process)
    pkg = pkgm.create()
    pkgm.upload(pkg["id"], MINIMAL)
    pkgm.wait(pkg["id"], ("PROCESSING",))
    _age(pkg["id"])
    _interrupted(pkgm.get(pkg["id"]))
    release.set()
    assert done.wait(10)
    _interrupted(pkgm.get(pkg["id"]))
    assert pkgm.store_entries() == {".archives", ".incoming"}


def test_duplicate_cast_changes_nothing(pkgm):
    pkg = pkgm.onboard(MINIMAL)
    ctx = tcontext.get_admin_context()
    onboarding.process_upload(ctx, pkg["id"])
    onboarding.process_from_uri(ctx, pkg["id"])
    assert pkgm.get(pkg["id"]) == pkg
    assert (store.root() / pkg["id"]).is_dir()


def test_fresh_upload_is_not_expired(pkgm, monkeypatch):
    monkeypatch.setattr(
        rpcapi.ConductorAPI, "upload_vnf_package", lambda *a, **k: None
    )
    pkg = pkgm.create()
    pkgm.upload(pkg["id"], MINIMAL)
    _age(pkg["id"], seconds=60)  # well within onboarding_timeout (600 s)
    assert pkgm.get(pkg["id"])["onboardingState"] == "UPLOADING"
    assert store.incoming_path(pkg["id"]).is_file()
