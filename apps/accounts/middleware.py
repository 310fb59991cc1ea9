from django.conf import settings
from django.utils import translation


def _supported(language: str | None) -> str | None:
    return language if language in dict(settings.LANGUAGES) else None


class UserLanguageMiddleware:
    """Activate the viewer's language: their saved choice, else the cookie, else French.

    Deliberately ignores the browser's Accept-Language: the table speaks French, and a phone
    set to English must not switch the app unless its owner asks.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = (
            _supported(getattr(request.user, "language", None))
            or _supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
            or settings.LANGUAGE_CODE
        )
        request.LANGUAGE_CODE = language
        # override() puts the thread's language back afterwards: work done later in the same
        # thread (a management command, a test, the next request before its own middleware)
        # must not inherit this viewer's language.
        with translation.override(language):
            response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response
