"""Project configuration: settings, URLs, WSGI and the Celery application."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
