"""The hostile and broken CSARs of the phase 1 package tests, as uploads.

Each case is ``(id, build, vnf_package overrides, expected)``; ``expected``
is the ``reasonCode`` (and ``member``) of the InvalidPackage refusal, or
the file of an InvalidVnfd refusal, that onboardingFailureDetails must
carry. Builders reuse :mod:`tacker_ng.tests.unit.packages.helpers`.
"""

import dataclasses
import hashlib
import stat
from collections.abc import Callable

from tacker_ng.packages.exceptions import PackageProblem as P
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.packages.test_yamlfile import billion_laughs

VNFD = "Definitions/vnfd.yaml"
META = "TOSCA-Metadata/TOSCA.meta"


@dataclasses.dataclass(frozen=True)
class Case:
    id: str
    build: Callable[[], bytes]
    overrides: dict = dataclasses.field(default_factory=dict)
    code: str | None = None
    member: str | None = None
    #: For InvalidVnfd: the file named in the ProblemDetails.
    vnfd_file: str | None = None
    detail: str | None = None


def _with(name: str, data: bytes = b"x") -> Callable[[], bytes]:
    return lambda: helpers.make_zip({**helpers.minimal_files(), name: data})


def _extra(info, data=b"") -> Callable[[], bytes]:
    return lambda: helpers.make_zip(
        helpers.minimal_files(), extra=[(info, data)]
    )


def _files(**changes: bytes) -> Callable[[], bytes]:
    def build():
        files = helpers.minimal_files()
        for name, data in changes.items():
            files[name.replace("__", "/")] = data
        return helpers.make_zip(files)

    return build


def _lying_eocd() -> bytes:
    files = helpers.minimal_files()
    files.update({f"Files/f{i}": b"x" for i in range(20)})
    data = bytearray(helpers.make_zip(files))
    eocd = data.rfind(b"PK\x05\x06")
    data[eocd + 8 : eocd + 12] = b"\x01\x00\x01\x00"
    return bytes(data)


def _many() -> bytes:
    files = helpers.minimal_files()
    files.update({f"Files/f{i}": b"x" for i in range(20)})
    return helpers.make_zip(files)


def _spread_bomb() -> bytes:
    files = helpers.minimal_files()
    files.update({f"Files/z{i}": b"\0" * 200_000 for i in range(40)})
    return helpers.make_zip(files)


def _corrupt() -> bytes:
    import zipfile

    files = helpers.minimal_files()
    files["Files/data"] = b"0123456789" * 1000
    data = bytearray(helpers.make_zip(files, compression=zipfile.ZIP_STORED))
    pos = data.find(b"0123456789")
    data[pos : pos + 4] = b"XXXX"
    return bytes(data)


def _manifest(text: str) -> Callable[[], bytes]:
    def build():
        files = helpers.minimal_files()
        files[META] += b"ETSI-Entry-Manifest: pkg.mf\n"
        files["pkg.mf"] = text.encode()
        return helpers.make_zip(files)

    return build


_WRONG = hashlib.sha256(b"something else").hexdigest()

