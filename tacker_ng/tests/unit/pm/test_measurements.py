"""The measurement table: every SOL003 metric has one query for all VNFs,
labelled so a collector can tell VNFs and sub-objects apart; operators
override or extend it with a file."""

import os
import re

import pytest

from tacker_ng.pm import measurements as m

IFA027 = {
    f"V{r}Usage{k}Vnf"
    for r in ("Cpu", "Memory", "Disk")
    for k in ("Mean", "Peak")
} | {
    f"{u}{d}{cp}"
    for u in ("Byte", "Packet")
    for d in ("Incoming", "Outgoing")
    for cp in ("VnfIntCp", "VnfExtCp")
}


def test_the_table_holds_the_sol003_metrics():
    assert set(m.DEFAULTS) == IFA027
    for name, entry in m.DEFAULTS.items():
        assert entry.name == name
        if name.endswith("Vnf"):
            assert entry.object_types == ("Vnf", "Vnfc")
            assert entry.group == "VirtualisedComputeResource"
            assert entry.sub_object_label == "vnfcId"
            assert not entry.integer
        else:
            cp = "VnfIntCp" if name.endswith("VnfIntCp") else "VnfExtCp"
            assert entry.object_types == (cp,)
            assert entry.sub_object_label == "cpId" and entry.integer


@pytest.mark.parametrize("name", sorted(IFA027))
def test_one_query_for_every_vnf_keeps_the_labels(name):
    """The collector asks once per metric for all its VNFs and reads
    vnfInstanceId and the sub-object label off each series."""
    entry = m.DEFAULTS[name]
    query = m.render(entry.query, ["b-2", "a-1", "a-1"], 45)
    assert (
        "{vnf_instance_ids}" not in query
        and "{collection_period}" not in query
    )
    assert 'vnfInstanceId=~"a-1|b-2"' in query
    assert "[45s" in query
    outer = re.match(r"^(?:100 \* \(1 - )?(\w+) by \(([^)]*)\)", query)
    assert outer, query
    assert outer.group(2).split(", ") == [
        "vnfInstanceId",
        entry.sub_object_label,
    ]
    assert query.count("(") == query.count(")")
    assert query.count("{") == query.count("}")


def test_render_refuses_what_is_no_vnf_instance_id():
    query = m.DEFAULTS["VCpuUsageMeanVnf"].query
    with pytest.raises(ValueError):
        m.render(query, [], 60)
    for bad in ('a"}) or vector(1', "a|b", ".*", "a b"):
        with pytest.raises(ValueError):
            m.render(query, [bad], 60)


def test_render_leaves_promql_braces_alone():
    assert (
        m.render('x{a="{b}"}[{collection_period}s]', ["i"], 5)
        == 'x{a="{b}"}[5s]'
    )


def test_a_file_overrides_a_query_and_adds_a_metric():
    table = m.parse(
        {
            "VCpuUsageMeanVnf": "avg by (vnfInstanceId, vnfcId) "
            '(cpu{vnfInstanceId=~"{vnf_instance_ids}"})',
            "SessionsVnf": {
                "query": "sum by (vnfInstanceId, vnfcId) (sessions)",
                "objectTypes": ["Vnf", "Vnfc"],
                "group": "VirtualisedComputeResource",
            },
            "LossVnfExtCp": {
                "query": "loss",
                "objectTypes": ["VnfExtCp"],
                "integer": False,
            },
        }
    )
    cpu = table["VCpuUsageMeanVnf"]
    assert cpu.query.startswith("avg by (vnfInstanceId, vnfcId) (cpu")
    assert (
        cpu.object_types == ("Vnf", "Vnfc")
        and cpu.sub_object_label == "vnfcId"
    )
    sessions = table["SessionsVnf"]
    assert sessions.sub_object_label == "vnfcId" and not sessions.integer
    loss = table["LossVnfExtCp"]
    assert loss.sub_object_label == "cpId" and not loss.integer
    assert loss.group is None
    assert m.metrics_of_group(
        "VirtualisedComputeResource", "Vnfc", table
    ) == sorted([n for n in IFA027 if n.endswith("Vnf")] + ["SessionsVnf"])
    assert set(table) == IFA027 | {"SessionsVnf", "LossVnfExtCp"}
    assert m.DEFAULTS["VCpuUsageMeanVnf"].query != cpu.query


@pytest.mark.parametrize(
    "document",
    [
        ["not", "a", "mapping"],
        {"NewVnf": "q"},  # a new metric needs its object types
        {"NewVnf": {"query": "q", "objectTypes": ["Pnf"]}},
        {"VCpuUsageMeanVnf": {"objectTypes": ["Vnf"]}},  # no query
        {"VCpuUsageMeanVnf": {"query": "q", "group": "Nope"}},
        {"bad name": "q"},
        {3: "q"},
    ],
)
def test_a_file_the_table_cannot_hold_is_refused(document):
    with pytest.raises(m.InvalidMeasurementsFile):
        m.parse(document)


def test_the_configured_file_is_read_again_when_it_changes(conf, tmp_path):
    assert m.table(conf) is m.DEFAULTS
    path = tmp_path / "measurements.yaml"
    path.write_text(
        "VCpuUsageMeanVnf: 'first{vnfInstanceId=~\"{vnf_instance_ids}\"}'\n"
    )
    conf.set_override("measurements_file", str(path), group="pm")
    assert m.table(conf)["VCpuUsageMeanVnf"].query.startswith("first")
    path.write_text("VCpuUsageMeanVnf: second\n")
    stat = path.stat()
    os.utime(path, (stat.st_atime, stat.st_mtime + 5))
    assert m.table(conf)["VCpuUsageMeanVnf"].query == "second"
    assert (
        m.table(conf)["VDiskUsageMeanVnf"] == m.DEFAULTS["VDiskUsageMeanVnf"]
    )


def test_what_a_job_asks_for_groups_expanded_once():
    asked = m.requested(
        {
            "performanceMetric": [
                "VCpuUsageMeanVnf.i1",
                "VCpuUsageMeanVnf",
                "GoneVnf",
                "ByteIncomingVnfExtCp",
            ],
            "performanceMetricGroup": ["VirtualisedComputeResource"],
        },
        "Vnfc",
        m.DEFAULTS,
    )
    names = [(r.reported_as, r.object_instance_id) for r in asked]
    assert names[:2] == [
        ("VCpuUsageMeanVnf.i1", "i1"),
        ("VCpuUsageMeanVnf", None),
    ]
    assert sorted(n for n, _ in names[2:]) == sorted(
        n for n in IFA027 if n.endswith("Vnf") and n != "VCpuUsageMeanVnf"
    )
    assert all(r.measurement.sub_object_label == "vnfcId" for r in asked)
