"""Pure helpers of the SSH executor: command lines, masking, backoff.

Kept apart from :mod:`tacker_ng.mgmt.ssh` so that what decides security
(how request data becomes a remote command line, what a log line may show)
is small, side-effect free and unit tested on hostile input.
"""

import base64
import hashlib
import shlex
from collections.abc import Iterable, Sequence

#: What a secret is replaced with in logs and errors.
MASK = "***"


class InvalidCommand(ValueError):
    """An argv that cannot be turned into a remote command line safely."""


def build_command(argv: Sequence[str]) -> str:
    """One POSIX shell command line running ``argv`` exactly as given.

    Every element is ``shlex.quote``d, so the remote shell sees each value
    as one literal word whatever it holds (``;``, ``$(...)``, quotes,
    newlines). There is no way to pass a shell string: a caller that needs
    a pipeline runs a script from the package with its values as arguments.
    """
    if isinstance(argv, str | bytes):
        raise InvalidCommand("a command is an argv list, not a string")
    if not argv:
        raise InvalidCommand("the command is empty")
    words = []
    for arg in argv:
        if not isinstance(arg, str):
            raise InvalidCommand(
                f"command arguments are strings, not {type(arg).__name__}"
            )
        if "\0" in arg:
            raise InvalidCommand("a command argument holds a NUL character")
        words.append(shlex.quote(arg))
    return " ".join(words)


def mask(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every occurrence of each non-empty secret masked.

    Longer secrets are masked first so that one secret containing another
    leaves nothing of itself behind.
    """
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def backoff_delays(
    attempts: int, initial: float, maximum: float, factor: float = 2.0
) -> list[float]:
    """Waits between ``attempts`` connection attempts (one fewer than them).

    Exponential from ``initial``, capped at ``maximum``: bounded in count
    and in total, so an unreachable host fails the operation in a known
    time (the sum of the list plus the attempts' own timeouts).
    """
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    delays = []
    delay = initial
    for _ in range(attempts - 1):
        delays.append(min(delay, maximum))
        delay *= factor
    return delays


def output_tail(
    stdout: str, stderr: str, lines: int, max_chars: int = 4000
) -> str:
    """The last ``lines`` lines of a command's output, stderr last.

    stderr usually says why a script failed, so it comes after stdout and
    survives the cut; ``max_chars`` bounds a tail of very long lines.
    """
    text = "\n".join(p.rstrip("\n") for p in (stdout, stderr) if p.strip())
    tail = "\n".join(text.splitlines()[-lines:])
    return tail[-max_chars:]


def fingerprint(key_blob: bytes) -> str:
    """OpenSSH's SHA256 fingerprint (``SHA256:<base64>``) of a public key.

    The same text ``ssh-keygen -lf`` prints, so an operator can compare.
    """
    digest = hashlib.sha256(key_blob).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")
