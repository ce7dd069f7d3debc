"""The VnfPkgInfo attributes an onboarded package contributes (SOL005 9.5.2).

Computed once by the conductor from the verified package and stored on
the package row: VNF product fields, ``softwareImages`` from the VDUs'
``sw_image_data`` and ``additionalArtifacts`` for every other file.
"""

from typing import Any

from tacker_ng.db.types import utcnow
from tacker_ng.objects.vnfd import SwImageData
from tacker_ng.packages import manifest as mf
from tacker_ng.packages.csar import CsarContents

_DEFAULT_ALGORITHM = "SHA-256"


def _image(
    node: str, data: SwImageData, provider: str, created_at: str
) -> dict[str, Any]:
    image: dict[str, Any] = {
        "id": node,
        "name": data.name,
        "provider": provider,
        "version": data.version,
        "checksum": {
            "algorithm": data.checksum.algorithm,
            "hash": data.checksum.hash,
        },
        "containerFormat": data.container_format.upper(),
        "diskFormat": data.disk_format.upper(),
        "createdAt": created_at,
        "minDisk": data.min_disk,
        "minRam": data.min_ram or 0,
        "size": data.size,
        "isEncrypted": False,
    }
    # SOL005 9.5.3.2: imagePath for an image shipped in the package,
    # imageUri for one the package only points to.
    if data.file:
        image["imagePath"] = data.file
    elif data.uri:
        image["imageUri"] = data.uri
    return image


def software_images(contents: CsarContents) -> list[dict[str, Any]]:
    """VnfPackageSoftwareImageInfo of every VDU/storage with an image."""
    vnfd = contents.vnfd
    created_at = utcnow().isoformat().replace("+00:00", "Z")
    images: dict[str, dict[str, Any]] = {}
    for flavour in vnfd.flavours.values():
        nodes = [
            (vdu.node_name, vdu.sw_image_data) for vdu in flavour.vdus.values()
        ] + [
            (st.node_name, st.sw_image_data)
            for st in flavour.virtual_storages.values()
        ]
        for node, data in nodes:
            if data is not None and node not in images:
                images[node] = _image(node, data, vnfd.provider, created_at)
    return [images[node] for node in sorted(images)]


def _declared(contents: CsarContents) -> dict[str, tuple[str, str]]:
    """Package path -> (algorithm, hash) declared by manifest/TOSCA.meta."""
    declared: dict[str, tuple[str, str]] = {}
    for artifact in contents.tosca_meta.artifacts:
        if artifact.algorithm and artifact.hash:
            declared[artifact.name] = (artifact.algorithm, artifact.hash)
    if contents.manifest is not None:
        for entry in contents.manifest.entries:
            if entry.algorithm and entry.hash:
                declared[entry.source] = (entry.algorithm, entry.hash)
    return declared


def additional_artifacts(contents: CsarContents) -> list[dict[str, Any]]:
    """VnfPackageArtifactInfo of every file that is not a software image,
    and of the manifest's external (URI) artifacts."""
    images = {
        data.file
        for flavour in contents.vnfd.flavours.values()
        for data in [v.sw_image_data for v in flavour.vdus.values()]
        + [s.sw_image_data for s in flavour.virtual_storages.values()]
        if data is not None and data.file
    }
    declared = _declared(contents)
    sets: dict[str, str] = {}
    if contents.manifest is not None:
        for (
            set_id,
            sources,
        ) in contents.manifest.non_mano_artifact_sets.items():
            for source in sources:
                sets.setdefault(source, set_id)
    artifacts = []
    for path in contents.files:
        if path in images:
            continue
        algorithm, digest = declared.get(path) or (
            _DEFAULT_ALGORITHM,
            mf.file_digest(
                contents.root.joinpath(*path.split("/")), _DEFAULT_ALGORITHM
            ),
        )
        artifact: dict[str, Any] = {
            "artifactPath": path,
            "checksum": {"algorithm": algorithm, "hash": digest},
            "isEncrypted": False,
        }
        if path in sets:
            artifact["nonManoArtifactSetId"] = sets[path]
        artifacts.append(artifact)
    if contents.manifest is not None:
        for entry in contents.manifest.entries:
            if entry.is_external and entry.algorithm and entry.hash:
                artifacts.append(
                    {
                        "artifactURI": entry.source,
                        "checksum": {
                            "algorithm": entry.algorithm,
                            "hash": entry.hash,
                        },
                        "isEncrypted": False,
                    }
                )
    return artifacts


def describe(contents: CsarContents) -> dict[str, Any]:
    """Column values of an ONBOARDED package row for ``contents``."""
    vnfd = contents.vnfd
    return {
        "vnfd_id": vnfd.descriptor_id,
        "vnf_provider": vnfd.provider,
        "vnf_product_name": vnfd.product_name,
        "vnf_software_version": vnfd.software_version,
        "vnfd_version": vnfd.descriptor_version,
        "software_images": software_images(contents),
        "additional_artifacts": additional_artifacts(contents),
        # None rather than []: a strict onboarding has no attribute to show.
        "onboarding_warnings": list(contents.warnings) or None,
    }
