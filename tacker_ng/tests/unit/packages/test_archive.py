"""Every CSAR safety check, each with an archive crafted in the test."""

import io
import stat
import zipfile

import pytest

from tacker_ng.packages import archive
from tacker_ng.packages.csar import extract_csar
from tacker_ng.packages.exceptions import InvalidPackage
from tacker_ng.packages.exceptions import PackageProblem as P
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.tests.unit.packages import helpers


def refuse(store, data: bytes, limits: CsarLimits | None = None):
    """Extract ``data``; assert it is refused and nothing was written."""
    with pytest.raises(InvalidPackage) as info:
        extract_csar(io.BytesIO(data), store.dest, limits)
    store.assert_untouched()
    return info.value


def with_member(name: str, data: bytes = b"x") -> bytes:
    return helpers.make_zip({**helpers.minimal_files(), name: data})


def test_minimal_package_is_accepted(store):
    contents = extract_csar(
        io.BytesIO(helpers.make_zip(helpers.minimal_files())), store.dest
    )
    assert contents.root == store.dest
    assert sorted(helpers.tree(store.root)) == [
        "pkg",
        "pkg/Definitions",
        "pkg/Definitions/vnfd.yaml",
        "pkg/TOSCA-Metadata",
        "pkg/TOSCA-Metadata/TOSCA.meta",
    ]
    assert contents.files == (
        "Definitions/vnfd.yaml",
        "TOSCA-Metadata/TOSCA.meta",
    )
    mode = (store.dest / "Definitions/vnfd.yaml").stat().st_mode
    assert stat.S_IMODE(mode) == 0o644


def test_path_source_and_unseekable_stream(store, tmp_path):
    data = helpers.make_zip(helpers.minimal_files())
    path = tmp_path / "pkg.zip"
    path.write_bytes(data)
    assert extract_csar(path, store.dest).vnfd.descriptor_id

    class Stream(io.RawIOBase):
        def __init__(self):
            self.inner = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, buf):
            chunk = self.inner.read(len(buf))
            buf[: len(chunk)] = chunk
            return len(chunk)

    other = store.root / "other"
    assert extract_csar(Stream(), other).entry_definitions == (
        "Definitions/vnfd.yaml"
    )


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("../evil.txt", "'..' component"),
        ("Definitions/../../evil.txt", "'..' component"),
        ("/tmp/evil.txt", "absolute"),
        ("C:/evil.txt", "drive letter"),
        ("c:evil.txt", "drive letter"),
        ("C:\\evil.txt", "backslash"),
        ("Definitions\\..\\..\\evil.txt", "backslash"),
        ("./evil.txt", "'.' component"),
        ("Definitions//evil.txt", "empty"),
        ("evil\x01.txt", "control characters"),
    ],
)
def test_unsafe_member_names(store, name, reason):
    error = refuse(store, with_member(name))
    assert error.code == P.UNSAFE_PATH
    assert error.member == name
    assert reason in error.reason
    assert not (store.sandbox.parent / "evil.txt").exists()


def test_nul_byte_in_member_name(store):
    # zipfile truncates names at NUL; the original name must be checked.
    data = helpers.replace_name(
        with_member("evilXtxt"), "evilXtxt", b"evil\x00txt"
    )
    error = refuse(store, data)
    assert error.code == P.UNSAFE_PATH
    assert "control characters" in error.reason


def test_overlong_member_name(store):
    error = refuse(store, with_member("a" * 300))
    assert error.code == P.UNSAFE_PATH
    assert "too long" in error.reason


def test_symlink_member(store):
    link = helpers.raw_info("Files/link", stat.S_IFLNK | 0o777)
    data = helpers.make_zip(
        helpers.minimal_files(), extra=[(link, b"/etc/passwd")]
    )
    error = refuse(store, data)
    assert (error.code, error.member) == (P.NOT_REGULAR_FILE, "Files/link")
    assert "symbolic link" in error.reason


@pytest.mark.parametrize(
    "kind", [stat.S_IFIFO, stat.S_IFCHR, stat.S_IFBLK, stat.S_IFSOCK]
)
def test_special_file_members(store, kind):
    special = helpers.raw_info("Files/special", kind | 0o644)
    data = helpers.make_zip(helpers.minimal_files(), extra=[(special, b"")])
    error = refuse(store, data)
    assert (error.code, error.member) == (P.NOT_REGULAR_FILE, "Files/special")


def test_directory_entries_are_accepted(store):
    directory = helpers.raw_info("Files/", stat.S_IFDIR | 0o755)
    data = helpers.make_zip(helpers.minimal_files(), extra=[(directory, b"")])
    extract_csar(io.BytesIO(data), store.dest)
    assert (store.dest / "Files").is_dir()


