"""PM jobs and thresholds are split among the live conductors by a stable
hash: all shards covered once, few moves when a conductor dies."""

import uuid

from tacker_ng.pm import shards


def test_the_shard_of_an_id_is_stable():
    assert shards.shard_of("6f0b0bbb-9d2c-4a54-b7c1-3c4f6f6c7c0e") == (
        shards.shard_of("6f0b0bbb-9d2c-4a54-b7c1-3c4f6f6c7c0e")
    )
    seen = {shards.shard_of(str(uuid.uuid4())) for _ in range(2000)}
    assert seen == set(range(shards.SHARD_COUNT))


def test_live_conductors_share_every_shard_exactly_once():
    hosts = ["cond-a", "cond-b", "cond-c"]
    owned = {h: shards.owned(h, hosts) for h in hosts}
    assert all(owned.values())
    union = set().union(*owned.values())
    assert union == set(range(shards.SHARD_COUNT))
    assert sum(len(o) for o in owned.values()) == shards.SHARD_COUNT


def test_a_dead_conductor_gives_only_its_shards_away():
    hosts = ["cond-a", "cond-b", "cond-c"]
    before = {h: shards.owned(h, hosts) for h in hosts}
    after = {h: shards.owned(h, ["cond-a", "cond-b"]) for h in hosts[:2]}
    for host in ("cond-a", "cond-b"):
        assert before[host] <= after[host]
    assert after["cond-a"] | after["cond-b"] == set(range(shards.SHARD_COUNT))


def test_a_conductor_not_listed_yet_counts_itself():
    assert shards.owned("solo", []) == frozenset(range(shards.SHARD_COUNT))
