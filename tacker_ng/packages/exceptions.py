"""Errors of VNF package onboarding: a refused CSAR or an invalid VNFD.

Both are 422 (the upload is well formed HTTP but the package is wrong) and
carry structured fields so the conductor can store a precise onboarding
failure reason and tests can assert on *which* check refused a package.
"""

from typing import Any

from tacker_ng import exceptions


class PackageProblem:
    """Why an archive is refused: the values of ``InvalidPackage.code``.

    Plain string constants so they can be stored as-is in the database.
    """

    NOT_A_ZIP = "not_a_zip"
    ARCHIVE_TOO_LARGE = "archive_too_large"
    UNSAFE_PATH = "unsafe_path"
    NOT_REGULAR_FILE = "not_regular_file"
    ENCRYPTED_MEMBER = "encrypted_member"
    DUPLICATE_MEMBER = "duplicate_member"
    TOO_MANY_MEMBERS = "too_many_members"
    TOO_LARGE = "uncompressed_too_large"
    COMPRESSION_RATIO = "compression_ratio"
    CORRUPT_MEMBER = "corrupt_member"
    INVALID_TOSCA_META = "invalid_tosca_meta"
    MISSING_ENTRY_DEFINITIONS = "missing_entry_definitions"
    INVALID_MANIFEST = "invalid_manifest"
    MISSING_MANIFEST = "missing_manifest"
    HASH_MISMATCH = "hash_mismatch"


class InvalidPackage(exceptions.UnprocessableEntity):
    """The CSAR archive is unsafe or structurally invalid (SOL004).

    ``code`` is one of :class:`PackageProblem`; ``member`` is the archive
    member (path inside the package) at fault, when there is one.
    """

    title = "Invalid VNF package"
    message = "Invalid VNF package: {reason}"

    def __init__(
        self, reason: str, *, code: str, member: str | None = None
    ) -> None:
        self.reason = reason
        self.code = code
        self.member = member
        where = f"{member}: " if member else ""
        super().__init__(f"Invalid VNF package: {where}{reason}")

    def to_problem_details(self) -> dict[str, Any]:
        """ProblemDetails with the refusal code and member as extensions."""
        body = super().to_problem_details()
        body["reasonCode"] = self.code
        if self.member:
            body["member"] = self.member
        return body


class InvalidVnfd(exceptions.UnprocessableEntity):
    """The VNFD (SOL001 TOSCA) inside the package is invalid.

    ``file`` is the definitions file (path inside the package), ``node``
    the node template / policy / group / type at fault (may be ``None``)
    and ``problem`` what is wrong with it.
    """

    title = "Invalid VNFD"
    message = "Invalid VNFD: {problem}"

    def __init__(
        self, problem: str, *, file: str | None = None, node: str | None = None
    ) -> None:
        self.problem = problem
        self.file = file
        self.node = node
        where = ", ".join(
            part
            for part in (
                f"file {file}" if file else "",
                f"node {node}" if node else "",
            )
            if part
        )
        prefix = f"Invalid VNFD ({where})" if where else "Invalid VNFD"
        super().__init__(f"{prefix}: {problem}")

    def to_problem_details(self) -> dict[str, Any]:
        """ProblemDetails with file and node as extensions."""
        body = super().to_problem_details()
        if self.file:
            body["file"] = self.file
        if self.node:
            body["node"] = self.node
        return body