def test_directory_entry_with_file_mode_is_refused(store):
    odd = helpers.raw_info("Files/", stat.S_IFREG | 0o644)
    data = helpers.make_zip(helpers.minimal_files(), extra=[(odd, b"")])
    assert refuse(store, data).code == P.NOT_REGULAR_FILE


def test_encrypted_member(store):
    data = helpers.set_encrypted(with_member("Files/secret"), "Files/secret")
    error = refuse(store, data)
    assert (error.code, error.member) == (P.ENCRYPTED_MEMBER, "Files/secret")


def test_duplicate_member(store):
    dup = helpers.raw_info("Definitions/vnfd.yaml", stat.S_IFREG | 0o644)
    data = helpers.make_zip(helpers.minimal_files(), extra=[(dup, b"x: 1")])
    error = refuse(store, data)
    assert error.code == P.DUPLICATE_MEMBER
    assert error.member == "Definitions/vnfd.yaml"


def test_member_differing_only_in_case(store):
    error = refuse(store, with_member("definitions/VNFD.yaml"))
    assert error.code == P.DUPLICATE_MEMBER
    assert "differs only in case" in error.reason


def test_member_below_a_file(store):
    error = refuse(store, with_member("Definitions/vnfd.yaml/inner"))
    assert error.code == P.DUPLICATE_MEMBER
    assert "which is a file" in error.reason


def test_directory_named_like_a_file(store):
    directory = helpers.raw_info("Definitions/vnfd.yaml/", stat.S_IFDIR)
    data = helpers.make_zip(helpers.minimal_files(), extra=[(directory, b"")])
    assert refuse(store, data).code == P.DUPLICATE_MEMBER


def test_too_many_members(store):
    files = helpers.minimal_files()
    files.update({f"Files/f{i}": b"x" for i in range(20)})
    error = refuse(store, helpers.make_zip(files), CsarLimits(max_members=10))
    assert error.code == P.TOO_MANY_MEMBERS
    assert "declares 22 entries" in error.reason


def test_too_many_members_when_the_end_record_lies(store):
    files = helpers.minimal_files()
    files.update({f"Files/f{i}": b"x" for i in range(20)})
    data = bytearray(helpers.make_zip(files))
    eocd = data.rfind(b"PK\x05\x06")
    data[eocd + 8 : eocd + 12] = b"\x01\x00\x01\x00"  # "1 entry"
    error = refuse(store, bytes(data), CsarLimits(max_members=10))
    assert error.code == P.TOO_MANY_MEMBERS
    assert "has 22 entries" in error.reason


def test_archive_too_large(store):
    data = helpers.make_zip(helpers.minimal_files())
    error = refuse(store, data, CsarLimits(max_archive_size=len(data) - 1))
    assert error.code == P.ARCHIVE_TOO_LARGE


def test_archive_too_large_as_unseekable_stream(store):
    data = helpers.make_zip(helpers.minimal_files())

    class Stream(io.RawIOBase):
        def __init__(self):
            self.inner = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, buf):
            chunk = self.inner.read(len(buf))
            buf[: len(chunk)] = chunk
            return len(chunk)

    with pytest.raises(InvalidPackage) as info:
        extract_csar(Stream(), store.dest, CsarLimits(max_archive_size=100))
    assert info.value.code == P.ARCHIVE_TOO_LARGE
    store.assert_untouched()


def test_uncompressed_total_too_large(store):
    files = helpers.minimal_files()
    files["Files/big"] = b"x" * 5000
    error = refuse(
        store, helpers.make_zip(files), CsarLimits(max_uncompressed_size=4096)
    )
    assert error.code == P.TOO_LARGE


def test_zip_bomb_member_ratio(store):
    bomb = with_member("Files/bomb", b"\0" * (4 * 1024 * 1024))
    error = refuse(store, bomb)
    assert (error.code, error.member) == (P.COMPRESSION_RATIO, "Files/bomb")
    assert "possible zip bomb" in error.reason


def test_zip_bomb_spread_over_small_members(store):
    # Each member is under the ratio threshold; the archive as a whole is
    # a bomb.
    files = helpers.minimal_files()
    files.update({f"Files/z{i}": b"\0" * 200_000 for i in range(40)})
    limits = CsarLimits(compression_ratio_threshold=1024 * 1024)
    error = refuse(store, helpers.make_zip(files), limits)
    assert error.code == P.COMPRESSION_RATIO
    assert error.member is None
    assert "archive compression ratio" in error.reason


def test_small_compressible_files_pass_the_ratio_check(store):
    files = helpers.minimal_files()
    files["Files/zeros"] = b"\0" * 500_000  # ratio ~500 but < threshold
    extract_csar(io.BytesIO(helpers.make_zip(files)), store.dest)


