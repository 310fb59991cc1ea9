import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.core.urls")]

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_every_response_varies_on_hx_request(client, user):
    client.force_login(user)
    assert "HX-Request" in client.get("/")["Vary"]
    assert "HX-Request" in client.get("/fragment/", **HTMX)["Vary"]


def test_messages_ride_along_with_an_htmx_fragment_out_of_band(client, user):
    client.force_login(user)
    response = client.get("/fragment/", **HTMX)
    body = response.text
    assert body.startswith('<p id="fragment">ok</p>')
    assert 'id="messages"' in body and 'hx-swap-oob="true"' in body
    assert "Enregistré." in body


def test_an_action_without_message_clears_the_last_one_a_look_does_not(client, user):
    """A message speaks of the last action: the next action replaces it, even by nothing;
    a GET (an idle check, a refreshed region) leaves it on screen."""
    client.force_login(user)
    looked = client.get("/quiet/", **HTMX).text
    assert "hx-swap-oob" not in looked
    acted = client.post("/quiet/", **HTMX).text
    assert (
        '<div id="messages" class="messages" role="status" aria-live="polite" hx-swap-oob="true">'
        in acted
    )
    assert "message-" not in acted


def test_without_htmx_messages_wait_for_the_next_page(client, user):
    client.force_login(user)
    response = client.get("/fragment/")
    assert "hx-swap-oob" not in response.text
    assert "Enregistré." in client.get("/").text


def test_a_redirect_answering_htmx_becomes_hx_location(client, user):
    client.force_login(user)
    response = client.get("/redirect/", **HTMX)
    assert response.status_code == 200
    assert response["HX-Location"] == '{"path": "/"}'
    # The message is kept for the page the client navigates to.
    assert "Parti ailleurs." in client.get("/", **HTMX).text


def test_a_redirect_without_htmx_stays_a_redirect(client, user):
    client.force_login(user)
    response = client.get("/redirect/")
    assert response.status_code == 302
    assert "HX-Location" not in response


def test_pages_carry_the_csrf_header_for_htmx(client, user):
    client.force_login(user)
    body = client.get("/").text
    token = client.cookies["csrftoken"].value
    assert token
    assert 'hx-headers=\'{"X-CSRFToken": "' in body
