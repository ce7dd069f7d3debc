"""Drive a URL with wrk (C, keep-alive) and parse its figures.

A Python load generator needs about as much CPU per request as the API
on this 2-core class of machine; wrk measures the server, not the client.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile

_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def available() -> bool:
    return shutil.which("wrk") is not None


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return round(float(number) * _UNITS[unit], 2)


def run(
    url: str,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    concurrency: int = 8,
    duration: float = 10.0,
    threads: int = 1,
    lua: str = "",
) -> dict:
    """Figures of a wrk run: req/s, latency percentiles, non-2xx count.
    ``lua`` is appended to the generated script (e.g. a ``request``
    function that varies the path)."""
    script = f"wrk.method = {json.dumps(method)}\n"
    if body is not None:
        script += f"wrk.body = {json.dumps(body.decode())}\n"
    for name, value in (headers or {}).items():
        script += f"wrk.headers[{json.dumps(name)}] = {json.dumps(value)}\n"
    script += lua
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    try:
        out = subprocess.run(
            [
                "wrk",
                f"-t{threads}",
                f"-c{concurrency}",
                f"-d{int(duration)}s",
                "--latency",
                "-s",
                f.name,
                url,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(f.name)
    latency = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)\s*$", out, re.M))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)$", out, re.M)
    return {
        "generator": "wrk",
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
        "req_per_s": float(
            re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)
        ),
        "p50_ms": _ms(latency["50"]),
        "p90_ms": _ms(latency["90"]),
        "p99_ms": _ms(latency["99"]),
        "non_2xx": int(non2xx.group(1)) if non2xx else 0,
        "socket_errors": errors.group(1) if errors else None,
        "concurrency": concurrency,
        "duration_s": duration,
    }
