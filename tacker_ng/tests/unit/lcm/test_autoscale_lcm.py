"""Automatic scaling through the whole LCM path: an instantiate request
with a bad scaling rule is refused (422 ProblemDetails); with good ones,
a load step makes the conductor's pass start an automatic SCALE_OUT that
the in-process conductor completes. (The fake infra driver reports no
scaleStatus, so the level stays 0 and scale in is left to the pass
tests on SQLite.)"""

from tacker_ng import context as tcontext
from tacker_ng.conductor import rpcapi
from tacker_ng.pm import autoscale, autoscale_ops

RULE = {
    "metric": "VCpuUsageMeanVnf",
    "aspectId": "VDU2_scale",
    "scaleOutThreshold": 70,
    "scaleInThreshold": 30,
    "cooldown": 0,
}


def _vdu2(lcm, inst_id) -> int:
    info = lcm.instance(inst_id)["instantiatedVnfInfo"]
    return sum(1 for v in info["vnfcResourceInfo"] if v["vduId"] == "VDU2")


def test_bad_rule_refuses_the_instantiation(lcm):
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {
            "flavourId": "simple",
            "additionalParams": {
                "scalingRules": [{**RULE, "aspectId": "nope"}]
            },
        },
        status=422,
    )
    assert resp.content_type == "application/problem+json"
    assert (
        "scalingRules[0].aspectId: 'nope' is not a scaling aspect"
        in (resp.json["detail"])
    )
    assert lcm.instance(inst["id"])["instantiationState"] == (
        "NOT_INSTANTIATED"
    )


def test_load_scales_out(lcm, conf):
    inst = lcm.create()
    lcm.run(
        inst["id"],
        "instantiate",
        {"flavourId": "simple", "additionalParams": {"scalingRules": [RULE]}},
    )
    load = {"value": 95.0}
    calls = []

    def measure(metric, ids, window):
        calls.append(metric)
        info = lcm.instance(inst["id"])["instantiatedVnfInfo"]
        return {
            (inst["id"], v["id"]): load["value"]
            for v in info["vnfcResourceInfo"]
        }

    ops = autoscale_ops.AutoScaleOps(
        tcontext.get_admin_context(),
        lambda ctx, occ: rpcapi.get_api().run_lcm_op(ctx, occ),
        None,
        conf,
    )
    scaler = autoscale.AutoScaler("me", lambda: ["me"], measure, ops, conf)
    before = _vdu2(lcm, inst["id"])
    (out,) = scaler.run_pass()["scales"]
    occ = lcm.wait(out, ("COMPLETED",))
    assert occ["isAutomaticInvocation"] is True
    assert occ["operation"] == "SCALE"
    assert occ["operationParams"]["type"] == "SCALE_OUT"
    assert _vdu2(lcm, inst["id"]) == before + 1
    assert calls == ["VCpuUsageMeanVnf"]
    load["value"] = 50.0  # within the thresholds: nothing more
    assert scaler.run_pass()["scales"] == []
