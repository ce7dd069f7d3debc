"""The Kubernetes infra driver (vimType ``ETSINFV.KUBERNETES.V_1``)."""
