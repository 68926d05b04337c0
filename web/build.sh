#!/usr/bin/env bash
# Builds the whole browser game into OUT_DIR: index.html, the game's wasm and its
# JavaScript glue, the engine's Web Worker (its own small wasm, no Bevy), the web app
# manifest with its icons, and the service worker that keeps them all offline. Every
# file but index.html, sw.js and bench.html carries a hash of its content in its name
# (`hexchess_bg.0123456789abcdef.wasm`), so that a browser keeps it for good
# (hexchess-server sends such names as immutable).
#
#   web/build.sh OUT_DIR
#
# Serve OUT_DIR as a static folder (`python3 -m http.server -d OUT_DIR 8000`, or
# `hexchess-server --web OUT_DIR`); a module worker needs http, not file://.
#
# The toolchain: rustup's wasm32-unknown-unknown standard library where rustup can add
# it; otherwise Debian's Rust with its std sources (`rustc-web cargo-web
# rust-web-src`), which builds std for wasm itself (-Z build-std). Either way the
# wasm-bindgen CLI must match the lockfile's wasm-bindgen; it is installed if missing.
# WEB_PROFILE (default `web`, see Cargo.toml) picks the game's cargo profile,
# WEB_ENGINE_PROFILE (default `web-engine`) the worker's.
set -euo pipefail

out=${1:?usage: web/build.sh OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
profile=${WEB_PROFILE:-web}
engine_profile=${WEB_ENGINE_PROFILE:-web-engine}
target=wasm32-unknown-unknown
cd "$root"
mkdir -p "$out"
out=$(cd "$out" && pwd)

say() { printf 'web/build.sh: %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# --- brotli, for the copies most browsers take ------------------------------------
if ! command -v brotli >/dev/null; then
  say "installing brotli (without it only gzip copies are written: 13 MB instead of 8)"
  as_root apt-get update -q && as_root apt-get install -y -q brotli ||
    say "brotli could not be installed: gzip copies only"
fi

# --- the toolchain -------------------------------------------------------------
cargo_cmd=(cargo)
build_std=()
has_rustup_std() {
  command -v rustup >/dev/null &&
    rustup target list --installed 2>/dev/null | grep -qx "$target"
}
if ! has_rustup_std && command -v rustup >/dev/null; then
  timeout 120 rustup target add "$target" >/dev/null 2>&1 || true
fi
if has_rustup_std; then
  say "rustup's $target standard library"
else
  if [ ! -x /usr/bin/rustc ] || [ ! -d /usr/lib/rustlib/src/rust/library ]; then
    say "no $target std from rustup: installing Debian's rustc-web cargo-web rust-web-src"
    as_root apt-get update -q && as_root apt-get install -y -q rustc-web cargo-web rust-web-src
  fi
  lld=$(ls "${RUSTUP_HOME:-$HOME/.rustup}"/toolchains/*/lib/rustlib/*/bin/rust-lld 2>/dev/null | head -1 || true)
  [ -n "$lld" ] || lld=$(command -v wasm-ld || command -v wasm-ld-19 || true)
  [ -n "$lld" ] || { say "no wasm linker (rust-lld or wasm-ld)"; exit 1; }
  say "Debian's Rust ($(/usr/bin/rustc --version)) with -Z build-std, linker $lld"
  export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$lld"
  cargo_cmd=(/usr/bin/cargo)
  build_std=(-Z build-std=std,panic_abort)
fi
# Its own target folder: another compiler rebuilds everything anyway, and the native
# builds keep theirs.
export CARGO_TARGET_DIR=${WEB_TARGET_DIR:-$root/target/web}

# --- wasm-bindgen of the lockfile's version ---------------------------------------
want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
bindgen=$(command -v wasm-bindgen || echo "$HOME/.cargo/bin/wasm-bindgen")
if ! "$bindgen" --version 2>/dev/null | grep -q " $want\$"; then
  say "installing wasm-bindgen-cli $want"
  # Its own lockfile first; where that does not build with this compiler, the newest
  # compatible dependencies (said, not shown as a failure).
  if ! cargo install -q wasm-bindgen-cli --version "$want" --locked 2>"$out/.bindgen-install.log"; then
    say "its lockfile does not build here; installing with fresh dependencies"
    cargo install -q wasm-bindgen-cli --version "$want"
  fi
  rm -f "$out/.bindgen-install.log"
  bindgen="$HOME/.cargo/bin/wasm-bindgen"
fi

# --- build -------------------------------------------------------------------
build() {
  "${cargo_cmd[@]}" build "${build_std[@]}" --target "$target" "$@"
}
# The search recurses deep: a 16 MB stack instead of wasm's 1 MB. The same flags for
# both builds, so that they share every dependency they have in common.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C link-arg=-zstack-size=16777216"
say "building the engine worker"
build --profile "$engine_profile" -p hexchess-web-engine --lib
say "building the game"
build --profile "$profile" -p hexchess --bin hexchess

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for built in "$engine_profile/hexchess_web_engine" "$profile/hexchess"; do
  "$bindgen" --target web --no-typescript --remove-name-section --remove-producers-section \
    --out-dir "$stage" "$CARGO_TARGET_DIR/$target/$built.wasm"
done

# --- optional size pass ---------------------------------------------------------
# Off by default: measured here, wasm-opt -O3 left the engine's speed as it was and
# -Oz took the game's compressed size down by little while running for many minutes
# (docs/web.md). WEB_WASM_OPT=engine passes the engine, WEB_WASM_OPT=all both. Binaryen before version 116 mishandles the reference types
# Rust now emits (the page then fails with "WebAssembly.Table.set(): Argument 1 is
# invalid"): an older system wasm-opt is passed over for npm's binaryen, and without
# either the files stay as wasm-bindgen wrote them.
wasm_opt=()
system_opt=$(command -v wasm-opt || true)
if [ -n "$system_opt" ] &&
  [ "$("$system_opt" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')" -ge 116 ] 2>/dev/null; then
  wasm_opt=("$system_opt")
elif command -v npx >/dev/null; then
  wasm_opt=(npx --yes -p binaryen@132 wasm-opt)
fi
opt_files=()
case ${WEB_WASM_OPT:-0} in
  all) opt_files=("$stage"/hexchess_web_engine_bg.wasm "$stage"/hexchess_bg.wasm) ;;
  engine) opt_files=("$stage"/hexchess_web_engine_bg.wasm) ;;
