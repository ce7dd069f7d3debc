"""Resource limits applied while extracting and parsing a CSAR.

A frozen dataclass rather than reads of ``CONF`` deep inside the checks, so
the checks are pure and tests can pass tight limits explicitly.
"""

import dataclasses

from oslo_config import cfg

_MiB = 1024 * 1024
_GiB = 1024 * _MiB


@dataclasses.dataclass(frozen=True)
class CsarLimits:
    """Limits for one extraction; defaults equal ``[vnf_package]``'s."""

    max_archive_size: int = 2 * _GiB
    max_uncompressed_size: int = 4 * _GiB
    max_members: int = 10000
    max_compression_ratio: int = 100
    compression_ratio_threshold: int = 1 * _MiB
    max_yaml_size: int = 16 * _MiB
    max_yaml_aliases: int = 100
    require_manifest: bool = False
    #: ``tacker`` or ``strict`` (:mod:`tacker_ng.packages.compat`); not a
    #: limit, but read with them so one object says how to onboard.
    compatibility: str = "tacker"

    @classmethod
    def from_conf(cls, conf: cfg.ConfigOpts | None = None) -> "CsarLimits":
        """Limits from the ``[vnf_package]`` section of ``conf``."""
        if conf is None:
            from tacker_ng.conf import CONF

            conf = CONF
        group = conf.vnf_package
        return cls(
            **{
                field.name: getattr(group, field.name)
                for field in dataclasses.fields(cls)
            }
        )
