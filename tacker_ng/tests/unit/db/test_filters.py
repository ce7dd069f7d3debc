"""SOL013 filters compiled to SQL and run against real rows (SQLite).

The rows and cases here are shared with
``tests/functional/db/test_filters_backends.py``, which runs the very same
cases on MariaDB and PostgreSQL: a filter means the same on every backend.
"""

import datetime
import pathlib

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import mysql, postgresql, sqlite

from tacker_ng import exceptions
from tacker_ng.api import filtering
from tacker_ng.db import field_maps, filters, migration

UTC = datetime.UTC
DIALECTS = {
    "sqlite": sqlite.dialect(),
    "mysql": mysql.dialect(),
    "postgresql": postgresql.dialect(),
}
T0 = datetime.datetime(2024, 1, 1, 10, 0, tzinfo=UTC)
OPENSTACK = "ETSINFV.OPENSTACK_KEYSTONE.V_3"


def uid(label: str) -> str:
    """A stable UUID per label, so ``id`` filters can name rows."""
    return f"00000000-0000-4000-8000-{label.encode().hex():0>12}"[:36]


def _instance(label, name, state="NOT_INSTANTIATED", **extra):
    row = {
        "id": uid(label),
        "created_at": T0 + datetime.timedelta(minutes=len(label)),
        "vnf_instance_name": name,
        "vnf_instance_description": f"{label} description",
        "vnfd_id": "vnfd-1",
        "vnf_provider": "Other",
        "vnf_product_name": "vRouter",
        "vnf_software_version": "1.0",
        "vnfd_version": "1.0",
        "instantiation_state": state,
        "instantiated_vnf_info": None,
        "vim_connection_info": None,
        "metadata": None,
        "extensions": None,
        "vnf_configurable_properties": None,
    }
    row.update(extra)
    return row


INSTANCES = [
    _instance(
        "a",
        "alpha",
        "INSTANTIATED",
        vnf_provider="Acme",
        instantiated_vnf_info={
            "flavourId": "simple",
            "vnfState": "STARTED",
            "scaleStatus": [
                {"aspectId": "VDU1_scale", "scaleLevel": 10},
                {"aspectId": "VDU2_scale", "scaleLevel": 0},
            ],
            "vnfcResourceInfo": [
                {
                    "id": "c1",
                    "vduId": "VDU1",
                    "computeResource": {
                        "resourceId": "srv-1",
                        "vimConnectionId": "vim1",
                    },
                    "storageResourceIds": ["st-1", "st-2"],
                    "metadata": {"zone": "az-1", "weight": 5, "ü": "x"},
                },
                {
                    "id": "c2",
                    "vduId": "VDU2",
                    "computeResource": {"resourceId": "srv-2"},
                    "vnfcCpInfo": [
                        {
                            "id": "cp1",
                            "cpdId": "VDU2_CP1",
                            "cpProtocolInfo": [
                                {
                                    "layerProtocol": "IP_OVER_ETHERNET",
                                    "ipOverEthernet": {
                                        "macAddress": "fa:16:3e:00:00:01"
                                    },
                                }
                            ],
                        }
                    ],
                },
            ],
            "extCpInfo": [
                {
                    "id": "e1",
                    "cpdId": "EXT_CP",
                    "cpProtocolInfo": [
                        {
                            "layerProtocol": "IP_OVER_ETHERNET",
                            "ipOverEthernet": {
                                "ipAddresses": [
                                    {
                                        "type": "IPV4",
                                        "addresses": ["10.0.0.1", "10.0.0.2"],
                                        "isDynamic": True,
                                    }
                                ]
                            },
                        }
                    ],
                }
            ],
        },
        vim_connection_info={
            "vim1": {
                "vimId": "v-1",
                "vimType": OPENSTACK,
                "interfaceInfo": {"endpoint": "http://keystone:5000/v3"},
                "accessInfo": {"password": "secret"},
            }
        },
        metadata={
            "tenant": "blue",
            "priority": 10,
            "critical": True,
            "note": "it's, (quoted)",
            "ratio": 0.5,
            "dotted.key": "v",
            "sp ace": "w",
            "ünï": "☃",
        },
        extensions={"ext": "x"},
        vnf_configurable_properties={"isAutoscaleEnabled": True},
    ),
    _instance(
        "bb",
        "beta",
        "INSTANTIATED",
        vnfd_id="vnfd-2",
        vnf_provider="Acme",
        instantiated_vnf_info={
            "flavourId": "big",
            "vnfState": "STOPPED",
            "scaleStatus": [{"aspectId": "VDU1_scale", "scaleLevel": 9}],
            "vnfcResourceInfo": [
                {"id": "c3", "vduId": "VDU3", "storageResourceIds": []}
            ],
        },
        vim_connection_info={
            "k8s": {"vimId": "v-2", "vimType": "kubernetes"},
            "os": {"vimId": "v-3", "vimType": OPENSTACK},
        },
        metadata={
            "tenant": "Blue",
            "priority": 9,
            "critical": False,
            "ratio": 1.25,
        },
    ),
    _instance("ccc", "Gamma, delta", metadata={"priority": "10"}),
    _instance("dddd", "O'Brien", metadata={}),
    _instance(
        "eeeee",
        None,
        "INSTANTIATED",
        vnf_instance_description=None,
        # Data of unexpected shapes must neither match nor break a query.
        instantiated_vnf_info={
            "flavourId": "simple",
            "vnfState": "STARTED",
            "scaleStatus": [{"aspectId": "x", "scaleLevel": "12"}],
            "vnfcResourceInfo": "not-an-array",
            "extCpInfo": [1, "two", None, [3]],
        },
        vim_connection_info={"odd": "not-an-object"},
        metadata={"priority": [10, 11], "nested": {"k": "v"}, "t": "true"},
    ),
    _instance(
        "ffffff",
        "ünïcode ☃",
        vnf_provider="acme",
        metadata={"tenant": "BLUE", "priority": 100},
    ),
]

