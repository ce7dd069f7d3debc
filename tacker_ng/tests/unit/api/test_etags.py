"""ETags and If-None-Match (tacker_ng.api.etags)."""

import pytest
import webob

from tacker_ng.api import etags


def test_tag_is_strong_quoted_and_follows_bytes_and_headers():
    tag = etags.of_bytes(b"[1]", '<http://x/?m=a>; rel="next"')
    assert tag.startswith('"') and tag.endswith('"') and len(tag) == 24
    assert not tag.startswith("W/")
    assert tag == etags.of_bytes(b"[1]", '<http://x/?m=a>; rel="next"')
    assert tag != etags.of_bytes(b"[2]", '<http://x/?m=a>; rel="next"')
    # The same page with another next-page link is another page.
    assert tag != etags.of_bytes(b"[1]", '<http://x/?m=b>; rel="next"')
    assert tag != etags.of_bytes(b"[1]", None)
    # Bytes and header cannot be shifted into each other.
    assert etags.of_bytes(b"ab", "c") != etags.of_bytes(b"a", "bc")


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        (None, False),
        ("", False),
        ("*", True),
        (" * ", True),
        ('"7"', True),
        ('W/"7"', True),  # If-None-Match compares weakly
        ('"1", "7"', True),
        ('"1",W/"7"', True),
        ('"1"', False),
        ('"77"', False),
        ("7", False),  # not a quoted entity tag
    ],
)
def test_none_match(header, matches):
    assert etags.none_match(header, '"7"') is matches


def _answer(if_none_match=None, method="GET"):
    request = webob.Request.blank("/x", method=method)
    if if_none_match is not None:
        request.headers["If-None-Match"] = if_none_match
    return etags.json_response(request, webob.Response(), {"a": 1})


def test_200_carries_body_type_and_tag():
    resp = _answer()
    assert resp.status_int == 200
    assert resp.body == b'{"a":1}'
    assert resp.headers["Content-Type"] == "application/json"
    assert resp.headers["ETag"] == etags.of_bytes(b'{"a":1}')


def test_304_when_the_tag_matches_has_no_body():
    tag = _answer().headers["ETag"]
    resp = _answer(tag)
    assert resp.status_int == 304
    assert resp.body == b""
    assert "Content-Type" not in resp.headers
    assert resp.headers["ETag"] == tag


def test_other_tag_gets_the_body():
    resp = _answer('"something-else"')
    assert resp.status_int == 200
    assert resp.body == b'{"a":1}'


def test_given_tag_is_used():
    request = webob.Request.blank("/x")
    resp = etags.json_response(request, webob.Response(), {}, '"3"')
    assert resp.headers["ETag"] == '"3"'
