"""An in-memory web for requests: canned answers per URL, no sockets.

Mounted for every ``requests.Session`` of the process (the conductor
thread's too) by the ``web`` fixture; records each request it answers.
"""

import io
from collections.abc import Callable

import requests
import urllib3
from requests import adapters

#: ``handler(request) -> (status, headers, body)``
Handler = Callable[[requests.PreparedRequest], tuple[int, dict, bytes]]


class FakeWeb(adapters.BaseAdapter):
    """Answer requests from ``routes`` (URL -> handler or canned reply)."""

    def __init__(self) -> None:
        super().__init__()
        self.routes: dict[str, Handler | tuple[int, dict, bytes]] = {}
        self.requests: list[requests.PreparedRequest] = []
        self._http = adapters.HTTPAdapter()

    def route(self, url: str, reply) -> None:
        self.routes[url] = reply

    def send(self, request, **kwargs):
        self.requests.append(request)
        reply = self.routes.get(request.url)
        if reply is None:
            reply = (404, {}, b"not found")
        if callable(reply):
            reply = reply(request)
        status, headers, body = reply
        raw = urllib3.HTTPResponse(
            body=io.BytesIO(body),
            headers=headers,
            status=status,
            preload_content=False,
            decode_content=False,
            request_url=request.url,
        )
        return self._http.build_response(request, raw)

    def close(self) -> None:
        pass

    def to(self, url: str) -> list[requests.PreparedRequest]:
        """The requests sent to ``url``."""
        return [r for r in self.requests if r.url == url]