_ALL = {"a", "bb", "ccc", "dddd", "eeeee", "ffffff"}
INSTANCE_CASES = [
    ("(eq,vnfInstanceName,alpha)", {"a"}),
    ("(eq,vnfInstanceName,ALPHA)", set()),
    ("(neq,vnfInstanceName,alpha)", _ALL - {"a"}),
    ("(eq,vnfInstanceName,'Gamma, delta')", {"ccc"}),
    ("(eq,vnfInstanceName,'O''Brien')", {"dddd"}),
    ("(eq,vnfInstanceName,ünïcode ☃)", {"ffffff"}),
    ("(in,vnfInstanceName,alpha,beta,nobody)", {"a", "bb"}),
    ("(eq,vnfInstanceName,alpha,beta)", {"a", "bb"}),
    ("(nin,vnfInstanceName,alpha,beta)", _ALL - {"a", "bb"}),
    ("(cont,vnfInstanceName,et)", {"bb"}),
    ("(cont,vnfInstanceName,'O''',lph)", {"a", "dddd"}),
    ("(cont,vnfInstanceName,ALP)", set()),
    ("(ncont,vnfInstanceName,a)", {"dddd", "eeeee", "ffffff"}),
    ("(gt,vnfInstanceName,beta)", {"ffffff"}),
    ("(lt,vnfInstanceName,alpha)", {"ccc", "dddd"}),
    ("(lte,vnfInstanceName,alpha)", {"a", "ccc", "dddd"}),
    ("(eq,vnfInstanceDescription,a description)", {"a"}),
    ("(eq,vnfProvider,Acme)", {"a", "bb"}),
    ("(eq,vnfdId,vnfd-2)", {"bb"}),
    (f"(eq,id,{uid('dddd')})", {"dddd"}),
    (f"(in,id,{uid('a')},{uid('bb')})", {"a", "bb"}),
    (f"(eq,id,{uid('ffffff').replace('-', '')})", {"ffffff"}),
    ("(eq,instantiationState,INSTANTIATED)", {"a", "bb", "eeeee"}),
    (
        "(eq,instantiationState,INSTANTIATED);(eq,vnfProvider,Acme)",
        {"a", "bb"},
    ),
    ("(eq,instantiatedVnfInfo/vnfState,STARTED)", {"a", "eeeee"}),
    ("(neq,instantiatedVnfInfo/vnfState,STARTED)", _ALL - {"a", "eeeee"}),
    ("(eq,instantiatedVnfInfo/flavourId,big)", {"bb"}),
    ("(gt,instantiatedVnfInfo/scaleStatus/scaleLevel,9)", {"a"}),
    ("(gte,instantiatedVnfInfo/scaleStatus/scaleLevel,9)", {"a", "bb"}),
    ("(lt,instantiatedVnfInfo/scaleStatus/scaleLevel,1)", {"a"}),
    ("(gt,instantiatedVnfInfo/scaleStatus/scaleLevel,100)", set()),
    ("(eq,instantiatedVnfInfo/scaleStatus/scaleLevel,9.0)", {"bb"}),
    ("(eq,instantiatedVnfInfo/vnfcResourceInfo/vduId,VDU2)", {"a"}),
    ("(neq,instantiatedVnfInfo/vnfcResourceInfo/vduId,VDU2)", _ALL - {"a"}),
    ("(in,instantiatedVnfInfo/vnfcResourceInfo/vduId,VDU2,VDU3)", {"a", "bb"}),
    ("(cont,instantiatedVnfInfo/vnfcResourceInfo/vduId,DU)", {"a", "bb"}),
    (
        "(eq,instantiatedVnfInfo/vnfcResourceInfo/storageResourceIds,st-2)",
        {"a"},
    ),
    (
        "(eq,instantiatedVnfInfo/vnfcResourceInfo/computeResource/resourceId,"
        "srv-2)",
        {"a"},
    ),
    ("(eq,instantiatedVnfInfo/vnfcResourceInfo/metadata/weight,5)", {"a"}),
    (
        "(eq,instantiatedVnfInfo/vnfcResourceInfo/vnfcCpInfo/cpProtocolInfo/"
        "ipOverEthernet/macAddress,fa:16:3e:00:00:01)",
        {"a"},
    ),
    (
        "(eq,instantiatedVnfInfo/extCpInfo/cpProtocolInfo/ipOverEthernet/"
        "ipAddresses/addresses,10.0.0.2)",
        {"a"},
    ),
    (
        "(eq,instantiatedVnfInfo/extCpInfo/cpProtocolInfo/ipOverEthernet/"
        "ipAddresses/isDynamic,true)",
        {"a"},
    ),
    (
        "(eq,instantiatedVnfInfo/extCpInfo/cpProtocolInfo/ipOverEthernet/"
        "ipAddresses/isDynamic,false)",
        set(),
    ),
    ("(eq,vimConnectionInfo/*/vimType,kubernetes)", {"bb"}),
    (f"(eq,vimConnectionInfo/*/vimType,{OPENSTACK})", {"a", "bb"}),
    (f"(eq,vimConnectionInfo/vim1/vimType,{OPENSTACK})", {"a"}),
    ("(eq,vimConnectionInfo/os/vimId,v-3)", {"bb"}),
    ("(cont,vimConnectionInfo/*/vimType,OPENSTACK)", {"a", "bb"}),
    ("(ncont,vimConnectionInfo/*/vimType,OPENSTACK)", _ALL - {"a", "bb"}),
    (
        "(eq,vimConnectionInfo/vim1/interfaceInfo/endpoint,"
        "http://keystone:5000/v3)",
        {"a"},
    ),
    ("(eq,vimConnectionInfo/@key,k8s)", {"bb"}),
    ("(neq,vimConnectionInfo/@key,vim1)", _ALL - {"a"}),
    ("(eq,metadata/tenant,blue)", {"a"}),
    ("(gt,metadata/priority,9)", {"a", "ffffff"}),
    ("(eq,metadata/priority,10)", {"a", "ccc"}),
    ("(lt,metadata/priority,10)", {"bb"}),
    ("(eq,metadata/critical,true)", {"a"}),
    ("(eq,metadata/t,true)", {"eeeee"}),
    ("(eq,metadata/critical,false)", {"bb"}),
    ("(neq,metadata/critical,true)", _ALL - {"a"}),
    ("(eq,metadata/note,'it''s, (quoted)')", {"a"}),
    ("(cont,metadata/note,'(quoted)')", {"a"}),
    ("(gt,metadata/ratio,1)", {"bb"}),
    ("(eq,metadata/ratio,0.5)", {"a"}),
    ("(gt,metadata/tenant,Blue)", {"a"}),
    ("(eq,metadata/nested/k,v)", {"eeeee"}),
    ("(eq,metadata/*,blue)", {"a"}),
    ("(eq,metadata/@key,note)", {"a"}),
    ("(eq,metadata/dotted.key,v)", {"a"}),
    ("(eq,metadata/sp ace,w)", {"a"}),
    ("(eq,metadata/ünï,☃)", {"a"}),
    ("(eq,metadata/@key,dotted.key)", {"a"}),
    ("(eq,metadata/@key,ünï)", {"a"}),
    ("(eq,instantiatedVnfInfo/vnfcResourceInfo/metadata/ü,x)", {"a"}),
    ("(eq,instantiatedVnfInfo/vnfcResourceInfo/metadata/*,x)", {"a"}),
    ("(eq,extensions/ext,x)", {"a"}),
    ("(eq,vnfConfigurableProperties/isAutoscaleEnabled,true)", {"a"}),
]

