#!/usr/bin/env bash
# Make sure the services the test suite talks to are up: PostgreSQL on 127.0.0.1:5432 and Redis on
# 127.0.0.1:6379. Starts them when installed but stopped; installs them from Debian's packages when
# missing. With WITH_BROWSER=1 it also installs Debian's chromium-headless-shell (the Chromium the browser
# tests drive; Debian's chromium where the shell is not packaged), and zbar-tools (zbarimg), which the tests
# use to read back the QR codes the product draws. First, the Debian packages of the product's languages
# (scripts/ensure-packages.sh: gettext, the PDF fonts, ICU).
set -euo pipefail

"$(dirname "$0")/ensure-packages.sh"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

apt_install() {
  echo "installing Debian packages: $*"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null || {
    $SUDO apt-get update -q >/dev/null
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null
  }
}

wait_for() {  # wait_for "description" command...
  local what=$1; shift
  for _ in $(seq 1 60); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "error: $what did not come up" >&2
  return 1
}

postgres_up() { pg_isready -q -h 127.0.0.1 -p 5432; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }

if ! command -v pg_isready >/dev/null || ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
  apt_install postgresql postgresql-client
fi
version=$(ls /etc/postgresql | sort -V | tail -n 1)
hba=/etc/postgresql/$version/main/pg_hba.conf
# The tests connect as postgres over TCP from this machine only, without a password.
trust_added=0
if ! grep -qE '^host\s+all\s+all\s+127\.0\.0\.1/32\s+trust' "$hba"; then
  $SUDO sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
  trust_added=1
fi
if ! postgres_up; then
  echo "starting PostgreSQL $version"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  wait_for "PostgreSQL" postgres_up
elif [ "$trust_added" = 1 ]; then
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main reload
fi

if ! command -v redis-server >/dev/null; then
  apt_install redis-server
fi
if ! redis_up; then
  echo "starting Redis"
  $SUDO mkdir -p /var/lib/redis /var/log/redis
  $SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for "Redis" redis_up
fi

if [ "${WITH_BROWSER:-0}" = "1" ]; then
  if ! command -v zbarimg >/dev/null; then
    apt_install zbar-tools
  fi
  if [ ! -x /usr/bin/chromium-headless-shell ]; then
    # apt-cache's own status (100 for an unknown package): a pipe into `grep -q` would end early and,
    # under pipefail, report a packaged shell as missing.
    packaged() { apt-cache show --no-all-versions "$1" >/dev/null 2>&1; }
    if ! packaged chromium-headless-shell; then $SUDO apt-get update -q >/dev/null || true; fi
    if packaged chromium-headless-shell; then
      apt_install chromium-headless-shell
    elif [ ! -x /usr/bin/chromium ]; then
      apt_install chromium
    fi
  fi
fi

echo "services: PostgreSQL and Redis are up"
