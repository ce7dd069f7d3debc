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
    cfg.IntOpt(
        "onboarding_timeout",
        default=600,
        min=10,
        help="Seconds an UPLOADING or PROCESSING package may go without "
        "progress before it is set to ERROR ('onboarding interrupted'). "
        "The API renews this lease while it receives an upload and the "
        "conductor while it fetches or processes a package, so only a "
        "crashed process or a lost request lets it expire; the package "
        "can then be deleted and uploaded again.",
    ),
    cfg.ListOpt(
        "upload_from_uri_schemes",
        default=["http", "https"],
        item_type=cfg.types.String(choices=["http", "https"]),
        help="URI schemes accepted by upload_from_uri "
        "(addressInformation). Only http and https are supported.",
    ),
    cfg.IntOpt(
        "upload_from_uri_timeout",
        default=30,
        min=1,
        help="Seconds to connect to, and between two reads from, the "
        "server of an upload_from_uri request.",
    ),
    cfg.IntOpt(
        "upload_from_uri_max_duration",
        default=3600,
        min=1,
        help="Seconds a whole upload_from_uri download may take before "
        "it is abandoned and the package set to ERROR.",
    ),
    cfg.BoolOpt(
        "upload_from_uri_verify_tls",
        default=True,
        help="Verify the TLS certificate of https addressInformation servers.",
    ),
    cfg.StrOpt(
        "upload_from_uri_ca_file",
        help="CA bundle for https addressInformation servers (optional; "
        "the system CAs otherwise).",
    ),
    cfg.BoolOpt(
        "require_manifest",
        default=False,
        help="Refuse packages without a SOL004 manifest (.mf) file. When "
        "false, a manifest is verified only if the package has one.",
    ),
    cfg.StrOpt(
        "compatibility",
        default="tacker",
        choices=[
            (
                "tacker",
                "Onboard the deviations OpenStack Tacker accepts that change "
                "nothing deployed (e.g. a PlacementGroup without "
                "description, substitution_mappings requirements "
                "virtual_link_external1_1 for virtual_link_external1); each "
                "is recorded in the package's onboardingWarnings.",
            ),
            (
                "strict",
                "Refuse every deviation from SOL001/SOL004 the parser "
                "checks, with the error it names.",
            ),
        ],
        help="How strictly VNF packages are checked at onboarding. Safety "
        "checks (paths, sizes, hashes, unknown types) refuse at both "
        "levels; see doc/source/user/vnf-packages.rst.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group=GROUP)


def list_opts() -> list[tuple[str, list]]:
    return [(GROUP, opts)]