INSTANCE_ERRORS = [
    ("(eq,nope,1)", "attribute 'nope' is not supported in filters of"),
    ("(eq,metadata,1)", "attribute 'metadata' is not supported"),
    ("(eq,vimConnectionInfo/vim1/accessInfo/password,x)", "not supported"),
    ("(gt,instantiationState,X)", "operator 'gt' is not supported for the"),
    ("(eq,instantiationState,FOO)", "must be one of NOT_INSTANTIATED"),
    ("(cont,instantiatedVnfInfo/vnfState,STA)", "operator 'cont'"),
    ("(eq,instantiatedVnfInfo/scaleStatus/scaleLevel,ten)", "not a number"),
    ("(eq,instantiatedVnfInfo/scaleStatus/scaleLevel,nan)", "not a number"),
    ("(eq,id,nope)", "is not a UUID"),
    ('(eq,metadata/a"b,1)', "unsupported character"),
    (
        "(gt,instantiatedVnfInfo/extCpInfo/cpProtocolInfo/ipOverEthernet/"
        "ipAddresses/isDynamic,true)",
        "operator 'gt' is not supported for the boolean",
    ),
    (
        "(eq,instantiatedVnfInfo/extCpInfo/cpProtocolInfo/ipOverEthernet/"
        "ipAddresses/isDynamic,yes)",
        "must be true or false",
    ),
]

