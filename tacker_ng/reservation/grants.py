"""The seam the local NFVO's grant uses to honour a reservation.

An instantiate request may carry a reservation id (``additionalParams``);
the grant then calls :func:`grant_info` and puts what it returns into the
Grant (``reservationId``, the flavour in
``vimAssets.computeResourceFlavours``, the server group in the placement
data) so the OpenStack driver boots with them.
"""

from __future__ import annotations

from typing import Any

from tacker_ng.db import api as db_api
from tacker_ng.reservation import exceptions, store
from tacker_ng.reservation import status as st


def grant_info(
    context, reservation_id: str, project_id: str | None = None
) -> dict[str, Any]:
    """What a grant needs from an active reservation of ``project_id``
    (the VNF instance's project; the caller's when not given).

    Returns ``{"reservationId", "resource_type", "flavour_id" (the Nova
    flavor id, None for physical:host), "server_group_id" (None unless
    affinity was true or false), "hosts" (Nova compute host names),
    "zones" (their availability zones), "zone_slots" (zone -> instances
    the reservation holds there; None for physical:host), "lease_id",
    "end_date"}``.

    Raises :class:`~.exceptions.ReservationNotFound` (404) when unknown
    or when it belongs to another project - the same answer, so that
    another project's reservations stay invisible (admins included: a
    reservation is capacity of one project) - and
    :class:`~.exceptions.ReservationNotActive` (409) unless the
    reservation and its lease are active, i.e. its Nova flavor, server
    group and aggregate exist.
    """
    with db_api.reader(context) as session:
        found = store.find_reservation(session, reservation_id)
        if found is None:
            raise exceptions.ReservationNotFound(reservation_id=reservation_id)
        res, lease = found
        owner = project_id if project_id is not None else context.project_id
        if lease["project_id"] != owner:
            raise exceptions.ReservationNotFound(reservation_id=reservation_id)
        if res["status"] != st.RES_ACTIVE or lease["status"] != st.ACTIVE:
            raise exceptions.ReservationNotActive(
                reservation_id=reservation_id,
                status=f"{res['status']} (lease {lease['status']})",
            )
        hosts = store.host_details(session, reservation_id)
        slots = (
            store.zone_slots(session, reservation_id)
            if res["resource_type"] == "virtual:instance"
            else None
        )
    detail = res["detail"]
    return {
        "reservationId": reservation_id,
        "resource_type": res["resource_type"],
        "flavour_id": detail.get("flavor_id"),
        "server_group_id": detail.get("server_group_id"),
        "hosts": [h["service_name"] for h in hosts],
        "zones": sorted({h["zone"] for h in hosts if h["zone"]}),
        "zone_slots": slots,
        "lease_id": lease["id"],
        "end_date": lease["end_date"],
    }
