"""Settings, read from the environment with safe local defaults.

Nothing set: SQLite in the project folder, an in-memory cache and Celery tasks run in process, so a
new user needs nothing else. ``DATABASE_URL`` switches to PostgreSQL (or any database dj-database-url
knows); ``REDIS_URL`` switches the cache, the Celery broker and the result backend to Redis, and tasks
then run on real workers. ``DEBUG`` defaults to on for a local run; with it off, ``SECRET_KEY`` is
required and secure cookie settings apply.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected one of 1/0, true/false, yes/no, on/off.")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set and DEBUG is off. Set SECRET_KEY to a long random string "
            "(for example: python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    SECRET_KEY = "insecure-local-development-key-not-for-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The site's public address (https://mahjong.example.org): the QR codes of PDFs made in the background,
# with no request to read the address from. Unset: those PDFs carry no QR code.
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")

# Email (the players' sign-up messages): SMTP when EMAIL_HOST is set, else printed to the console.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587" if EMAIL_HOST else "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", bool(EMAIL_HOST_USER))
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "tournament@localhost")

INSTALLED_APPS = [
    "config.apps.AdminConfig",  # django.contrib.admin, its login limited (config.auth)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_countries",
    "tournament",
    "scoring",
    "penalties",
    "exports",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language (the language cookie, else the browser's Accept-Language): after the
    # session, before CommonMiddleware (Django's documented place). A tournament's own default language
    # comes after both, on its pages (tournament.views.base.access_tournament).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in person's language follows them from device to device (config.language).
    "config.language.AccountLanguageMiddleware",
    # Whose session answered, and which pages a phone may keep offline (config.pwa, static/js/sw.js).
    "config.pwa.SessionOwnerMiddleware",
    "tournament.middleware.RoleLookupMiddleware",
    "tournament.middleware.LastGoodCopyMiddleware",  # public pages answer while the database is down
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",  # LANGUAGE_CODE, LANGUAGES
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASE_URL = os.environ.get("DATABASE_URL", "")
# The SQLite default takes simultaneous writes: every transaction starts IMMEDIATE (it takes the write
# lock at BEGIN, so no reader has to upgrade its lock and fail), the journal is a write-ahead log (readers
# never wait for a writer), and a writer waits up to SQLITE_TIMEOUT seconds for the lock instead of
# failing with "database is locked".
SQLITE_PATH = Path(os.environ.get("SQLITE_PATH", BASE_DIR / "db.sqlite3"))
SQLITE_TIMEOUT = float(os.environ.get("SQLITE_TIMEOUT", "30"))
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)
    if DATABASE_URL
    else {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": SQLITE_PATH,
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": SQLITE_TIMEOUT,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
}
# A database that cannot be reached is not waited on (config.postgresql, Django's PostgreSQL backend keeping
# each process's outage of its server): after a failed connection, each process refuses the requests that
# need the database at once for DATABASE_RETRY_SECONDS (the public pages answer their last good copy, the
# rest 503), then lets one request try again; connecting to a server that does not answer gives up after
# DATABASE_CONNECT_TIMEOUT seconds (psycopg's own default is 130).
DATABASE_RETRY_SECONDS = float(os.environ.get("DATABASE_RETRY_SECONDS", "2"))
DATABASE_CONNECT_TIMEOUT = int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "3"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", DATABASE_CONNECT_TIMEOUT)
# Under the ASGI server every request runs in a thread of its own, so a connection kept by a thread
# (CONN_MAX_AGE) would serve one request and PostgreSQL would see a new connection per request (and run
# out of them under load): DATABASE_POOL=1 (the Procfile's web line) shares a pool of PostgreSQL
# connections (psycopg_pool) among the threads of each process instead.
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "8"))
DATABASE_POOL_TIMEOUT = float(os.environ.get("DATABASE_POOL_TIMEOUT", "5"))
if (
    DATABASE_URL
    and env_bool("DATABASE_POOL", False)
    and DATABASES["default"]["ENGINE"].endswith("postgresql")
):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DATABASE_POOL_SIZE,
        "timeout": DATABASE_POOL_TIMEOUT,
        # The pool stops retrying a failed connection on its own after this (its delays grow: 1, 2, 4,
        # 8 s...); the requests' own attempts, one at a time, bring it back as soon as the server is.
        "reconnect_timeout": DATABASE_RETRY_SECONDS,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # Everything cached can be computed again: with Redis unreachable the cache answers as a miss and
    # the pages read the database (config.cache); a hanging Redis costs one timeout per few seconds.
    CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSoftRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": 1,
                "socket_timeout": float(os.environ.get("CACHE_SOCKET_TIMEOUT", "1")),
                "RETRY_SECONDS": float(os.environ.get("CACHE_RETRY_SECONDS", "5")),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Sessions live in the database, never only in the cache: a Redis outage logs nobody out.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# The last good copy of each public page (tournament.middleware.LastGoodCopyMiddleware) is kept this
# long, and served while the database cannot be reached.
PAGE_COPY_SECONDS = int(os.environ.get("PAGE_COPY_SECONDS", str(7 * 24 * 3600)))
# The sign-up page and the list of the registered, for visitors without a session, are rendered once per
# this many seconds and shared (tournament.views.shared); 0 renders each one anew.
SHARED_PAGE_SECONDS = float(os.environ.get("SHARED_PAGE_SECONDS", "2"))
# GET /healthz/ready (config.health): the detailed checks, for staff or for a caller that sends this
# token in the X-Healthz-Token header (empty: staff only); each process reruns them at most this often.
HEALTHZ_TOKEN = os.environ.get("HEALTHZ_TOKEN", "")
HEALTHZ_CACHE_SECONDS = float(os.environ.get("HEALTHZ_CACHE_SECONDS", "5"))
# Tenhou's games by their replay link (scoring.tenhou_links): the address a game id is appended to for its
# mjlog XML, how long to wait for it, and how much of it to read.
TENHOU_LOG_URL = os.environ.get("TENHOU_LOG_URL", "https://tenhou.net/0/log/?")
TENHOU_LOG_TIMEOUT = float(os.environ.get("TENHOU_LOG_TIMEOUT", "10"))
TENHOU_LOG_MAX_BYTES = int(os.environ.get("TENHOU_LOG_MAX_BYTES", str(1_048_576)))

# Celery: eager (in process) without a broker, real workers with Redis.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# Without a broker, a job (seating, export) asked for by a web request runs in a thread of the web
# process, so that its page shows its progress at once (tournament.services.jobs.send).
JOBS_IN_THREAD = env_bool("JOBS_IN_THREAD", CELERY_TASK_ALWAYS_EAGER)
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies is delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task taken by a worker that vanished (its machine or main process killed) goes back to the queue
# after the visibility timeout. The longest task, a printable export of 250 tables or a seating of a
# large field, takes well under a minute (benchmarks/); ten minutes leaves a wide margin, so that no task
# still running is ever delivered twice. The job sweep below brings a dead job back much sooner.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600, "socket_connect_timeout": 2}
# With the broker down, sending a task fails within about a second instead of holding the request; the
# job row stays queued and the sweep sends it once the broker is back.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2}
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Background jobs (tournament.services.jobs): a job row is its own outbox. Every JOB_SWEEP_SECONDS the
# beat process (Procfile) sends the sweep, which sends again a job still queued JOB_QUEUE_GRACE_SECONDS
# after it was sent (the broker was down, or the message was lost) and a running job whose heartbeat is
# older than JOB_HEARTBEAT_STALE_SECONDS (its worker died). Sweeps missed during an outage expire.
JOB_SWEEP_SECONDS = float(os.environ.get("JOB_SWEEP_SECONDS", "30"))
JOB_QUEUE_GRACE_SECONDS = float(os.environ.get("JOB_QUEUE_GRACE_SECONDS", "60"))
JOB_HEARTBEAT_STALE_SECONDS = float(os.environ.get("JOB_HEARTBEAT_STALE_SECONDS", "120"))
JOB_MAX_ATTEMPTS = int(os.environ.get("JOB_MAX_ATTEMPTS", "3"))  # then a job that stalls each time fails
# The rating lists (tournament.services.ratings): a list whose recompute fails is tried again after
# RATINGS_RETRY_SECONDS, doubled with each failure in a row up to RATINGS_RETRY_MAX_SECONDS; a run whose
# heartbeat is older than JOB_HEARTBEAT_STALE_SECONDS died (the sweep below notices it); storing a list
# waits RATINGS_LOCK_TIMEOUT_SECONDS at most for its row (PostgreSQL).
RATINGS_RETRY_SECONDS = float(os.environ.get("RATINGS_RETRY_SECONDS", "30"))
RATINGS_RETRY_MAX_SECONDS = float(os.environ.get("RATINGS_RETRY_MAX_SECONDS", "1800"))
RATINGS_LOCK_TIMEOUT_SECONDS = float(os.environ.get("RATINGS_LOCK_TIMEOUT_SECONDS", "30"))
CELERY_BEAT_SCHEDULE = {
    "sweep-rating-lists": {
        "task": "tournament.sweep_rating_lists",
        "schedule": JOB_SWEEP_SECONDS,
        "options": {"expires": JOB_SWEEP_SECONDS},
    },
    "expire-signup-offers": {  # a place offered from the waiting list and not accepted in time
        "task": "tournament.expire_signup_offers",
        "schedule": JOB_SWEEP_SECONDS,
        "options": {"expires": JOB_SWEEP_SECONDS},
    },
    "requeue-stalled-exports": {
        "task": "exports.requeue_stalled_jobs",
        "schedule": JOB_SWEEP_SECONDS,
        "options": {"expires": JOB_SWEEP_SECONDS},
    },
    "requeue-stalled-seating-jobs": {
        "task": "tournament.requeue_stalled_seating_jobs",
        "schedule": JOB_SWEEP_SECONDS,
        "options": {"expires": JOB_SWEEP_SECONDS},
    },
    "forget-old-submission-keys": {  # the sheet editor's idempotency keys, after a week
        "task": "scoring.forget_old_submission_keys",
        "schedule": 24 * 60 * 60,
        "options": {"expires": 60 * 60},
    },
}
# Live updates (tournament.views.live): streams one web process serves at most (beyond: 503 and
# Retry-After; the pages poll), and the seconds between the comments that keep a quiet stream open.
LIVE_MAX_CONNECTIONS = int(os.environ.get("LIVE_MAX_CONNECTIONS", "2000"))
# Streams one client address may hold in one web process: a hall's phones often share the venue's one
# public address, so the default (half the process's places) leaves room for a large hall while no
# single address takes every place.
LIVE_MAX_PER_ADDRESS = int(os.environ.get("LIVE_MAX_PER_ADDRESS", str(LIVE_MAX_CONNECTIONS // 2)))
LIVE_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_HEARTBEAT_SECONDS", "15"))
# A stream whose write has waited this long for the network (its reader takes nothing: the socket's
# buffers are full) is dropped at the next heartbeat, and its place is free.
LIVE_WRITE_SECONDS = float(os.environ.get("LIVE_WRITE_SECONDS", "30"))
# Live tables (tournament.table_progress): the head referee's page flags a table still playing this
# many hands or more behind the hanchan's median table, or without an entry for this many minutes.
LIVE_TABLES_HANDS_BEHIND = int(os.environ.get("LIVE_TABLES_HANDS_BEHIND", "3"))
LIVE_TABLES_IDLE_MINUTES = int(os.environ.get("LIVE_TABLES_IDLE_MINUTES", "15"))
# /healthz asks a worker to answer a ping when a broker is configured.
HEALTHZ_REQUIRE_WORKER = env_bool("HEALTHZ_REQUIRE_WORKER", bool(REDIS_URL))

# Test sessions running side by side on one machine (see the Makefile) keep apart: each has its own
# test database, cache keys and Celery queue. Within a session, each pytest-xdist worker (gw0, gw1, ...)
# keeps apart too: pytest-django gives it a database of its own (the name ends in _gw0), and the worker's
# name joins the cache prefix, the queue and the media folder. The processes a test starts (a Celery
# worker, a web server) inherit PYTEST_XDIST_WORKER, so they share their test's namespace.
TEST_RUN_ID = os.environ.get("TEST_RUN_ID", "")
TEST_NAMESPACE = "-".join(part for part in (TEST_RUN_ID, os.environ.get("PYTEST_XDIST_WORKER", "")) if part)
if TEST_RUN_ID:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{TEST_RUN_ID}"}
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # A test run's commits do not wait for the write-ahead log to reach the disk: a crash of the
        # server could lose the last moments of a test database, which the next run makes anew anyway.
        # Locking, isolation and constraints are PostgreSQL's own, as in production.
        DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"
    CACHES["default"]["KEY_PREFIX"] = f"test-{TEST_NAMESPACE}"
    CELERY_TASK_DEFAULT_QUEUE = f"test-{TEST_NAMESPACE}"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The languages of the product, each named in itself (the switcher on every page shows these names).
# A language is chosen: explicitly (the switcher, remembered in the language cookie for a year), else by
# the browser's Accept-Language when it names one of these, else by the tournament's default language
# (Tournament.language) on its pages, else LANGUAGE_CODE. The catalogues are in locale/
# (docs/languages.md).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ja", "日本語"),
    ("ru", "Русский"),
    ("fr", "Français"),
    ("de", "Deutsch"),
    ("zh-hans", "中文（简体）"),  # noqa: RUF001 (the Chinese parentheses are meant)
    ("ko", "한국어"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Country names in the reader's language: django-countries 9 names these countries as ISO 3166 now
# does ("Naoero", "Türkiye", "Bahamas (The)"), names its own catalogues do not translate yet, so a
# Japanese reader read "Naoero" for Nauru. They are named here in English as readers know them and
# translated in locale/ with the product's other words (tests/i18n/test_countries.py reads every name).
COUNTRIES_OVERRIDE = {
    "BS": gettext_lazy("Bahamas"),
    "FK": gettext_lazy("Falkland Islands"),
    "MK": gettext_lazy("North Macedonia"),
    "NL": gettext_lazy("Netherlands"),
    "NR": gettext_lazy("Nauru"),
    "SZ": gettext_lazy("Eswatini"),
    "TR": gettext_lazy("Türkiye"),
    "TZ": gettext_lazy("Tanzania"),
}
# One way per language to write a day, a moment and a time of day (config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Local runs serve static files straight from the apps; production serves the collected, hashed files.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "var" / "media"))
MEDIA_URL = "media/"
if TEST_RUN_ID:  # test sessions side by side keep their files apart too
    MEDIA_ROOT = MEDIA_ROOT / f"test-{TEST_NAMESPACE}"
# Exports (exports.services): a produced file is kept this many hours, then deleted.
EXPORT_EXPIRY_HOURS = float(os.environ.get("EXPORT_EXPIRY_HOURS", "24"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:index"
LOGOUT_REDIRECT_URL = "tournament:index"

# The REST API (config/api.py, docs/api.md). Token first, so that a request without credentials gets 401
# with "WWW-Authenticate: Token"; pages' logins work through the session. Pagination, filters and the
# permission checks of tournament.access are set per view.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON bounded in size and depth, without NUL or lone surrogates (config.parsers); forms as DRF's.
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    # Token logins per address (config.api.TokenLoginView), counted in the shared cache.
    "DEFAULT_THROTTLE_RATES": {"login": "10/minute"},
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Riichi tournament manager API",
    "DESCRIPTION": "Tournaments, players, seating, score sheets checked by the rules, penalties and "
    'standings. Errors: {"errors": [{"field", "rule", "message"}]}; see docs/api.md.',
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/",
    "COMPONENT_SPLIT_REQUEST": True,
    # Responses document the staff's view; others get a subset of its fields (e.g. no EMA id).
    "COMPONENT_NO_READ_ONLY_REQUIRED": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "PlayerStatusEnum": "tournament.models.Player.Status",
        "RoundStatusEnum": "tournament.models.Round.Status",
        "SheetStatusEnum": "scoring.models.ScoreSheet.Status",
        "JobStateEnum": "exports.models.ExportJob.State",  # the seating jobs' states are the same
        "SeriesRuleEnum": "tournament.models.Series.Rule",
        "TournamentKindEnum": "tournament.models.Tournament.Kind",  # a tournament or a club session
        "PenaltyKindEnum": "penalties.models.Penalty.Kind",
        "SlowTableRuleEnum": ["hands-behind", "no-entry"],  # why the head referee's page flags a table
        "SignUpStateEnum": "tournament.models.SignUp.State",
        "SignUpMoveEnum": "tournament.services.signups.MOVES",  # the states staff move a sign-up to
    },
    # Every operation's 4xx responses in the one error format (config.api.error_responses).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "config.api.error_responses"],
}

# Login limits and client addresses (config.auth): how many proxies of ours stand in front of the site
# and append to X-Forwarded-For. 0 (the default): the header is ignored and REMOTE_ADDR is the client.
_proxies = os.environ.get("TRUSTED_PROXY_COUNT") or "0"
if not (_proxies.isascii() and _proxies.isdigit()):
    raise ImproperlyConfigured(f"TRUSTED_PROXY_COUNT={_proxies!r}: expected a whole number (0: no proxy).")
TRUSTED_PROXY_COUNT = int(_proxies)
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT  # DRF's throttles read the address the same way

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SESSION_COOKIE_HTTPONLY = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    X_FRAME_OPTIONS = "DENY"

# Production secure by default (DEBUG off; docs/operations.md, "Production settings"). HTTPS only: plain
# HTTP is redirected (SECURE_SSL_REDIRECT=0 when a TLS-terminating proxy already redirects) except
# /healthz, which a load balancer probes over plain HTTP; browsers are told to use HTTPS for a year
# (SECURE_HSTS_SECONDS; 0 turns it off). Subdomains and the browsers' preload list only when asked for:
# both are hard to undo.
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    _hsts = os.environ.get("SECURE_HSTS_SECONDS") or str(365 * 24 * 3600)
    if not (_hsts.isascii() and _hsts.isdigit()):
        raise ImproperlyConfigured(f"SECURE_HSTS_SECONDS={_hsts!r}: expected a whole number of seconds.")
    SECURE_HSTS_SECONDS = int(_hsts)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    # `check --deploy` recommends both; leaving them off is a deliberate default, so their warnings are
    # silenced while they are off (and only then).
    SILENCED_SYSTEM_CHECKS = [
        *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]),
        *([] if SECURE_HSTS_PRELOAD else ["security.W021"]),
    ]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