OP_OCCS = [
    {
        "id": uid("op1"),
        "created_at": T0,
        "operation_state": "STARTING",
        "state_entered_time": T0,
        "start_time": T0,
        "vnf_instance_id": uid("a"),
        "operation": "INSTANTIATE",
        "is_automatic_invocation": False,
        "is_cancel_pending": False,
        "operation_params": {
            "flavourId": "simple",
            "additionalParams": {"n": 3},
        },
        "resource_changes": {
            "affectedVnfcs": [
                {"id": "c1", "vduId": "VDU1", "changeType": "ADDED"}
            ]
        },
        "changed_ext_connectivity": [
            {"id": "ext1", "extLinkPorts": [{"id": "p1"}]}
        ],
    },
    {
        "id": uid("op2"),
        "created_at": T0 + datetime.timedelta(seconds=1),
        "operation_state": "FAILED_TEMP",
        "state_entered_time": T0 + datetime.timedelta(hours=1),
        "start_time": T0 + datetime.timedelta(seconds=30),
        "vnf_instance_id": uid("a"),
        "operation": "SCALE",
        "is_automatic_invocation": True,
        "is_cancel_pending": False,
        "error": {"status": 500, "title": "Internal", "detail": "boom"},
        "resource_changes": {
            "affectedVnfcs": [{"vduId": "VDU2", "changeType": "REMOVED"}]
        },
    },
    {
        "id": uid("op3"),
        "created_at": T0 + datetime.timedelta(seconds=2),
        "operation_state": "COMPLETED",
        "state_entered_time": T0 + datetime.timedelta(days=1),
        "start_time": T0 + datetime.timedelta(days=1),
        "vnf_instance_id": uid("bb"),
        "operation": "HEAL",
        "grant_id": uid("g3"),
        "is_automatic_invocation": False,
        "is_cancel_pending": True,
        "cancel_mode": "GRACEFUL",
    },
]
_OPS = {"op1", "op2", "op3"}
OP_OCC_CASES = [
    ("(eq,operationState,FAILED_TEMP)", {"op2"}),
    (f"(eq,id,{uid('op1').upper()})", {"op1"}),
    ("(in,operationState,STARTING,COMPLETED)", {"op1", "op3"}),
    ("(eq,operation,SCALE)", {"op2"}),
    ("(gt,startTime,2024-01-01T10:00:00Z)", {"op2", "op3"}),
    ("(gt,startTime,2024-01-01T11:00:00+02:00)", _OPS),
    ("(gte,startTime,2024-01-01T10:00:30Z)", {"op2", "op3"}),
    ("(eq,startTime,2024-01-01T10:00:00Z)", {"op1"}),
    ("(neq,startTime,2024-01-01T10:00:00Z)", {"op2", "op3"}),
    ("(lt,stateEnteredTime,2024-01-01T10:30:00)", {"op1"}),
    ("(eq,isAutomaticInvocation,true)", {"op2"}),
    ("(neq,isAutomaticInvocation,true)", {"op1", "op3"}),
    ("(eq,isCancelPending,true)", {"op3"}),
    ("(eq,cancelMode,GRACEFUL)", {"op3"}),
    ("(neq,cancelMode,GRACEFUL)", {"op1", "op2"}),
    (f"(eq,vnfInstanceId,{uid('a')})", {"op1", "op2"}),
    (f"(eq,grantId,{uid('g3')})", {"op3"}),
    ("(eq,resourceChanges/affectedVnfcs/changeType,ADDED)", {"op1"}),
    ("(eq,resourceChanges/affectedVnfcs/vduId,VDU2)", {"op2"}),
    ("(eq,error/status,500)", {"op2"}),
    ("(gte,error/status,400)", {"op2"}),
    ("(cont,error/detail,oo)", {"op2"}),
    ("(eq,operationParams/additionalParams/n,3)", {"op1"}),
    ("(eq,operationParams/flavourId,simple)", {"op1"}),
    ("(eq,changedExtConnectivity/id,ext1)", {"op1"}),
    ("(eq,changedExtConnectivity/extLinkPorts/id,p1)", {"op1"}),
]
OP_OCC_ERRORS = [
    ("(gt,isAutomaticInvocation,true)", "operator 'gt'"),
    ("(eq,startTime,yesterday)", "is not an RFC 3339 date-time"),
    ("(eq,startTime,2024-13-01T00:00:00Z)", "is not an RFC 3339 date-time"),
    ("(eq,operation,DANCE)", "must be one of"),
]

