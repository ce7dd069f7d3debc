"""Glance v2 images through the VIM's keystoneauth session (the few calls
a VNF snapshot needs: show and delete; no client library for two URLs)."""

from typing import Any

from keystoneauth1 import exceptions as ks_exc

from tacker_ng.infra.openstack import errors

_ENDPOINT = {"service_type": "image"}


class Glance:
    """Show and delete images of the VIM's project."""

    def __init__(self, session, region: str | None, interface: str) -> None:
        self.session = session
        self.filter = {
            **_ENDPOINT,
            "region_name": region,
            "interface": interface,
        }

    def image(self, image_id: str) -> dict[str, Any] | None:
        """The image (id, status, size, ...); None if it is gone."""
        try:
            resp = self.session.get(
                f"/v2/images/{image_id}", endpoint_filter=self.filter
            )
        except ks_exc.NotFound:
            return None
        except ks_exc.ClientException as exc:
            raise errors.refused(
                errors.vim_name(self.session),
                f"Glance image show {image_id}",
                exc,
            ) from exc
        return resp.json()

    def delete(self, image_id: str) -> bool:
        """Delete an image; False if it was already gone."""
        try:
            self.session.delete(
                f"/v2/images/{image_id}", endpoint_filter=self.filter
            )
        except ks_exc.NotFound:
            return False
        except ks_exc.ClientException as exc:
            raise errors.refused(
                errors.vim_name(self.session),
                f"Glance image delete {image_id}",
                exc,
            ) from exc
        return True
