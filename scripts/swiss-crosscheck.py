#!/usr/bin/env python3
"""Checks our Dutch pairing against bbpPairings (the FIDE-endorsed program, built
from its source: https://github.com/BieremaBoyzProgramming/bbpPairings, `make`).

bbpPairings generates random tournaments (its -g option, every round paired by
itself); for each round of each one, the tournament before that round is written
as a TRF file (with the round's absences and half-point byes, and with LATE=1 one
or two late entrants now and then) and paired by both programs; any pair that
differs is printed with the file kept for a look.

    BBP=/path/to/bbpPairings.exe python3 scripts/swiss-crosscheck.py \
        target/release/examples/pair_trf FIRST_SEED COUNT [EXTRA_GENERATOR_LINES]

(`cargo build --release -p hexchess-tournament --example pair_trf` first.)
docs/tournaments.md has the runs and their figures.
"""
import random, subprocess, sys, os, tempfile
BBP = os.environ.get("BBP", "bbpPairings.exe")
OURS = sys.argv[1]
first, count = int(sys.argv[2]), int(sys.argv[3])
extra = sys.argv[4] if len(sys.argv) > 4 else ""
work = tempfile.mkdtemp(prefix="swiss-crosscheck-")

def points(res):
    return {"1": 10, "=": 5, "0": 0, "U": 10, "+": 10, "-": 0, "H": 5, "F": 10, "Z": 0, " ": 0, "W": 10, "D": 5, "L": 0}[res]

LATE = os.environ.get("LATE") == "1"

def late_entrants(lines, rounds_kept, rng):
    """One or two players entering now: a zero-point absence in each round so far."""
    if not LATE or rounds_kept == 0 or rng.random() < 0.5:
        return []
    top = max(int(l[4:8]) for l in lines if l.startswith("001"))
    out = []
    for i in range(rng.randint(1, 2)):
        num = top + 1 + i
        head = "001 %4d      Late%04d Entrant%04d" % (num, num, num)
        head = head.ljust(48) + str(rng.randint(1400, 2700)).rjust(4)
        head = head.ljust(80) + " 0.0"
        head = head.ljust(91)
        out.append(head + "".join("%s - Z" % "0000".rjust(4) + "  " for _ in range(rounds_kept)).rstrip())
    return out

def prefix(lines, rounds_kept, total, rng=None):
    out = ["012 prefix", "XXR %d" % total]
    if rounds_kept == 0:
        out.append("XXC white1")
    for l in lines:
        if not l.startswith("001"):
            continue
        head = l[:91]
        chunks = []
        pos = 91
        while pos < len(l):
            chunks.append(l[pos:pos + 10].ljust(10)[:10])
            pos += 10
        kept = chunks[:rounds_kept]
        # An absence or a requested bye in the round to pair stays in the file:
        # the player is not paired in it.
        if len(chunks) > rounds_kept:
            nxt = chunks[rounds_kept]
            if nxt[:4].strip() in ("0000", "") and nxt[7:8] in ("H", "Z", "F", "-"):
                kept = kept + [nxt]
        # the result char is at offset 7 within a chunk (col 99 -> index 98)
        pts = sum(points(c[7] if len(c) > 7 else " ") for c in kept)
        head = head[:80] + ("%d.%d" % (pts // 10, pts % 10)).rjust(4) + head[84:]
        out.append((head + "".join(kept)).rstrip())
    if rng is not None:
        out.extend(late_entrants(lines, rounds_kept, rng))
    return "\n".join(out) + "\n"

def parse(text):
    ls = text.strip().splitlines()
    pairs = set()
    for l in ls[1:]:
        a, b = l.split()
        pairs.add((int(a), int(b)))
    return pairs

failed_gen = 0; diffs = 0; rounds_checked = 0; errors = 0
for seed in range(first, first + count):
    rng = random.Random(seed)
    if "PLAYERS" in os.environ:
        # PLAYERS=LOW-HIGH: fields of that size, as many rounds as they bear.
        low, high = map(int, os.environ["PLAYERS"].split("-"))
        n = rng.randint(low, high)
        r = rng.randint(3, max(3, n // 2 + 1))
    else:
        n = rng.randint(4, 40) if rng.random() < 0.9 else rng.randint(41, 120)
        r = rng.randint(3, max(3, min(11, n // 2 + 1)))
    cfg = os.path.join(work, "cfg%d.txt" % seed)
    with open(cfg, "w") as f:
        f.write("PlayersNumber=%d\nRoundsNumber=%d\nDrawPercentage=%d\n%s" % (n, r, rng.randint(0, 60), extra))
    gen = os.path.join(work, "g%d.trf" % seed)
    res = subprocess.run([BBP, "--dutch", "-g", cfg, "-o", gen, "-s", str(seed)], capture_output=True, text=True)
    if res.returncode != 0:
        print("generate failed", seed, res.stderr.strip()); failed_gen += 1; continue
    lines = open(gen, newline="").read().replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for k in range(0, r):
        pre = os.path.join(work, "p%d_%d.trf" % (seed, k))
        with open(pre, "w") as f:
            f.write(prefix(lines, k, r, random.Random(seed * 100 + k)))
        out = os.path.join(work, "o%d_%d.txt" % (seed, k))
        b = subprocess.run([BBP, "--dutch", pre, "-p", out], capture_output=True, text=True)
        if b.returncode != 0:
            print("bbp failed", seed, k, b.stderr.strip()); continue
        theirs = parse(open(out).read())
        m = subprocess.run([OURS, pre], capture_output=True, text=True)
        rounds_checked += 1
        if m.returncode != 0:
            errors += 1
            print("OURS FAILED seed %d round %d (n=%d): %s" % (seed, k + 1, n, m.stderr.strip()))
            continue
        mine = parse(m.stdout)
        if mine != theirs:
            diffs += 1
            print("DIFF seed %d round %d (n=%d): theirs-only %s ours-only %s  file %s" % (seed, k + 1, n, sorted(theirs - mine), sorted(mine - theirs), pre))
        else:
            os.remove(pre); os.remove(out)
    os.remove(cfg)
print("tournaments %d (not generated %d), rounds %d, differences %d, errors %d" % (count, failed_gen, rounds_checked, diffs, errors))