_VERSIONS = {"vnfSoftwareVersion": "1.0", "vnfdVersions": ["1.0", "1.1"]}
SUBSCRIPTIONS = [
    {
        "id": uid("s1"),
        "created_at": T0,
        "callback_uri": "http://nfvo/cb1",
        "verbosity": "FULL",
        "fingerprint": "1",
        "filter": {
            "notificationTypes": ["VnfLcmOperationOccurrenceNotification"],
            "operationTypes": ["INSTANTIATE", "SCALE"],
            "vnfInstanceSubscriptionFilter": {
                "vnfdIds": ["vnfd-1"],
                "vnfProductsFromProviders": [
                    {
                        "vnfProvider": "Acme",
                        "vnfProducts": [
                            {
                                "vnfProductName": "vRouter",
                                "versions": [_VERSIONS],
                            }
                        ],
                    }
                ],
            },
        },
    },
    {
        "id": uid("s2"),
        "created_at": T0,
        "callback_uri": "https://nfvo/cb2",
        "verbosity": "SHORT",
        "fingerprint": "2",
        "filter": None,
    },
    {
        "id": uid("s3"),
        "created_at": T0,
        "callback_uri": "http://nfvo/cb3",
        "verbosity": "FULL",
        "fingerprint": "3",
        "filter": {
            "notificationTypes": [
                "VnfIdentifierCreationNotification",
                "VnfIdentifierDeletionNotification",
            ]
        },
    },
]
_PFX = "filter/vnfInstanceSubscriptionFilter/vnfProductsFromProviders"
SUBSCRIPTION_CASES = [
    (
        "(eq,filter/notificationTypes,VnfIdentifierDeletionNotification)",
        {"s3"},
    ),
    (
        "(neq,filter/notificationTypes,VnfLcmOperationOccurrenceNotification)",
        {"s2", "s3"},
    ),
    ("(eq,filter/operationTypes,SCALE)", {"s1"}),
    ("(eq,filter/vnfInstanceSubscriptionFilter/vnfdIds,vnfd-1)", {"s1"}),
    (f"(eq,{_PFX}/vnfProducts/versions/vnfdVersions,1.1)", {"s1"}),
    (f"(eq,{_PFX}/vnfProvider,Acme)", {"s1"}),
    ("(cont,callbackUri,https)", {"s2"}),
    ("(eq,verbosity,SHORT)", {"s2"}),
]
SUBSCRIPTION_ERRORS = [
    ("(eq,filter/notificationTypes,Nope)", "must be one of"),
]


