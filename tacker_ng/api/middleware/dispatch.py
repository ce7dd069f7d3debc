"""Send a few exact paths to their own WSGI apps, the rest to the API."""


class PathRouter:
    """Route exact ``PATH_INFO`` matches; everything else to ``default``."""

    def __init__(self, default, routes: dict) -> None:
        self.default = default
        self.routes = routes

    def __call__(self, environ, start_response):
        app = self.routes.get(environ.get("PATH_INFO") or "/", self.default)
        return app(environ, start_response)
