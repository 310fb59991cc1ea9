"""No import input answers 500 (issue 28, point 3): a file nested or sized beyond what an
export produces is refused in French before it is parsed; any value of a real export
replaced by a wrong one is refused or imported, never a server error; a refusal writes one
log line."""

import json
import logging

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.campaigns import transfer
from apps.campaigns.transfer.values import MAX_DEPTH
from apps.encounters import services as encounter_services
from tests.campaigns.test_transfer import _counts, _upload, _version

pytestmark = pytest.mark.django_db

TOO_DEEP = "trop imbriqué"


def _depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _ended(fixture) -> dict:
    encounter = fixture["encounter"]
    encounter_services.encounter_end(
        encounter_id=encounter.pk, version=_version(encounter), by=fixture["gm"]
    )
    return transfer.campaign_export(fixture["campaign"])


def test_exports_nest_far_less_than_the_limit(ew_campaign, aethoria_campaign_full):
    """The deepest a real export goes (an ended fight's summary, in its end event) leaves
    the limit room for a system's richer fight state."""
    depths = [_depth(_ended(ew_campaign)), _depth(_ended(aethoria_campaign_full))]
    assert max(depths) <= MAX_DEPTH // 2


@pytest.mark.parametrize(
    "content",
    [
        # The file of the issue: 500 levels, 12 KB, which answered 500 (RecursionError).
        b'{"format": "tablee-campaign", "version": 1, "encounters": [{"events": [{"data": '
        + b'{"a": ' * 500
        + b"1"
        + b"}" * 500
        + b"}]}]}",
        b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
        b'{"x": ' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1),
        b"[" * 100_000 + b"]" * 100_000,
    ],
    ids=["issue", "lists", "objects", "very-deep"],
)
def test_a_file_nested_deeper_than_an_export_is_refused(client, ew_campaign, content):
    before = _counts()
    client.force_login(ew_campaign["gm"])
    response = _upload(client, content)
    assert response.status_code == 200
    assert 'class="field-error"' in response.text and TOO_DEEP in response.text
    assert _counts() == before


def test_brackets_inside_texts_do_not_count(client, ew_campaign):
    document = transfer.campaign_export(ew_campaign["campaign"])
    document["campaign"]["description"] = '[{"\\' * 500 + "»"
    client.force_login(ew_campaign["gm"])
    response = _upload(client, json.dumps(document).encode())
    assert response.status_code == 302


def test_a_file_at_the_limit_is_read(ew_campaign):
    content = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    with pytest.raises(transfer.ImportRefused) as refused:
        transfer.parse_document(content)
    assert TOO_DEEP not in refused.value.message  # refused as no export, not as too deep


def test_a_body_bigger_than_any_export_is_refused_before_it_is_read(client, user, settings):
    client.force_login(user)
    response = client.post(
        reverse("campaigns:import"),
        {"file": SimpleUploadedFile("c.json", b"x" * 100, "application/json")},
        CONTENT_LENGTH=str(transfer.MAX_BYTES * 2),
    )
    assert response.status_code == 200
    assert "trop gros" in response.text


def test_nan_and_infinity_are_refused(client, ew_campaign):
    text = json.dumps(transfer.campaign_export(ew_campaign["campaign"]))
    client.force_login(ew_campaign["gm"])
    before = _counts()
    for constant in ("NaN", "Infinity", "-Infinity"):
        broken = text.replace('"version": 1', f'"version": 1, "x": {constant}', 1)
        response = _upload(client, broken.encode())
        assert response.status_code == 200 and "export JSON lisible" in response.text
    assert _counts() == before


def test_a_refused_import_writes_one_log_line(client, ew_campaign, caplog):
    client.force_login(ew_campaign["gm"])
    with caplog.at_level(logging.INFO):
        _upload(client, b"[" * 5000 + b"]" * 5000)
    lines = [r for r in caplog.records if r.name.startswith("apps.")]
    assert len(lines) == 1
    assert lines[0].levelno == logging.WARNING and lines[0].exc_info is None
    assert "import refused" in lines[0].getMessage()
    assert str(ew_campaign["gm"].pk) in lines[0].getMessage()


# --- Every value of a real export, replaced by a wrong one -------------------------------------

WRONG = [None, -1, 2**70, 1.5, True, "x", "é" * 300, [], {}, [[1]], {"k1": {"k2": 1}}]


def _paths(value, path=()):
    """Every place in the document (each list's first item stands for the others)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list) and value:
        yield from _paths(value[0], (*path, 0))


def _replaced(document, path, wrong):
    copy = json.loads(json.dumps(document))
    if not path:
        return wrong
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = wrong
    return copy


@pytest.mark.parametrize("fixture", ["ew_campaign", "aethoria_campaign_full"])
def test_no_wrong_value_anywhere_answers_a_server_error(fixture, request):
    """Straight through the import (the HTTP layer adds nothing here but time): each value
    of the file in turn is replaced by each kind of wrong value, cycling through them."""
    found = request.getfixturevalue(fixture)
    document = transfer.campaign_export(found["campaign"])
    crashes = []
    for number, path in enumerate(_paths(document)):
        for wrong in (WRONG[number % len(WRONG)], WRONG[(number + 5) % len(WRONG)]):
            text = json.dumps(_replaced(document, path, wrong)).encode()
            try:
                transfer.campaign_import(document=transfer.parse_document(text), by=found["gm"])
            except transfer.ImportRefused:
                pass
            except Exception as error:  # the very thing looked for
                crashes.append(f"{'/'.join(map(str, path))} = {wrong!r}: {error!r}")
    assert crashes == []