def _package(label, **extra):
    row = {
        "id": uid(label),
        "created_at": T0,
        "onboarding_state": "ONBOARDED",
        "operational_state": "ENABLED",
        "usage_state": "NOT_IN_USE",
        "vnfd_id": f"vnfd-{label}",
    }
    row.update(extra)
    return row


PACKAGES = [
    _package(
        "p1",
        software_images=[
            {
                "id": "img1",
                "name": "cirros",
                "size": 1024,
                "isEncrypted": False,
                "diskFormat": "QCOW2",
                "createdAt": "2024-01-01T10:00:00Z",
                "checksum": {"algorithm": "sha-256", "hash": "abc"},
                "userMetadata": {"os": "linux"},
            }
        ],
        user_defined_data={"key": "value", "n": 2},
        checksum={"algorithm": "sha-256", "hash": "h1"},
    ),
    _package(
        "p2",
        onboarding_state="CREATED",
        operational_state="DISABLED",
        software_images=[
            {
                "id": "img2",
                "size": 20480,
                "isEncrypted": True,
                "diskFormat": "RAW",
                "createdAt": "2024-01-01T11:30:00.250+01:00",
            },
            {"id": "img3", "size": 5, "createdAt": "garbage"},
            {"id": "img4", "createdAt": "2024-02-31T10:00:00Z"},
        ],
    ),
    _package(
        "p3",
        software_images=[],
        additional_artifacts=[
            {
                "artifactPath": "Scripts/install.sh",
                "artifactClassification": "HISTORY",
                "metadata": {"k": "v"},
            }
        ],
    ),
]
_IMG = "softwareImages"
PACKAGE_CASES = [
    ("(eq,onboardingState,ONBOARDED)", {"p1", "p3"}),
    (f"(gt,{_IMG}/size,1024)", {"p2"}),
    (f"(gte,{_IMG}/size,1024)", {"p1", "p2"}),
    (f"(lt,{_IMG}/size,10)", {"p2"}),
    (f"(gt,{_IMG}/createdAt,2024-01-01T10:15:00Z)", {"p2"}),
    (f"(gt,{_IMG}/createdAt,2024-01-01T10:30:00.1Z)", {"p2"}),
    (f"(lt,{_IMG}/createdAt,2024-01-01T10:30:00.1Z)", {"p1"}),
    (f"(lt,{_IMG}/createdAt,2024-01-01T12:30:00.5+02:00)", {"p1", "p2"}),
    (f"(eq,{_IMG}/createdAt,2024-01-01T11:00:00+01:00)", {"p1"}),
    (f"(eq,{_IMG}/isEncrypted,true)", {"p2"}),
    (f"(eq,{_IMG}/diskFormat,QCOW2)", {"p1"}),
    (f"(eq,{_IMG}/checksum/hash,abc)", {"p1"}),
    (f"(eq,{_IMG}/userMetadata/os,linux)", {"p1"}),
    ("(eq,userDefinedData/n,2)", {"p1"}),
    ("(eq,userDefinedData/@key,key)", {"p1"}),
    ("(eq,additionalArtifacts/artifactClassification,HISTORY)", {"p3"}),
    ("(cont,additionalArtifacts/artifactPath,install)", {"p3"}),
    ("(eq,checksum/hash,h1)", {"p1"}),
]
PACKAGE_ERRORS = [
    (f"(eq,{_IMG}/diskFormat,qcow2)", "must be one of"),
    (f"(cont,{_IMG}/size,1)", "operator 'cont'"),
]

