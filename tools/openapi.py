#!/usr/bin/env python3
"""Write tacker-ng's OpenAPI document (the one GET /openapi.json serves).

Usage: tools/openapi.py [PATH]  (default doc/source/_static/openapi.json);
``tox -e genopenapi`` runs it. A unit test fails when the committed copy
is stale.
"""

import json
import pathlib
import sys

DEFAULT = (
    pathlib.Path(__file__).resolve().parents[1]
    / "doc/source/_static/openapi.json"
)


def render() -> str:
    from tacker_ng.api import openapi

    return (
        json.dumps(openapi.build_document(), indent=1, sort_keys=True) + "\n"
    )


def main() -> None:
    path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    path.write_text(render())
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
