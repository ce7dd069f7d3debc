"""Blazar's lease, reservation and event statuses.

A lease is PENDING until its start_lease event, ACTIVE until its
end_lease event, then TERMINATED; STARTING/TERMINATING/DELETING while a
conductor works on it in Nova; ERROR when that work failed for good. Every
transition is a conditional UPDATE on the row (``WHERE status IN ...``),
so two actors never both move a lease.
"""

# Lease statuses (upper case, as Blazar).
PENDING = "PENDING"
STARTING = "STARTING"
ACTIVE = "ACTIVE"
TERMINATING = "TERMINATING"
TERMINATED = "TERMINATED"
DELETING = "DELETING"
ERROR = "ERROR"

#: A conductor is working on the lease: updates must wait.
LEASE_BUSY = (STARTING, TERMINATING, DELETING)
#: Nothing of the lease exists in Nova: it can be deleted at once.
LEASE_NOTHING_IN_NOVA = (PENDING, TERMINATED)
#: Only the name of such a lease can change.
LEASE_FINISHED = (TERMINATED, ERROR)

# Reservation statuses (lower case, as Blazar).
RES_PENDING = "pending"
RES_ACTIVE = "active"
RES_DELETED = "deleted"
RES_ERROR = "error"
RES_ALL = (RES_PENDING, RES_ACTIVE, RES_DELETED, RES_ERROR)

# Event statuses.
UNDONE = "UNDONE"
IN_PROGRESS = "IN_PROGRESS"
DONE = "DONE"
EV_ERROR = "ERROR"

# Event types. The first three are Blazar's and shown in lease bodies;
# the others are internal work items that use the same claim machinery.
START_LEASE = "start_lease"
BEFORE_END_LEASE = "before_end_lease"
END_LEASE = "end_lease"
SYNC_LEASE = "sync_lease"
DELETE_LEASE = "delete_lease"
PUBLIC_EVENTS = (START_LEASE, BEFORE_END_LEASE, END_LEASE)
#: Order of events due at the same time.
EVENT_ORDER = {
    START_LEASE: 0,
    SYNC_LEASE: 1,
    BEFORE_END_LEASE: 2,
    END_LEASE: 3,
    DELETE_LEASE: 4,
}
