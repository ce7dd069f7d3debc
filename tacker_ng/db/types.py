"""Column types shared by the models: timezone-aware UTC and JSON."""

import datetime

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql


class UTCDateTime(sa.types.TypeDecorator):
    """Store naive UTC, hand back timezone-aware UTC datetimes."""

    impl = sa.DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(datetime.UTC).replace(tzinfo=None)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        return value.replace(tzinfo=datetime.UTC)


#: JSON document column; JSONB on PostgreSQL so it can be indexed.
JSONDoc = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def utcnow() -> datetime.datetime:
    """The current time, timezone-aware UTC."""
    return datetime.datetime.now(datetime.UTC)
