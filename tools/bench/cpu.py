"""CPU time used by a process and its children (Linux /proc).

A benchmark divides the API workers' CPU seconds spent during a load run by
the requests served: the cost of one request in the API, independent of
how busy the rest of the machine is (unlike latency).
"""

import os

_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    # The command name is in parentheses and may contain spaces.
    return text[text.rindex(")") + 2 :].split()


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields and int(fields[1]) == pid:
                out.append(int(entry))
    return out


def tree_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its live descendants."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        fields = _stat(current)
        if fields is None:
            continue
        # utime, stime are fields 14 and 15 of stat (index 11, 12 here).
        total += (int(fields[11]) + int(fields[12])) / _TICK
        pending.extend(_children(current))
    return total


def workers_seconds(pid: int) -> float:
    """User + system CPU seconds of the live descendants of ``pid`` (a
    pre-forking server's workers, without its master)."""
    return tree_seconds(pid) - process_seconds(pid)


def process_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` alone (0 once it is gone)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK
