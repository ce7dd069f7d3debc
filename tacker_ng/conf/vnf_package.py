"""``[vnf_package]`` options: where packages are stored and CSAR limits.

The limits defend the conductor against hostile archives (zip bombs,
huge member counts, YAML alias bombs); see
``doc/source/user/vnf-packages.rst``.
"""

from oslo_config import cfg

GROUP = "vnf_package"

_MiB = 1024 * 1024
_GiB = 1024 * _MiB

opts = [
    cfg.StrOpt(
        "vnf_package_csar_path",
        default="$state_path/vnf_packages",
        help="Directory of the VNF package store. Each onboarded package "
        "is extracted into its own sub-directory; nothing is ever "
        "written outside it.",
    ),
    cfg.IntOpt(
        "max_archive_size",
        default=2 * _GiB,
        min=1,
        help="Largest accepted CSAR (zip) file in bytes, as uploaded or "
        "fetched.",
    ),
    cfg.IntOpt(
        "max_uncompressed_size",
        default=4 * _GiB,
        min=1,
        help="Largest total size in bytes of all extracted members. Counted "
        "while decompressing, never taken from the archive's declared "
        "sizes.",
    ),
    cfg.IntOpt(
        "max_members",
        default=10000,
        min=1,
        help="Largest number of entries (files and directories) in a CSAR.",
    ),
    cfg.IntOpt(
        "max_compression_ratio",
        default=100,
        min=1,
        help="Largest accepted ratio of uncompressed to compressed bytes, "
        "per member and for the whole archive (zip bomb defence). Only "
        "checked once more than compression_ratio_threshold bytes have "
        "been extracted, so small, very compressible files pass.",
    ),
    cfg.IntOpt(
        "compression_ratio_threshold",
        default=1 * _MiB,
        min=0,
        help="Uncompressed byte count (per member and for the archive) "
        "below which max_compression_ratio is not enforced.",
    ),
    cfg.IntOpt(
        "max_yaml_size",
        default=16 * _MiB,
        min=1,
        help="Largest YAML file (VNFD, BaseHOT, Kubernetes manifest) the "
        "VNFD parser reads, in bytes.",
    ),
    cfg.IntOpt(
        "max_yaml_aliases",
        default=100,
        min=0,
        help="Largest number of YAML alias references (``*anchor``) in one "
        "YAML file; defends against 'billion laughs' alias bombs.",
    ),
    cfg.BoolOpt(
        "require_manifest",
        default=False,
        help="Refuse packages without a SOL004 manifest (.mf) file. When "
        "false, a manifest is verified only if the package has one.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group=GROUP)


def list_opts() -> list[tuple[str, list]]:
    return [(GROUP, opts)]
