"""From introspected claims to a caller: every refusal the rules know."""

import pytest

from tacker_ng.auth import certificates, claims
from tacker_ng.tests.unit.auth import certs

NOW = 1_800_000_000.0
RULES = claims.Rules(
    audience="tacker-ng",
    issuer="https://idp.test",
    scope_roles=(("vnflcm:v2:all", "member"), ("vnflcm:v2:ro", "reader")),
)


def token(**over):
    base = {
        "active": True,
        "exp": NOW + 600,
        "aud": ["tacker-ng", "other"],
        "iss": "https://idp.test",
        "sub": "nfvo-1",
        "project_id": "p1",
        "scope": "openid vnflcm:v2:all",
    }
    base.update(over)
    return {k: v for k, v in base.items() if v is not None}


def test_a_valid_token_maps_to_user_project_and_roles():
    caller = claims.caller_of(token(), RULES, NOW, None)
    assert caller == claims.Caller("nfvo-1", "p1", ("member",))


@pytest.mark.parametrize(
    ("over", "public"),
    [
        ({"active": False}, "not active"),
        ({"active": "true"}, "not active"),
        ({"exp": NOW - claims.LEEWAY - 1}, "expired"),
        ({"exp": None}, "expired"),
        ({"nbf": NOW + claims.LEEWAY + 5}, "not valid yet"),
        ({"aud": "someone-else"}, "audience"),
        ({"aud": None}, "audience"),
        ({"iss": "https://evil.test"}, "issuer"),
        ({"sub": None}, "names no client"),
    ],
)
def test_invalid_tokens_are_refused_with_a_safe_reason(over, public):
    with pytest.raises(claims.InvalidToken) as err:
        claims.caller_of(token(**over), RULES, NOW, None)
    assert public in err.value.public


def test_exp_within_the_leeway_is_accepted():
    claims.caller_of(token(exp=NOW - 5), RULES, NOW, None)


def test_aud_as_space_separated_string_and_client_id_fallback():
    caller = claims.caller_of(
        token(aud="x tacker-ng", sub=None, client_id="c1"), RULES, NOW, None
    )
    assert caller.user == "c1"


@pytest.mark.parametrize(
    "over",
    [{"project_id": None}, {"scope": "openid"}, {"scope": None}],
)
def test_no_project_or_no_role_is_insufficient_scope(over):
    with pytest.raises(claims.InsufficientScope):
        claims.caller_of(token(**over), RULES, NOW, None)


def test_default_project_and_nested_roles_claim():
    rules = claims.Rules(
        audience="tacker-ng",
        default_project_id="dflt",
        roles_claim="realm_access.roles",
    )
    caller = claims.caller_of(
        token(
            project_id=None,
            scope=None,
            iss=None,
            realm_access={"roles": ["offline", "admin"]},
        ),
        rules,
        NOW,
        None,
    )
    assert caller == claims.Caller("nfvo-1", "dflt", ("admin",))


def test_bound_token_needs_its_own_certificate():
    mine, other = certs.der("mine"), certs.der("other")
    thumb = certificates.thumbprints(mine)[0]
    bound = token(cnf={"x5t#S256": thumb})
    assert claims.caller_of(bound, RULES, NOW, mine).user == "nfvo-1"
    for cert in (other, None):
        with pytest.raises(claims.InvalidToken) as err:
            claims.caller_of(bound, RULES, NOW, cert)
        assert "another client certificate" in err.value.public


def test_unbound_token_refused_only_when_binding_is_required():
    strict = claims.Rules(
        audience="tacker-ng", scope_roles=RULES.scope_roles, require_bound=True
    )
    with pytest.raises(claims.InvalidToken):
        claims.caller_of(token(iss=None), strict, NOW, certs.der())


@pytest.mark.parametrize(
    "pairs", [["nothing"], ["a=root"], ["=member"], ["a=member", "b"]]
)
def test_bad_scope_role_pairs_are_config_errors(pairs):
    with pytest.raises(ValueError):
        claims.parse_scope_roles(pairs)


def test_scope_with_colons_and_equals_parses():
    assert claims.parse_scope_roles(["a:b=c=reader"]) == (("a:b=c", "reader"),)
