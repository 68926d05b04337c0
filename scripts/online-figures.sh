#!/usr/bin/env bash
# The online server's figures (docs/online.md), on this machine's loopback only:
#   1. GAMES games at once for SECONDS: relay p50/p99, errors, illegal moves accepted;
#   2. the same with a tenth of the connections dropped at random: back in step;
#   3. the same with the server killed (SIGKILL) a third of the way in and started
#      again a second later: every game goes on, none lost, none doubled.
# Usage: scripts/online-figures.sh [GAMES] [SECONDS] [DATABASE_URL]
# Needs a release build: cargo build --release -p hexchess-server
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-1000}"
seconds="${2:-60}"
server="${CARGO_TARGET_DIR:-target}/release/hexchess-server"
work="$(mktemp -d)"
database="${3:-sqlite://${work}/figures.sqlite3?mode=rwc}"
port=7479
url="ws://127.0.0.1:${port}/socket"
pid=""

start_server() {
  "$server" --listen "127.0.0.1:${port}" --database "$database" \
    --connections-per-address 1000000 --open-per-address 100000 \
    --new-players-per-address 1000000 2>>"$work/server.log" &
  pid=$!
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "the server did not start: $(cat "$work/server.log")" >&2
  exit 1
}
trap 'kill -9 $pid 2>/dev/null || true' EXIT

start_server
echo "load: $("$server" load --url "$url" --games "$games" --seconds "$seconds" --json)"
echo "drop: $("$server" load --url "$url" --games "$games" --seconds "$seconds" --drop 0.1 --json)"

"$server" load --url "$url" --games "$games" --seconds "$seconds" --json >"$work/kill.json" &
load=$!
sleep "$((seconds / 3))"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
sleep 1
start_server
wait "$load"
echo "kill: $(cat "$work/kill.json")"
kill "$pid"
