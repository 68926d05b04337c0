#!/usr/bin/env bash
# A PostgreSQL for the server's tests: installs Debian's `postgresql` when missing,
# starts its cluster, and makes the role and database the tests use by default
# (postgres://hexchess:hexchess@127.0.0.1:5432/hexchess_test). Run as root (or with
# sudo); safe to run again.
set -euo pipefail

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
fi

# Start every cluster that is down (Debian makes one, `main`, on install).
if command -v pg_lsclusters >/dev/null; then
  pg_lsclusters --no-header | while read -r version cluster _port status _rest; do
    if [ "$status" != "online" ]; then
      pg_ctlcluster "$version" "$cluster" start
    fi
  done
fi
for _ in $(seq 1 30); do
  runuser -u postgres -- psql -qtAc 'SELECT 1' >/dev/null 2>&1 && break
  sleep 1
done

as_postgres() { runuser -u postgres -- psql -qtAv ON_ERROR_STOP=1 "$@"; }
if [ "$(as_postgres -c "SELECT 1 FROM pg_roles WHERE rolname = 'hexchess'")" != "1" ]; then
  as_postgres -c "CREATE ROLE hexchess LOGIN PASSWORD 'hexchess'"
fi
if [ "$(as_postgres -c "SELECT 1 FROM pg_database WHERE datname = 'hexchess_test'")" != "1" ]; then
  as_postgres -c "CREATE DATABASE hexchess_test OWNER hexchess"
fi
# Each test makes a database of its own (hexchess_t_...): the role may create them, and
# those of earlier runs go.
as_postgres -c "ALTER ROLE hexchess CREATEDB"
for db in $(as_postgres -c "SELECT datname FROM pg_database WHERE datname LIKE 'hexchess\_t\_%'"); do
  as_postgres -c "DROP DATABASE \"$db\""
done
echo "PostgreSQL ready: postgres://hexchess:hexchess@127.0.0.1:5432/hexchess_test"