#: resource -> (field map, rows, id -> label, cases, error cases)
RESOURCES = {
    "VnfInstance": (
        field_maps.VNF_INSTANCE,
        INSTANCES,
        INSTANCE_CASES,
        INSTANCE_ERRORS,
    ),
    "VnfLcmOpOcc": (
        field_maps.VNF_LCM_OP_OCC,
        OP_OCCS,
        OP_OCC_CASES,
        OP_OCC_ERRORS,
    ),
    "LccnSubscription": (
        field_maps.LCCN_SUBSCRIPTION,
        SUBSCRIPTIONS,
        SUBSCRIPTION_CASES,
        SUBSCRIPTION_ERRORS,
    ),
    "VnfPkgInfo": (
        field_maps.VNF_PKG_INFO,
        PACKAGES,
        PACKAGE_CASES,
        PACKAGE_ERRORS,
    ),
}
LABELS = {
    row["id"]: label
    for rows, labels in (
        (INSTANCES, ["a", "bb", "ccc", "dddd", "eeeee", "ffffff"]),
        (OP_OCCS, ["op1", "op2", "op3"]),
        (SUBSCRIPTIONS, ["s1", "s2", "s3"]),
        (PACKAGES, ["p1", "p2", "p3"]),
    )
    for row, label in zip(rows, labels, strict=True)
}


def case_params(kind: str) -> list:
    """pytest params ``(resource, filter, expected)`` or error cases."""
    index = 2 if kind == "cases" else 3
    return [
        pytest.param(name, text, expected, id=f"{name}:{text}")
        for name, spec in RESOURCES.items()
        for text, expected in spec[index]
    ]


def insert_all(engine: sa.Engine) -> None:
    """Insert every resource's rows (instances first: op occs need them)."""
    with engine.begin() as conn:
        for fields, rows, _, _ in RESOURCES.values():
            for row in rows:  # rows differ in their keys: one by one
                conn.execute(fields.table.insert(), row)


