"""The complete schema: every model module, for alembic and sync tests.

Each domain keeps its models in its own module (``models.py`` for the
SOL003 core); list new modules here so alembic and the models-vs-
migrations tests see them.
"""

import importlib

import sqlalchemy as sa

from tacker_ng.db import models

MODEL_MODULES: tuple[str, ...] = (
    "tacker_ng.db.models",
    "tacker_ng.db.models_reservation",
    "tacker_ng.db.models_taskflow",
    "tacker_ng.db.models_convergence",
    "tacker_ng.db.models_snapshots",
    "tacker_ng.db.models_vims",
    "tacker_ng.db.models_pm",
)


def metadata() -> sa.MetaData:
    """Metadata holding the tables of every model module."""
    for name in MODEL_MODULES:
        importlib.import_module(name)
    return models.Base.metadata