def test_lying_declared_size_is_not_trusted(store):
    # The headers claim 100 bytes; the data inflates to 8 MiB. Reading
    # stops at the declared size and the CRC check refuses the member.
    bomb = with_member("Files/bomb", b"\0" * (8 * 1024 * 1024))
    data = helpers.patch_sizes(bomb, "Files/bomb", 100)
    error = refuse(store, data)
    assert (error.code, error.member) == (P.CORRUPT_MEMBER, "Files/bomb")
    assert "corrupt" in error.reason


def test_streaming_counts_bytes_not_declared_sizes(tmp_path):
    # Declared sizes vetted earlier cannot widen the budget: extraction
    # itself stops at the limit, however the member was described.
    data = helpers.make_zip({"Files/bomb": b"\0" * (3 * 1024 * 1024)})
    zf = zipfile.ZipFile(io.BytesIO(data))
    info = zf.getinfo("Files/bomb")
    limits = CsarLimits(
        max_uncompressed_size=1024 * 1024, max_compression_ratio=10_000
    )
    with pytest.raises(InvalidPackage) as error:
        archive.extract_members(
            zf, [("Files/bomb", info)], tmp_path, limits, len(data)
        )
    assert error.value.code == P.TOO_LARGE
    written = (tmp_path / "Files/bomb").stat().st_size
    assert written <= 1024 * 1024


def test_streaming_ratio_check(tmp_path):
    data = helpers.make_zip({"Files/bomb": b"\0" * (3 * 1024 * 1024)})
    zf = zipfile.ZipFile(io.BytesIO(data))
    info = zf.getinfo("Files/bomb")
    limits = CsarLimits(compression_ratio_threshold=64 * 1024)
    with pytest.raises(InvalidPackage) as error:
        archive.extract_members(
            zf, [("Files/bomb", info)], tmp_path, limits, 10**9
        )
    assert (error.value.code, error.value.member) == (
        P.COMPRESSION_RATIO,
        "Files/bomb",
    )


def test_not_a_zip(store):
    error = refuse(store, b"this is not a zip archive at all")
    assert error.code == P.NOT_A_ZIP


def test_truncated_zip(store):
    data = helpers.make_zip(helpers.minimal_files())
    error = refuse(store, data[: len(data) // 2])
    assert error.code == P.NOT_A_ZIP


def test_corrupt_member_data(store):
    files = helpers.minimal_files()
    files["Files/data"] = b"0123456789" * 1000
    data = bytearray(helpers.make_zip(files, compression=zipfile.ZIP_STORED))
    pos = data.find(b"0123456789")
    data[pos : pos + 4] = b"XXXX"
    error = refuse(store, bytes(data))
    assert (error.code, error.member) == (P.CORRUPT_MEMBER, "Files/data")


def test_failure_after_extraction_leaves_nothing(store):
    # Members are fine; the VNFD is not: the temp dir must be removed too.
    files = helpers.minimal_files()
    files["Definitions/vnfd.yaml"] = b"tosca_definitions_version: nope\n"
    with pytest.raises(Exception, match="tosca_definitions_version"):
        extract_csar(io.BytesIO(helpers.make_zip(files)), store.dest)
    store.assert_untouched()


def test_dest_must_be_new_or_empty(store):
    store.dest.mkdir()
    (store.dest / "keep").write_text("x")
    with pytest.raises(FileExistsError):
        extract_csar(
            io.BytesIO(helpers.make_zip(helpers.minimal_files())), store.dest
        )
    assert (store.dest / "keep").read_text() == "x"


def test_empty_dest_dir_is_replaced(store):
    store.dest.mkdir()
    extract_csar(
        io.BytesIO(helpers.make_zip(helpers.minimal_files())), store.dest
    )
    assert (store.dest / "TOSCA-Metadata/TOSCA.meta").is_file()


def test_problem_details_carry_the_reason(store):
    error = refuse(store, with_member("../evil.txt"))
    body = error.to_problem_details()
    assert body["status"] == 422
    assert body["reasonCode"] == P.UNSAFE_PATH
    assert body["member"] == "../evil.txt"
    assert "../evil.txt" in body["detail"]


def test_unsafe_path_reason_accepts_normal_paths():
    assert archive.unsafe_path_reason("Definitions/a.yaml") is None
    assert archive.unsafe_path_reason("Files/") is None


def test_seekable_source_is_read_from_the_start(store):
    source = io.BytesIO(helpers.make_zip(helpers.minimal_files()))
    source.seek(10)
    contents = extract_csar(source, store.dest)
    assert contents.vnfd.product_name == "minimal"
    assert not source.closed  # the caller's file object is left open
