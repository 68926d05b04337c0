#!/usr/bin/env bash
# The online server facing a hostile public (docs/online.md, "Figures"), on this
# machine's loopback only. For the server binary SERVER (a release build; an older one
# too, to compare), each on a fresh SQLite file:
#   quiet     10 games for SECONDS: the relay's p50/p99 with nothing else going on;
#   flood     the same beside 10 connections sending wrong passwords at their message
#             rate (the server's own sign-in limits);
#   pool      the same flood with the sign-in limits lifted (every attempt hashed), when
#             SERVER has them;
#   sleepers  40 connections that follow the lobby and never read, beside 30 that keep
#             ten seeks open each and change one every 420 ms: the server's peak memory.
# The load itself is the current build's `hexchess-server load` (LOAD overrides it).
# Usage: scripts/online-hostile.sh SERVER [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
server="${1:?the server binary to measure}"
seconds="${2:-60}"
load="${LOAD:-${CARGO_TARGET_DIR:-target}/release/hexchess-server}"
work="$(mktemp -d)"
port=7481
url="ws://127.0.0.1:${port}/socket"
pid=""

flags=(--connections-per-address 1000000)
if "$server" --help | grep -q -- --open-per-address; then
  flags+=(--open-per-address 100000 --new-players-per-address 1000000)
fi

start_server() {
  "$server" --listen "127.0.0.1:${port}" --database "sqlite://${work}/$1.sqlite3?mode=rwc" \
    "${flags[@]}" "${@:2}" 2>>"$work/server.log" &
  pid=$!
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "the server did not start: $(cat "$work/server.log")" >&2
  exit 1
}
stop_server() {
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
trap 'kill -9 $pid 2>/dev/null || true' EXIT

start_server quiet
echo "quiet: $("$load" load --url "$url" --games 10 --seconds "$seconds" --json)"
stop_server

start_server flood
echo "flood: $("$load" load --url "$url" --games 10 --seconds "$seconds" --login-flood 10 --json)"
stop_server

if "$server" --help | grep -q -- --sign-ins-per-address; then
  start_server pool --sign-ins-per-address 1000000 --sign-ins-per-name 1000000
  echo "pool: $("$load" load --url "$url" --games 10 --seconds "$seconds" --login-flood 10 --json)"
  stop_server
fi

start_server sleepers
echo "sleepers: $("$load" load --url "$url" --games 1 --seconds "$seconds" --sleepers 40 \
  --seekers 30 --server-pid "$pid" --json)"
stop_server
