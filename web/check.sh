#!/usr/bin/env bash
# Builds the browser game and plays it in headless Chromium (WebGL2 through
# SwiftShader): a move against the engine in its worker, a setting and the game kept
# in the page's storage across a reload, the analysis board, a review, an endgame
# drill, a table of engine seats and an uploaded variant (all in workers, the page
# drawing meanwhile), a link into an online challenge on a local server, a desktop
# window (the game under Xvfb) playing the page on that server, the worker's perft
# and bench figures; and the page as an app: its files' sizes, the first board in a
# fresh profile, a second visit that downloads only the page, installability, play
# with the network off and the server gone, a challenge shared by its link into a
# second profile (the page's own server by default), and a game by touch on a
# 390x844 portrait screen.
#
#   web/check.sh [OUT_DIR] [SHOTS_DIR]
#
# OUT_DIR (default target/web-out) gets the game; SHOTS_DIR (default
# target/web-shots) the screenshots and figures. Everything talks to 127.0.0.1
# only, and every wait has a limit. Not part of `cargo test` (a browser build takes
# longer than CI allows): run it by hand; docs/web.md has its last figures.
# WEB_BUILT=1 uses the build already in OUT_DIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/target/web-out}
shots=${2:-$root/target/web-shots}
mkdir -p "$out" "$shots"
out=$(cd "$out" && pwd)
shots=$(cd "$shots" && pwd)
cd "$root"

if ! command -v chromium >/dev/null; then
  apt-get update -q && apt-get install -y -q chromium
fi
if ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null || ! command -v convert >/dev/null; then
  apt-get update -q && apt-get install -y -q xvfb xdotool imagemagick mesa-vulkan-drivers
fi
(cd web/test && npm install --no-audit --no-fund --silent)

# WEB_BUILT=1: OUT_DIR already holds this source's build (web/build.sh run by hand).
[ -n "${WEB_BUILT:-}" ] || web/build.sh "$out"
cargo build --release -q -p hexchess-server

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
db=$(mktemp -d)
"${CARGO_TARGET_DIR:-target}/release/hexchess-server" --listen "127.0.0.1:$port" \
  --database "sqlite://$db/web-check.db?mode=rwc" --web "$out" 2>"$shots/server.log" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$db"' EXIT
for _ in $(seq 100); do
  (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

page="http://127.0.0.1:$port/"
# The files and their sizes: raw, gzip, brotli.
for f in "$out"/*.wasm "$out"/*.js "$out"/index.html; do
  printf '%s %s %s %s\n' "$(basename "$f")" "$(stat -c %s "$f")" \
    "$(stat -c %s "$f.gz" 2>/dev/null || echo -)" "$(stat -c %s "$f.br" 2>/dev/null || echo -)"
done | tee "$shots/sizes.txt"
node web/test/pwa.mjs visits "$page" "$shots/visits.json"
node web/test/pwa.mjs link "$page" "$shots/web" | tee "$shots/link.txt"
node web/test/pwa.mjs touch "$page" "$shots/web-portrait.png" | tee "$shots/touch.txt"
# Offline: a server of its own, stopped by the test once the page is kept.
port2=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"${CARGO_TARGET_DIR:-target}/release/hexchess-server" --listen "127.0.0.1:$port2" \
  --database "sqlite://$db/web-offline.db?mode=rwc" --web "$out" 2>"$shots/server-offline.log" &
offline_server=$!
for _ in $(seq 100); do
  (echo >"/dev/tcp/127.0.0.1/$port2") 2>/dev/null && break
  sleep 0.1
done
node web/test/pwa.mjs offline "http://127.0.0.1:$port2/" "$offline_server" \
  "$shots/web-offline.png" | tee "$shots/offline.txt"
wait "$offline_server" 2>/dev/null || true
node web/test/play.mjs engine "${page}?fresh" "$shots/web-engine.png" | tee "$shots/engine.txt"
node web/test/play.mjs storage "$page" "$shots/web-reload.png" | tee "$shots/storage.txt"
node web/test/play.mjs workers "$page" "$shots/web" | tee "$shots/workers.txt"
node --experimental-websocket web/test/play.mjs online "ws://127.0.0.1:$port/socket" \
  "${page}?fresh" "$shots/web-online.png" | tee "$shots/online.txt"
# A desktop window (the game under Xvfb) and a page on the same server, one game.
cargo build -q --bin hexchess
desk=$(mktemp -d)
Xvfb :97 -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $server $xvfb $game 2>/dev/null; rm -rf "$db" "$desk"' EXIT
sleep 1
DISPLAY=:97 WGPU_BACKEND=vulkan HEXCHESS_DATA_DIR="$desk/data" HEXCHESS_CONFIG_DIR="$desk/config" \
  "${CARGO_TARGET_DIR:-target}/debug/hexchess" --online "ws://127.0.0.1:$port/socket" --view 2d \
  >"$shots/desktop.log" 2>&1 &
game=$!
for _ in $(seq 600); do [ -s "$desk/data/online-secrets.txt" ] && break; sleep 0.2; done
node --experimental-websocket web/test/play.mjs desktop "$desk/data/online-secrets.txt" :97 \
  "ws://127.0.0.1:$port/socket" "${page}?fresh&view=2d" "$shots/web-desktop" | tee "$shots/desktop.txt"
convert "$shots/web-desktop-desktop.png" "$shots/web-desktop-page.png" -resize x600 +append \
  "$shots/web-and-desktop.png"
node web/test/bench.mjs "${page}bench.html" | tee "$shots/bench.json"
echo "web/check.sh: passed; screenshots and figures in $shots"