esac
if [ ${#wasm_opt[@]} -gt 0 ] && [ ${#opt_files[@]} -gt 0 ]; then
  for f in "${opt_files[@]}"; do
    level=-Oz
    case $f in *engine*) level=-O3 ;; esac
    if "${wasm_opt[@]}" "$level" --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-reference-types --enable-multivalue \
      --enable-mutable-globals "$f" -o "$f.opt"; then
      mv "$f.opt" "$f"
    else
      rm -f "$f.opt"
      say "wasm-opt could not read $(basename "$f"); kept as built"
    fi
  done
fi

# --- names with their content's hash ----------------------------------------------
# Each file is renamed STEM.HASH.EXT (16 hex digits of its SHA-256) after the names it
# holds have been rewritten, so a change anywhere renames every file that leads to it.
fingerprint() {
  local file=$1 base stem ext hash
  base=$(basename "$file")
  stem=${base%.*}
  ext=${base##*.}
  hash=$(sha256sum "$file" | cut -c1-16)
  mv "$file" "$stage/$stem.$hash.$ext"
  printf '%s' "$stem.$hash.$ext"
}
engine_wasm=$(fingerprint "$stage/hexchess_web_engine_bg.wasm")
sed -i "s/hexchess_web_engine_bg\.wasm/$engine_wasm/g" "$stage/hexchess_web_engine.js"
engine_js=$(fingerprint "$stage/hexchess_web_engine.js")
sed "s|\./hexchess_web_engine\.js|./$engine_js|" web/engine_worker.js >"$stage/engine_worker.js"
worker_js=$(fingerprint "$stage/engine_worker.js")
game_wasm=$(fingerprint "$stage/hexchess_bg.wasm")
sed -i "s/hexchess_bg\.wasm/$game_wasm/g" "$stage/hexchess.js"
game_js=$(fingerprint "$stage/hexchess.js")
cp web/icon-192.png web/icon-512.png "$stage"/
icon_192=$(fingerprint "$stage/icon-192.png")
icon_512=$(fingerprint "$stage/icon-512.png")
sed "s/__ICON_192__/$icon_192/; s/__ICON_512__/$icon_512/" web/app.webmanifest \
  >"$stage/app.webmanifest"
manifest=$(fingerprint "$stage/app.webmanifest")
fill() {
  sed "s/__GAME_JS__/$game_js/g; s/__WORKER_JS__/$worker_js/g; s/__MANIFEST__/$manifest/g;
       s/__ICON_192__/$icon_192/g" "$1"
}
fill web/index.html >"$stage/index.html"
fill web/bench.html >"$stage/bench.html"
kept=("./" "$game_js" "$game_wasm" "$worker_js" "$engine_js" "$engine_wasm" "$manifest"
  "$icon_192" "$icon_512")
files=$(printf '"%s",' "${kept[@]}")
version=$(printf '%s\n' "${kept[@]}" | sha256sum | cut -c1-16)
sed "s/__VERSION__/$version/; s|__FILES__|[${files%,}]|" web/sw.js >"$stage/sw.js"

# --- compressed copies and sizes ------------------------------------------------
# hexchess-server --web sends the .br or .gz copy to a browser that takes it.
for f in "$stage"/*.wasm "$stage"/*.js "$stage"/*.html "$stage"/*.webmanifest; do
  gzip -9 -k -f "$f"
  if command -v brotli >/dev/null; then brotli -q 11 -f -k "$f"; fi
done
# The folder holds this build alone: an older build's files go.
find "$out" -maxdepth 1 -type f \( -name '*.wasm*' -o -name '*.js*' -o -name '*.html*' \
  -o -name '*.webmanifest*' -o -name '*.png' \) -delete
cp "$stage"/* "$out"/
for f in "$out/$game_wasm" "$out/$game_js" "$out/$engine_wasm" "$out/$engine_js" "$out/$worker_js"; do
  raw=$(stat -c %s "$f")
  gz=$(stat -c %s "$f.gz")
  br=$( [ -f "$f.br" ] && stat -c %s "$f.br" || echo "-")
  say "$(basename "$f"): $raw bytes, gzip $gz, brotli $br"
done
say "built into $out"
