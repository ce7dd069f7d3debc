#!/usr/bin/env python3
"""minicloud: a real single-host OpenStack for tacker-ng functional tests.

usage: python tools/minicloud/minicloud.py COMMAND [--topology FILE|JSON]
  up      install (once), start, register; idempotent, prints timings
  down    stop every minicloud process
  reset   delete tenant resources (stacks, servers, fillers, server groups,
          extra flavors/aggregates/networks), back to the baseline
  wipe    down + drop mc_* databases, vhost, state (venv and saved
          states kept: the next up restores the saved one)
  status  running processes and their memory, as JSON
  env     shell exports for the admin (or --project) credentials
Stdlib only: it runs before minicloud's own virtualenv exists.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mclib import MiniCloudError, cloud, paths  # noqa: E402


def _env(project: bool) -> str:
    state = json.loads(paths.STATE_FILE.read_text())
    creds = state["project_auth" if project else "admin_auth"]
    lines = {
        "OS_AUTH_URL": creds["auth_url"],
        "OS_USERNAME": creds["username"],
        "OS_PASSWORD": creds["password"],
        "OS_PROJECT_NAME": creds["project_name"],
        "OS_USER_DOMAIN_NAME": creds["user_domain_name"],
        "OS_PROJECT_DOMAIN_NAME": creds["project_domain_name"],
        "OS_REGION_NAME": state["region_name"],
        "OS_IDENTITY_API_VERSION": "3",
    }
    out = [f"export {k}={v}" for k, v in lines.items()]
    out.append(f"export PATH={paths.VBIN}:$PATH")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run one command."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "command", choices=["up", "down", "reset", "wipe", "status", "env"]
    )
    ap.add_argument("--topology", help="topology file or inline JSON")
    ap.add_argument("--project", action="store_true", help="env: vnf user")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    try:
        if args.command == "up":
            cloud.up(args.topology, quiet=args.quiet)
        elif args.command == "down":
            cloud.down(quiet=args.quiet)
        elif args.command == "reset":
            cloud.reset()
        elif args.command == "wipe":
            cloud.wipe()
        elif args.command == "status":
            print(json.dumps(cloud.status(), indent=2))
        else:
            print(_env(args.project))
    except MiniCloudError as exc:
        print(f"minicloud {args.command}: ERROR: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
