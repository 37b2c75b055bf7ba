#!/usr/bin/env bash
# Starts (once) a throwaway PostgreSQL cluster for yolo's tests and prints its URL on stdout, e.g.
#   export YOLO_TEST_DATABASE_URL="$(bash scripts/pg-test-server.sh)"
# The cluster lives in $YOLO_PG_DIR (default /tmp/yolo-pg-test), listens on 127.0.0.1 only, on a free port,
# with trust authentication (no password: a test fixture, never a real server). Running it again while the
# cluster is up prints the same URL. `bash scripts/pg-test-server.sh stop` stops it and deletes the folder.
# initdb refuses to run as root: as root the cluster is owned by and run as the `postgres` user (which Debian's
# package creates). PostgreSQL itself is not installed here: that is the caller's job (`.ci/run` runs
# `apt-get install -y postgresql`); without it this script exits 3 saying so.
set -euo pipefail

dir="${YOLO_PG_DIR:-/tmp/yolo-pg-test}"
data="$dir/data"
db="yolo_test"

bindir=""
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then bindir="$(pg_config --bindir)"; fi
if [ -z "$bindir" ]; then
  bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "pg-test-server: PostgreSQL is not installed (no initdb found); install it with: apt-get install -y postgresql" >&2
  exit 3
fi

# Runs a PostgreSQL program as the cluster's owner.
as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ "${1:-}" = "stop" ]; then
  if [ -f "$data/PG_VERSION" ]; then as_owner "$bindir/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true; fi
  rm -rf "$dir"
  exit 0
fi

url() { echo "postgres://postgres@127.0.0.1:$(cat "$dir/port")/$db"; }

if [ -f "$dir/port" ] && as_owner "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  url
  exit 0
fi

if [ "$(id -u)" = "0" ] && ! id postgres >/dev/null 2>&1; then
  useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
fi

mkdir -p "$dir"
if [ "$(id -u)" = "0" ]; then chown postgres "$dir"; fi
if [ ! -f "$data/PG_VERSION" ]; then
  rm -rf "$data"
  as_owner "$bindir/initdb" -D "$data" -U postgres -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
fi

# A free port on 127.0.0.1, chosen by the kernel (a start that loses a race for it is retried below).
for attempt in 1 2 3; do
  port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  if as_owner "$bindir/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='' -c max_connections=200" start >/dev/null; then
    echo "$port" >"$dir/port"
    break
  fi
  if [ "$attempt" = 3 ]; then
    tail -n 20 "$dir/server.log" >&2 || true
    exit 1
  fi
done

if ! as_owner "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
  as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres "$db"
fi
url
