import pytest


@pytest.mark.django_db
def test_health_answers_without_login(client):
    response = client.get("/sante/")
    assert response.status_code == 200
    assert response.text == "ok"
