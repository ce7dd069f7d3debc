"""``python -m tools.simcloud.nova_lite``: the same as serve.py."""

import sys

from tools.simcloud.nova_lite.serve import main

sys.exit(main())
