"""The Celery application.

Its configuration comes from Django's settings (the ``CELERY_`` names). With no ``REDIS_URL`` the
settings make every task run in process (eager), so a local run needs no broker and no worker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(related_name="services")  # tasks live beside the services they run


@app.task(name="config.echo", bind=True)
def echo(self, payload):  # type: ignore[no-untyped-def]
    """Return the payload with the name of the worker that ran it: a broker round trip for operators."""
    return {"payload": payload, "worker": self.request.hostname}
