"""A small closed-loop HTTP load generator for the benchmarks.

N threads, each with one keep-alive connection, send requests back to back
for a fixed time and record each latency. Prints nothing; callers turn the
result into one JSON object.
"""

import http.client
import statistics
import threading
import time
import urllib.parse
from collections.abc import Callable

RequestFactory = Callable[[int], tuple[str, str, bytes | None, dict]]


def _percentile(sorted_values: list[float], pct: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, int(len(sorted_values) * pct / 100))
    return sorted_values[index]


def run(
    base_url: str,
    make_request: RequestFactory,
    concurrency: int = 8,
    duration: float = 10.0,
    warmup: float = 2.0,
    expect: tuple[int, ...] = (200,),
) -> dict:
    """Drive ``base_url`` and return throughput and latency figures."""
    parsed = urllib.parse.urlsplit(base_url)
    latencies: list[list[float]] = [[] for _ in range(concurrency)]
    errors = [0] * concurrency
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    start = time.monotonic()
    measure_from = start + warmup
    stop_at = measure_from + duration

    def worker(slot: int) -> None:
        conn = http.client.HTTPConnection(parsed.hostname, parsed.port)
        i = 0
        while True:
            now = time.monotonic()
            if now >= stop_at:
                break
            method, path, body, headers = make_request(slot * 10_000_000 + i)
            i += 1
            t0 = time.perf_counter()
            try:
                conn.request(method, path, body=body, headers=headers)
                resp = conn.getresponse()
                resp.read()
                status = resp.status
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection(parsed.hostname, parsed.port)
                status = 0
            elapsed = time.perf_counter() - t0
            if now >= measure_from:
                latencies[slot].append(elapsed)
                if status not in expect:
                    errors[slot] += 1
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
        conn.close()

    threads = [
        threading.Thread(target=worker, args=(s,)) for s in range(concurrency)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    values = sorted(v for per in latencies for v in per)
    return {
        "requests": len(values),
        "errors": sum(errors),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "duration_s": duration,
        "concurrency": concurrency,
        "req_per_s": round(len(values) / duration, 1),
        "p50_ms": round(_percentile(values, 50) * 1000, 2),
        "p90_ms": round(_percentile(values, 90) * 1000, 2),
        "p99_ms": round(_percentile(values, 99) * 1000, 2),
        "mean_ms": round(statistics.fmean(values) * 1000, 2)
        if values
        else None,
    }
