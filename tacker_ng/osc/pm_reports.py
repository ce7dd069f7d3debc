"""``openstack vnfpm report list``: the performance reports of a PM job.

python-tackerclient reads a report (``vnfpm report show <job> <report>``)
but offers no way to learn a report's id other than picking it out of the
hrefs in ``vnfpm job show``'s Reports column; this lists them.
"""

import argparse

from osc_lib.command import command

COLUMNS = ("ID", "Ready Time", "Expiry Time", "Href")


def report_rows(job: dict) -> list[tuple]:
    """One row per PmJob.reports element, oldest first."""
    return [
        (
            report["href"].rstrip("/").rsplit("/", 1)[-1],
            report.get("readyTime"),
            report.get("expiryTime"),
            report["href"],
        )
        for report in job.get("reports") or []
    ]


class ListReports(command.Lister):
    """List the performance reports of a VNF PM job (newest last).

    The ID column is what ``openstack vnfpm report show <pm-job-id>
    <report-id>`` takes; reports disappear at their expiry time.
    """

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "pm_job", metavar="<vnf-pm-job-id>", help="VNF PM job ID"
        )
        return parser

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], list[tuple]]:
        tacker = self.app.client_manager.tacker_ng
        return COLUMNS, report_rows(tacker.pm_job(parsed_args.pm_job))
