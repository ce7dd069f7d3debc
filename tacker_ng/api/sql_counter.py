"""Answer each request's database statement counts in a header.

Only when ``TACKER_NG_COUNT_SQL=1`` is set (tests, benchmarks): see
:mod:`tacker_ng.db.statement_counter`. The counts are the request
thread's, from the first middleware to the response headers, so they
include the pool's work when the request's connection goes back.
"""

from tacker_ng.db import statement_counter


def wrap(app):
    """``app`` with the counting header, or ``app`` itself when off."""
    if not statement_counter.enabled():
        return app
    statement_counter.install()

    def serve(environ, start_response):
        statement_counter.reset()

        def start(status, headers, exc_info=None):
            value = statement_counter.header_value(
                statement_counter.snapshot()
            )
            headers = [*headers, (statement_counter.HEADER, value)]
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return serve
