"""What the cluster MgmtDriver returns about its VIM (no SSH involved)."""

import types

from tacker_ng.mgmt import base
from tacker_ng.mgmt.kubernetes_cluster import driver


def _task(request: dict) -> types.SimpleNamespace:
    return types.SimpleNamespace(instance={"id": "inst-a"}, request=request)


def test_vim_id_is_derived_from_the_instance():
    assert driver.vim_id_of("inst-a") == "kubernetes-inst-a"


def test_whole_cluster_heal_start_withdraws_like_terminate_end():
    drv = driver.KubernetesClusterDriver()
    withdrawn = base.HookResult(withdrawn_vims=["kubernetes-inst-a"])
    assert drv.heal_start(_task({}), None) == withdrawn
    assert drv.heal_start(_task({"vnfcInstanceId": []}), None) == withdrawn
    assert drv.terminate_end(_task({}), None) == withdrawn


def test_run_hook_passes_on_only_hook_results():
    class Hooks(base.MgmtDriver):
        def instantiate_end(self, task, artifact):
            return base.HookResult(provided_vims={"v": {"vimType": "t"}})

        def heal_end(self, task, artifact):
            return "not a result"

    hooks = Hooks()
    assert hooks.run_hook("instantiate_end", None, None).provided_vims == {
        "v": {"vimType": "t"}
    }
    assert hooks.run_hook("heal_end", None, None) is None
    assert hooks.run_hook("scale_end", None, None) is None
