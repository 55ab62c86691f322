"""A worker killed mid-export: seconds until its export completes on another worker.

Starts a Redis of its own on a free port (never the machine's shared one) as the broker, a Celery worker,
asks for a slow export (6 s, the tests' ``slow_test``), kills the worker's main process and its pool
(SIGKILL to its process group, as if its machine stopped) once the export is under way, starts another
worker with the sweep (beat) in it, and times the kill until the job is done. The job settings are the
production defaults unless ``JOB_SWEEP_SECONDS``, ``JOB_HEARTBEAT_STALE_SECONDS`` are set: expect the
heartbeat age plus at most one sweep interval plus the export's own time. Runs on the database of
DATABASE_URL (PostgreSQL, as in production) in a throwaway test database, ``bench_faults_jobs``.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python benchmarks/faults_jobs.py

``seconds_until_killed_workers_job_completes`` is the measurement alone, for a caller that has set up
Django on a migrated database of its own (e.g. ``bench_faults.py``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

from config.celery import app as celery_app  # noqa: E402
from tests.own_redis import broker_at, own_redis  # noqa: E402

LOGS = ROOT / "var" / "bench"


def database_url() -> str:
    conf = connection.settings_dict
    user = conf.get("USER") or "postgres"
    password = f":{conf['PASSWORD']}" if conf.get("PASSWORD") else ""
    host = conf.get("HOST") or "127.0.0.1"
    return f"postgres://{user}{password}@{host}:{conf.get('PORT') or 5432}/{conf['NAME']}"


@contextmanager
def worker(broker_url: str, name: str, *extra: str) -> Iterator[subprocess.Popen[bytes]]:
    """A ``celery -A config worker`` (one pool process) on ``broker_url``, ready once it answers a ping."""
    node = f"{name}-{uuid.uuid4().hex[:8]}@localhost"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": broker_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "JOB_SWEEP_SECONDS": str(settings.JOB_SWEEP_SECONDS),
        "JOB_QUEUE_GRACE_SECONDS": str(settings.JOB_QUEUE_GRACE_SECONDS),
        "JOB_HEARTBEAT_STALE_SECONDS": str(settings.JOB_HEARTBEAT_STALE_SECONDS),
    }
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO"]
    command += ["--concurrency", "1", "--hostname", node, "--without-gossip", "--without-mingle"]
    command += ["--include", "tests.exports.slow", *extra]
    LOGS.mkdir(parents=True, exist_ok=True)
    with (LOGS / f"{name}.log").open("w") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 60
        while not celery_app.control.ping(destination=[node], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the worker {node} did not start; see {LOGS / name}.log")
        yield process
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def seconds_until_killed_workers_job_completes() -> float:
    """Kill a worker mid-export; the seconds from the kill until another worker has completed the job."""
    from django.contrib.auth import get_user_model

    from exports import services as export_services
    from exports.exporters import register, unregister
    from exports.models import ExportJob
    from tests.exports import slow
    from tournament.models import StaffRole, Tournament

    tournament = Tournament.objects.create(
        name="Bench Faults",
        slug=f"bench-faults-{uuid.uuid4().hex[:6]}",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 1, 1),
        hanchan_count=1,
    )
    organiser = get_user_model().objects.create_user(f"bench-organiser-{uuid.uuid4().hex[:6]}")
    StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    register(slow.SlowExporter)
    eager, celery_app.conf.task_always_eager = celery_app.conf.task_always_eager, False
    try:
        with own_redis(LOGS / "own-redis.log") as redis_server, broker_at(redis_server.url):
            with worker(redis_server.url, "doomed") as doomed:
                job = export_services.request_export(tournament, organiser, slow.SlowExporter.identifier)
                while not ExportJob.objects.filter(pk=job.pk, state="running", progress__gt=0).exists():
                    time.sleep(0.05)
                os.killpg(doomed.pid, signal.SIGKILL)
                killed = time.monotonic()
            schedule = Path(tempfile.mkdtemp()) / "beat-schedule"
            with worker(redis_server.url, "rescuer", "--beat", "--schedule", str(schedule)):
                while True:
                    job.refresh_from_db()
                    if job.state in {"done", "failed"}:
                        break
                    time.sleep(0.1)
                seconds = time.monotonic() - killed
        if job.state != "done" or job.attempt != 2:
            raise RuntimeError(f"job {job.pk}: {job.state} after {job.attempt} attempts: {job.error}")
        job.file.delete()
        return seconds
    finally:
        celery_app.conf.task_always_eager = eager
        unregister(slow.SlowExporter.identifier)


def main() -> None:
    connection.settings_dict["TEST"]["NAME"] = "bench_faults_jobs"
    test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(
            f"job settings: heartbeat stale after {settings.JOB_HEARTBEAT_STALE_SECONDS:.0f} s, "
            f"sweep every {settings.JOB_SWEEP_SECONDS:.0f} s; the export takes "
            f"{40 * 0.15:.0f} s"
        )
        seconds = seconds_until_killed_workers_job_completes()
        print(f"a job of a killed worker completed on another worker {seconds:.1f} s after the kill")
    finally:
        connection.creation.destroy_test_db(test_db, verbosity=0)


if __name__ == "__main__":
    main()