CASES = [
    *(
        Case(f"unsafe-{i}", _with(name), code=P.UNSAFE_PATH, member=name)
        for i, name in enumerate(
            [
                "../evil.txt",
                "Definitions/../../evil.txt",
                "/tmp/evil.txt",
                "C:/evil.txt",
                "C:\\evil.txt",
                "./evil.txt",
                "Definitions//evil.txt",
                "evil\x01.txt",
            ]
        )
    ),
    Case(
        "nul-in-name",
        lambda: helpers.replace_name(
            _with("evilXtxt")(), "evilXtxt", b"evil\x00txt"
        ),
        code=P.UNSAFE_PATH,
    ),
    Case("overlong-name", _with("a" * 300), code=P.UNSAFE_PATH),
    Case(
        "symlink",
        _extra(helpers.raw_info("Files/link", stat.S_IFLNK | 0o777), b"/etc"),
        code=P.NOT_REGULAR_FILE,
        member="Files/link",
    ),
    *(
        Case(
            f"special-{kind}",
            _extra(helpers.raw_info("Files/special", kind | 0o644)),
            code=P.NOT_REGULAR_FILE,
            member="Files/special",
        )
        for kind in (stat.S_IFIFO, stat.S_IFCHR, stat.S_IFBLK, stat.S_IFSOCK)
    ),
    Case(
        "encrypted",
        lambda: helpers.set_encrypted(_with("Files/secret")(), "Files/secret"),
        code=P.ENCRYPTED_MEMBER,
        member="Files/secret",
    ),
    Case(
        "duplicate",
        _extra(helpers.raw_info(VNFD, stat.S_IFREG | 0o644), b"x: 1"),
        code=P.DUPLICATE_MEMBER,
        member=VNFD,
    ),
    Case(
        "case-duplicate",
        _with("definitions/VNFD.yaml"),
        code=P.DUPLICATE_MEMBER,
    ),
    Case(
        "below-a-file",
        _with(f"{VNFD}/inner"),
        code=P.DUPLICATE_MEMBER,
    ),
    Case(
        "too-many-members",
        _many,
        {"max_members": 10},
        code=P.TOO_MANY_MEMBERS,
    ),
    Case(
        "too-many-members-lying-end-record",
        _lying_eocd,
        {"max_members": 10},
        code=P.TOO_MANY_MEMBERS,
    ),
    Case(
        "uncompressed-too-large",
        _with("Files/big", b"x" * 5000),
        {"max_uncompressed_size": 4096},
        code=P.TOO_LARGE,
    ),
    Case(
        "zip-bomb-member",
        _with("Files/bomb", b"\0" * (4 * 1024 * 1024)),
        code=P.COMPRESSION_RATIO,
        member="Files/bomb",
    ),
    Case("zip-bomb-spread", _spread_bomb, code=P.COMPRESSION_RATIO),
    Case(
        "lying-declared-size",
        lambda: helpers.patch_sizes(
            _with("Files/bomb", b"\0" * (8 * 1024 * 1024))(), "Files/bomb", 100
        ),
        code=P.CORRUPT_MEMBER,
        member="Files/bomb",
    ),
    Case("not-a-zip", lambda: b"this is not a zip archive", code=P.NOT_A_ZIP),
    Case(
        "truncated-zip",
        lambda: helpers.make_zip(helpers.minimal_files())[:300],
        code=P.NOT_A_ZIP,
    ),
    Case(
        "corrupt-member", _corrupt, code=P.CORRUPT_MEMBER, member="Files/data"
    ),
    Case(
        "no-tosca-meta-entry",
        _files(**{"TOSCA-Metadata__TOSCA.meta": b"CSAR-Version: 1.1\n"}),
        code=P.INVALID_TOSCA_META,
        member=META,
    ),
    Case(
        "entry-definitions-missing",
        lambda: helpers.make_zip({META: helpers.minimal_files()[META]}),
        code=P.MISSING_ENTRY_DEFINITIONS,
    ),
    Case(
        "manifest-hash-mismatch",
        _manifest(
            "metadata:\n  vnf_product_name: x\n\n"
            f"Source: {VNFD}\nAlgorithm: SHA-256\nHash: {_WRONG}\n"
        ),
        code=P.HASH_MISMATCH,
        member=VNFD,
    ),
    Case(
        "manifest-lists-absent-file",
        _manifest(
            "metadata:\n  vnf_product_name: x\n\n"
            f"Source: Files/gone\nAlgorithm: SHA-256\nHash: {_WRONG}\n"
        ),
        code=P.INVALID_MANIFEST,
        member="pkg.mf",
    ),
    Case(
        "manifest-named-but-absent",
        lambda: helpers.make_zip(
            {
                **helpers.minimal_files(),
                META: helpers.minimal_files()[META]
                + b"ETSI-Entry-Manifest: gone.mf\n",
            }
        ),
        code=P.MISSING_MANIFEST,
        member="gone.mf",
    ),
    Case(
        "manifest-required",
        lambda: helpers.make_zip(helpers.minimal_files()),
        {"require_manifest": True},
        code=P.MISSING_MANIFEST,
    ),
    Case(
        "vnfd-not-tosca",
        _files(
            **{"Definitions__vnfd.yaml": b"tosca_definitions_version: x\n"}
        ),
        vnfd_file=VNFD,
        detail="tosca_definitions_version",
    ),
    Case(
        "vnfd-alias-bomb",
        _files(**{"Definitions__vnfd.yaml": billion_laughs().encode()}),
        vnfd_file=VNFD,
    ),
    Case(
        "vnfd-profile-min-above-max",
        _files(
            **{
                "Definitions__vnfd.yaml": helpers.MINIMAL_VNFD.replace(
                    "min_number_of_instances: 1", "min_number_of_instances: 3"
                ).encode()
            }
        ),
        vnfd_file=VNFD,
        detail="VDU1",
    ),
]
