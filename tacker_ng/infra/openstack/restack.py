"""Put a VNF's stack to a given VNFC set and read back its servers.

The rollback of a scale, heal, change of flavour or re-scaling revert
puts back the VNFCs the instance had. Each VNFC keeps the zone it
records (no reselection: these VNFCs ran there before). A revert's own
re-scale is granted and placed like a scale (:mod:`.converge`).
"""

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors, heat, host_keys, hot, info, nova
from tacker_ng.infra.openstack.vnfcs import Vnfc
from tacker_ng.objects.vnfd import DeploymentFlavour

LOG = logging.getLogger(__name__)
COMPLETE = ("CREATE_COMPLETE", "UPDATE_COMPLETE")


def restack(
    heat_client: heat.Heat,
    nova_client: nova.Nova,
    task: base.LcmTask,
    stack_id: str,
    flavour: DeploymentFlavour,
    wanted: list[Vnfc],
    why: str,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> None:
    """Update the stack to exactly the ``wanted`` VNFCs and fill their
    server ids; ``why`` names the update in a failure."""
    top, files = hot.load(task.package_root, flavour)
    template, files = hot.join_server_groups(
        hot.expand(top, flavour, wanted),
        files,
        wanted,
        flavour,
        conf.placement.fallback_best_effort,
    )
    template, files = host_keys.inject(
        template,
        files,
        wanted,
        {v.vdu_id for v in wanted if v.host_key},
        {},
    )
    params = hot.nfv_parameter(
        flavour, wanted, info.cp_networks(task), template
    )
    heat_client.update(stack_id, template, files, {"nfv": params})
    stack = heat_client.wait(stack_id)
    if stack["stack_status"] not in COMPLETE:
        raise errors.StackFailed(
            stack=stack_id,
            action=f"UPDATE ({why})",
            reason=errors.verdict(stack.get("stack_status_reason")),
        )
    read_servers(heat_client, nova_client, stack_id, wanted)


def read_servers(
    heat_client: heat.Heat,
    nova_client: nova.Nova,
    stack_id: str,
    wanted: list[Vnfc],
) -> None:
    """Fill server ids, volume ids and the zones Nova really placed the
    servers in."""
    names = {v.name for v in wanted}
    resources = heat_client.resources(stack_id)
    servers = heat.servers_by_vnfc(resources, names)
    volumes = heat.volumes_by_vnfc(resources, names)
    for vnfc in wanted:
        server = servers.get(vnfc.name)
        if server is None:
            raise errors.VimError(
                reason=f"stack {stack_id} has no server for {vnfc.name}"
            )
        vnfc.server_id = server["physical_resource_id"]
        vnfc.volumes = volumes.get(vnfc.name, {})
        seen = nova_client.server(vnfc.server_id)
        if seen and seen["zone"] and vnfc.zone is None:
            vnfc.observed_zone = seen["zone"]
        elif seen and seen["zone"] and seen["zone"] != vnfc.zone:
            LOG.warning(
                "%s runs in %s, not in %s",
                vnfc.name,
                seen["zone"],
                vnfc.zone,
            )
            vnfc.zone = seen["zone"]
