#!/usr/bin/env bash
# Two games against each other through a local server, under Xvfb (docs/online.md's
# screenshots): both pair by quick pairing; each player's first move is typed into its
# own window's move box (xdotool), a few more are sent for them by their secrets
# (scripts/online-mover.py); then the chat (a canned phrase clicked, a line typed, one
# sent), a premove clicked on Black's board, a draw offer, a resignation and a rematch
# asked, each captured. Coordinates are those of a 1280x800 screen in the 2D view.
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
GAME=$(curl -s "http://127.0.0.1:$port/games" | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"][0]["game"])')
export GAME
secrets=("$work/A/data/online-secrets.txt" "$work/B/data/online-secrets.txt")
mover() { python3 scripts/online-mover.py "$port" "${secrets[@]}" "$@"; }
white=$(mover --who-is White)
if [ "$white" = A ]; then wd=:91 bd=:92 w=A b=B; else wd=:92 bd=:91 w=B b=A; fi
click() { # display, x, y: the button held a moment (a slow software-rendered frame sees it)
  DISPLAY=$1 xdotool mousemove "$2" "$3"
  sleep 0.7
  DISPLAY=$1 xdotool mousedown 1
  sleep 0.4
  DISPLAY=$1 xdotool mouseup 1
  sleep 1
}
type_into() { # display, x, y of a text field, text: typed, then Return
  # Keyboard focus first: with no window manager, X gives it to no window.
  DISPLAY=$1 xdotool windowfocus "$(DISPLAY=$1 xdotool search --name hexchess | head -1)"
  click "$1" "$2" "$3"
  DISPLAY=$1 xdotool type --delay 60 "$4"
  DISPLAY=$1 xdotool key Return
}
shoot() { # display, file: the pointer out of the way first
  DISPLAY=$1 xdotool mousemove 700 790
  sleep 2
  DISPLAY=$1 import -window root "$out/$2"
}
# The Online windows closed: the board, the bars and the chat in full.
click :91 829 33
click :92 829 33
type_into "$wd" 1128 254 f5f6
sleep 4
type_into "$bd" 1128 254 c7c6
sleep 4
mover --plies 6
sleep 3
# The chat: White clicks "Good luck", Black types an answer, White's other connection
# says a line.
click "$wd" 817 669
sleep 2
type_into "$bd" 828 711 "you too! the queen sortie looks risky"
sleep 2
mover --say "$w" "we will see :)"
sleep 3
shoot "$wd" online-white.png
shoot "$bd" online-black.png
# A premove on Black's board while White thinks: the e-pawn one step on.
click "$bd" 414 495
click "$bd" 414 438
shoot "$bd" online-premove.png
mover --plies 1
sleep 4
# White offers a draw: Black's bar says so, with Accept and Decline.
mover --draw "$w"
sleep 3
shoot "$bd" online-draw-offer.png
# White resigns; then asks for a rematch, which Black's board shows.
mover --resign "$w"
sleep 4
mover --rematch "$w"
sleep 4
shoot "$bd" online-rematch.png
echo "White was $white; screenshots in $out"
