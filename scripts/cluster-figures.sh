#!/usr/bin/env bash
# The figures of several server processes (docs/online.md, "Beyond one machine"), on this
# machine's loopback only, all on PostgreSQL (scripts/test-postgres.sh) and a Redis of
# their own (port 6391, nothing kept):
#   single    one process (--role all), GAMES games for SECONDS;
#   cluster   two game nodes and two socket nodes, the load's players of each game on
#             the two socket nodes;
#   failover  the same, game node g1 killed (SIGKILL) 20 s in.
# Usage: scripts/cluster-figures.sh single|cluster|failover [GAMES] [SECONDS]
# Needs a release build (cargo build --release -p hexchess-server), root for psql as
# postgres, and redis-server.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?single, cluster or failover}
games=${2:-2000}
seconds=${3:-60}
server="${CARGO_TARGET_DIR:-target}/release/hexchess-server"
limits=(--connections-per-address 100000 --open-per-address 100000
  --new-players-per-address 100000 --max-connections 20000)
logs=$(mktemp -d)

fresh_database() {
  runuser -u postgres -- psql -qc "DROP DATABASE IF EXISTS $1" \
    -c "CREATE DATABASE $1 OWNER hexchess" >/dev/null
  echo "postgres://hexchess:hexchess@127.0.0.1:5432/$1"
}

redis-cli -p 6391 ping >/dev/null 2>&1 ||
  redis-server --port 6391 --bind 127.0.0.1 --save "" --appendonly no --daemonize yes >/dev/null
redis=redis://127.0.0.1:6391/
redis-cli -p 6391 flushall >/dev/null

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
start() { # PORT FLAGS...
  local port=$1
  shift
  "$server" --listen "127.0.0.1:$port" "${limits[@]}" "$@" 2>>"$logs/$port.log" &
  pids+=($!)
}

case $mode in
single)
  start 7811 --database "$(fresh_database hexchess_figures_single)"
  sleep 2
  "$server" load --url ws://127.0.0.1:7811/socket --games "$games" --seconds "$seconds" \
    --json --server-pid "${pids[0]}"
  ;;
cluster | failover)
  db=$(fresh_database hexchess_figures_cluster)
  start 7821 --database "$db" --role game --redis "$redis" --node g1
  start 7822 --database "$db" --role game --redis "$redis" --node g2
  start 7823 --database "$db" --role socket --redis "$redis" --node s1
  start 7824 --database "$db" --role socket --redis "$redis" --node s2
  sleep 3
  if [ "$mode" = failover ]; then
    (sleep 20 && kill -9 "${pids[0]}" && echo "g1 killed 20 s in" >&2) &
  fi
  "$server" load --url ws://127.0.0.1:7823/socket --url ws://127.0.0.1:7824/socket \
    --games "$games" --seconds "$seconds" --json
  ;;
*)
  echo "usage: $0 single|cluster|failover [GAMES] [SECONDS]" >&2
  exit 2
  ;;
esac
echo "logs: $logs" >&2
