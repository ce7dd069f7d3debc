#!/usr/bin/env python3
"""minicloud helpers for tools/demo.sh (run with tacker-ng's venv python).

usage: demo_cloud.py vim-conf | project-id | network | fill ZONE | free
                    | group GROUP_ID | grant-reservation-user
                    | zone ZONE | host ZONE
  vim-conf  the [vim] and [reservation_nova] sections making minicloud
            tacker-ng's default VIM (project vnf's member user), and the
            [openstack] and [reservation] lines keeping tacker-ng on the
            lane's zones and hosts
  project-id  id of project vnf (the demo's HTTP basic callers act in it,
            so a lease's flavour and aggregate are the VIM project's)
  network   id of minicloud's tenant network (for extVirtualLinks)
  group     the servers of a Nova server group, each with its compute
            host and zone (as Nova's admin API reports them)
  fill      fill every host of ZONE with filler servers, so Nova answers
            "No valid host was found." there (the AZ reselection trigger)
  free      delete every filler server
  grant-reservation-user
            give [reservation_nova]'s user the member role in project
            vnf (an operator's setup step: a lease's server group is made
            in the lease's project, by that user)
  zone      the name Nova gives ZONE (AZ-1..AZ-5) in the lane
  host      the first compute host of ZONE in the lane

MINICLOUD_LANE (default 0) picks the lane of minicloud the demo uses
(tools/minicloud/lanes.py): lane 0 is project vnf, zones AZ-1..AZ-5.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "minicloud"))

from mclib import paths  # noqa: E402

from tacker_ng.tests.functional.fixtures.minicloud_api import (  # noqa: E402
    MiniCloud,
)


def vim_conf(cloud: MiniCloud) -> str:
    vnf, admin = cloud.project_auth, cloud.admin_auth
    lines = [
        "[vim]",
        f"auth_url = {cloud.auth_url}",
        f"username = {vnf['username']}",
        f"password = {vnf['password']}",
        f"project_name = {vnf['project_name']}",
        f"user_domain_name = {vnf['user_domain_name']}",
        f"project_domain_name = {vnf['project_domain_name']}",
        f"region_name = {cloud.region_name}",
        "",
        "[reservation_nova]",
        "auth_type = password",
        f"auth_url = {cloud.auth_url}",
        f"username = {admin['username']}",
        f"password = {admin['password']}",
        f"project_name = {admin['project_name']}",
        f"user_domain_name = {admin['user_domain_name']}",
        f"project_domain_name = {admin['project_domain_name']}",
        f"region_name = {cloud.region_name}",
        "",
    ]
    for section, options in cloud.tacker_conf().items():
        lines.append(f"[{section}]")
        lines += [f"{k} = {v}" for k, v in options.items()]
    return "\n".join(lines)


def group_members(cloud: MiniCloud, group_id: str) -> list[str]:
    nova = cloud.nova(admin=True)
    group = nova.server_groups.get(group_id)
    lines = [f"server group {group.name} ({group.policy}):"]
    for server_id in sorted(group.members):
        server = nova.servers.get(server_id)
        host = getattr(server, "OS-EXT-SRV-ATTR:host", None)
        zone = getattr(server, "OS-EXT-AZ:availability_zone", None)
        lines.append(
            f"  {server.name}: {server.status} on host {host}, zone {zone}"
        )
    return lines


def main(argv: list[str]) -> int:
    lane = int(os.environ.get("MINICLOUD_LANE") or 0)
    cloud = MiniCloud.from_file(paths.STATE_FILE, lane)
    if argv[:1] == ["vim-conf"]:
        print(vim_conf(cloud))
    elif argv[:1] == ["project-id"]:
        print(cloud.project_id)
    elif len(argv) == 2 and argv[0] == "group":
        print("\n".join(group_members(cloud, argv[1])))
    elif argv[:1] == ["network"]:
        print(cloud.network_id)
    elif len(argv) == 2 and argv[0] == "fill":
        cloud.fill_zone(argv[1])
        hosts = ", ".join(cloud.hosts(argv[1]))
        print(f"{argv[1]} is full: filler servers hold {hosts}")
    elif argv[:1] == ["grant-reservation-user"]:
        print(cloud.grant_admin_member_role())
    elif len(argv) == 2 and argv[0] == "zone":
        print(cloud.az(argv[1]))
    elif len(argv) == 2 and argv[0] == "host":
        print(cloud.hosts(argv[1])[0])
    elif argv[:1] == ["free"]:
        print(f"removed {cloud.free_all()} filler server(s)")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    os.umask(0o077)
    sys.exit(main(sys.argv[1:]))
