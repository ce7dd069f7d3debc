"""SIGTERM/SIGINT handling for the long-running commands."""

import signal
import threading


def wait_for_stop_signal() -> int:
    """Block until SIGTERM or SIGINT arrives; return the signal number."""
    received: list[int] = []
    stop = threading.Event()

    def handler(signum, frame) -> None:
        received.append(signum)
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    while not stop.wait(3600):
        pass
    return received[0]