def matching(engine: sa.Engine, resource: str, text: str) -> set[str]:
    """Labels of the rows ``text`` selects, evaluated by the database."""
    fields = RESOURCES[resource][0]
    flt = filtering.parse(text)
    where = filters.compile_filter(flt, fields, engine.dialect.name)
    with engine.connect() as conn:
        ids = conn.scalars(sa.select(fields.table.c.id).where(where)).all()
    return {LABELS[i] for i in ids}


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    """One migrated SQLite file with every row, shared by the cases."""
    path = tmp_path_factory.mktemp("filters") / "filters.sqlite"
    engine = sa.create_engine(f"sqlite:///{path}")
    migration.upgrade(engine=engine)
    insert_all(engine)
    yield engine
    engine.dispose()


@pytest.mark.parametrize(
    ("resource", "text", "expected"), case_params("cases")
)
def test_filter_selects_rows(rows, resource, text, expected):
    assert matching(rows, resource, text) == expected


@pytest.mark.parametrize(
    ("resource", "text", "message"), case_params("errors")
)
def test_unsupported_filter_is_400(resource, text, message):
    fields = RESOURCES[resource][0]
    with pytest.raises(exceptions.InvalidFilter) as err:
        filters.bind(filtering.parse(text), fields)
    assert err.value.status == 400
    assert message in err.value.detail


def test_error_names_the_term_and_position():
    flt = filtering.parse("(eq,vnfdId,x);(eq,bogus/path,1)")
    with pytest.raises(exceptions.InvalidFilter) as err:
        filters.bind(flt, field_maps.VNF_INSTANCE)
    assert "'bogus/path'" in err.value.detail
    assert "at character 15" in err.value.detail
    assert "VnfInstance" in err.value.detail


def test_no_filter_is_true():
    assert (
        filters.compile_filter(None, field_maps.VNF_INSTANCE, "x") is not None
    )


def test_unknown_dialect_is_refused():
    with pytest.raises(ValueError, match="oracle"):
        filters.compile_filter(
            filtering.parse("(eq,vnfdId,x)"), field_maps.VNF_INSTANCE, "oracle"
        )


def test_every_mapped_attribute_compiles_on_every_backend():
    """Each field-map entry yields SQL for each dialect (no typos)."""
    samples = {
        "string": "x",
        "any": "1",
        "uuid": uid("a"),
        "boolean": "true",
        "number": "1",
        "datetime": "2024-01-01T00:00:00Z",
    }
    for name, spec in RESOURCES.items():
        fields = spec[0]
        for attr in fields.attribute_names():
            path = attr.replace("**", "k")
            field = fields.resolve(tuple(path.split("/")))
            assert field is not None, (name, attr)
            kind = field.type
            value = kind.choices[0] if kind.choices else samples[kind.kind]
            ops = sorted(kind.ops)
            for index, (dialect, impl) in enumerate(DIALECTS.items()):
                op = ops[(index + len(path)) % len(ops)]
                flt = filtering.parse(f"({op},{path},{value})")
                where = filters.compile_filter(flt, fields, dialect)
                sql = sa.select(fields.table.c.id).where(where)
                assert str(sql.compile(dialect=impl))


def test_user_guide_lists_every_filterable_attribute():
    """doc/source/user/querying.rst shows each field map as declared."""
    guide = pathlib.Path(__file__).parents[4] / "doc/source/user/querying.rst"
    text = " ".join(guide.read_text().split())
    for fields, *_ in RESOURCES.values():
        for attr, field in fields.columns.items():
            kind = field.type.kind
            if field.type.choices:
                kind = f"enum({'|'.join(field.type.choices)})"
            assert (attr if kind == "string" else f"{attr}:{kind}") in text
        for container, spec in fields.leaves.items():
            assert f"{container}: {' '.join(spec.split())}" in text, container
