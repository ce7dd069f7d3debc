"""Sphinx configuration for the tacker-ng documentation."""

import os
import sys

sys.path.insert(0, os.path.abspath("_ext"))

project = "tacker-ng"
copyright = "2026, tacker-ng developers"
extensions = [
    "oslo_config.sphinxext",
    "oslo_config.sphinxconfiggen",
    "oslo_policy.sphinxext",
    "oslo_policy.sphinxpolicygen",
    "lcm_transitions",
]
config_generator_config_file = (
    "../../etc/tacker_ng/tacker-config-generator.conf"
)
sample_config_basename = "_static/tacker"
policy_generator_config_file = (
    "../../etc/tacker_ng/tacker-policy-generator.conf"
)
sample_policy_basename = "_static/tacker"
html_static_path = ["_static"]
master_doc = "index"
exclude_patterns = ["_build"]
html_theme = "alabaster"
