"""The sandbox: a simulated cloud beside tacker-ng-all so that a newcomer
runs a first VNF at once (``[sandbox] enabled``, ``tools/run-embedded.sh
--sandbox``).

The simulators live in the source checkout's ``tools/simcloud`` and run
as child processes; nothing here imports them.
"""
