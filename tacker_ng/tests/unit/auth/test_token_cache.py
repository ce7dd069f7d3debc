"""The token cache keeps entries until they expire, least recent first
out, and never holds a token in clear."""

from tacker_ng.auth import token_cache


class Clock:
    now = 1000.0

    def __call__(self):
        return self.now


def test_entries_live_until_their_expiry():
    clock = Clock()
    cache = token_cache.TokenCache(10, clock)
    cache.put("t1", {"a": 1}, 1010)
    cache.put("gone", {"a": 2}, 999)
    assert cache.get("t1") == {"a": 1}
    assert cache.get("gone") is None
    clock.now = 1010
    assert cache.get("t1") is None
    assert len(cache) == 0


def test_least_recently_used_goes_first_and_keys_are_digests():
    cache = token_cache.TokenCache(2, Clock())
    cache.put("a", 1, 2000)
    cache.put("b", 2, 2000)
    assert cache.get("a") == 1
    cache.put("c", 3, 2000)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    assert all(len(k) == 32 for k in cache._items)
