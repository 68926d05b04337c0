#!/usr/bin/env bash
# Two games against each other through a local server, under Xvfb (docs/online.md's
# screenshots): both pair by quick pairing, each player's first move is typed into its
# own window's move box (xdotool), then a few more moves are sent for them by their
# secrets (scripts/online-mover.py), and both windows are captured.
# Usage: scripts/online-screenshots.sh OUT_DIR [GAME_BINARY]
# Needs: xvfb, xdotool, imagemagick, Mesa's software Vulkan (../shared/tools/shot.sh
# installs the last three), a built game and a release server.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(realpath -m "${1:?OUT_DIR}")"
game="${2:-target/debug/hexchess}"
server=target/release/hexchess-server
work="$(mktemp -d)"
port=7483
mkdir -p "$out"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT

"$server" --listen "127.0.0.1:$port" --database "sqlite://$work/server.sqlite3?mode=rwc" \
  >"$work/server.log" 2>&1 &
pids+=($!)
export WGPU_BACKEND=vulkan
for x in A B; do
  display=":9$([ $x = A ] && echo 1 || echo 2)"
  Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
  pids+=($!)
  sleep 1
  mkdir -p "$work/$x/data" "$work/$x/config"
  DISPLAY=$display HEXCHESS_DATA_DIR="$work/$x/data" HEXCHESS_CONFIG_DIR="$work/$x/config" \
    "$game" --online "ws://127.0.0.1:$port/socket" --online-quick glinski --view 2d \
    --clock 10+5 >"$work/$x.log" 2>&1 &
  pids+=($!)
done
# Paired: the server lists the game.
for _ in $(seq 1 120); do
  curl -s "http://127.0.0.1:$port/games" | grep -q '"game"' && break
  sleep 1
done
sleep 8
# Who plays White: the mover says, by the secrets.
secrets=("$work/A/data/online-secrets.txt" "$work/B/data/online-secrets.txt")
white=$(python3 scripts/online-mover.py "$port" "${secrets[@]}" --who-is White)
type_move() { # display, move, the box's height on the screen (it moves down a line
  # with each line of the move list): typed into the side panel's move box
  # Keyboard focus first: with no window manager, X gives it to no window.
  DISPLAY=$1 xdotool windowfocus "$(DISPLAY=$1 xdotool search --name hexchess | head -1)"
  DISPLAY=$1 xdotool mousemove 1128 "$3" click 1
  sleep 0.5
  DISPLAY=$1 xdotool type --delay 80 "$2"
  DISPLAY=$1 xdotool key Return
}
if [ "$white" = A ]; then wd=:91 bd=:92; else wd=:92 bd=:91; fi
DISPLAY=$wd import -window root "$out/online-start.png"
type_move "$wd" f5f6 311
sleep 4
type_move "$bd" c7c6 332
sleep 4
python3 scripts/online-mover.py "$port" "${secrets[@]}" --plies 8
sleep 6
DISPLAY=:91 import -window root "$out/online-a.png"
DISPLAY=:92 import -window root "$out/online-b.png"
echo "White was $white; screenshots in $out"
