"""Sphinx directive ``.. lcm-transitions::``: the op occ state machine,
rendered at build time from ``tacker_ng.objects.state_machine`` so the
contributor guide shows what the code enforces, never a copy of it."""

from docutils import nodes
from docutils.parsers.rst import Directive


def _row(*cells: str) -> nodes.row:
    row = nodes.row()
    for text in cells:
        entry = nodes.entry()
        entry += nodes.paragraph(text=text)
        row += entry
    return row


class LcmTransitions(Directive):
    """A table: state -> states it may move to, and the op occ tasks."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from tacker_ng.objects import state_machine as sm

        tasks_from: dict[str, list[str]] = {}
        for task, sources in sm.TASK_FROM.items():
            for state in sources:
                tasks_from.setdefault(str(state), []).append(task)
        table = nodes.table()
        group = nodes.tgroup(cols=3)
        table += group
        for width in (20, 50, 30):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row("operationState", "may move to", "op occ tasks")
        group += head
        body = nodes.tbody()
        for state, targets in sm.TRANSITIONS.items():
            body += _row(
                str(state),
                ", ".join(sorted(str(t) for t in targets)) or "(final)",
                ", ".join(sorted(tasks_from.get(str(state), []))) or "-",
            )
        group += body
        return [table]


def setup(app):  # noqa: ANN001, ANN201 - Sphinx's extension hook
    app.add_directive("lcm-transitions", LcmTransitions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
