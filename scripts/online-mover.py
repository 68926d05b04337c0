#!/usr/bin/env python3
"""Moves for players of a game on a local server, by their secrets (for the online
screenshots): `online-mover.py PORT SECRETS_A SECRETS_B --who-is White` prints which
of the two (A or B) plays White; `--plies N` plays N random legal moves, each for the
player on move, 2.5 s apart; `--say A TEXT` says TEXT in the game's chat for A;
`--draw A`, `--resign A` and `--rematch A` offer a draw, resign, ask for a rematch for
A (after its end, the game is named by the GAME variable). The websocket is the
Python client of docs/online.md."""
import os, random, sys, time

docs = os.path.join(os.path.dirname(__file__), "..", "docs", "online.md")
code = open(docs).read().split("<!-- python-client -->")[1].split("```python\n")[1].split("```")[0]
client = {}
exec(code.replace('if __name__ == "__main__":', "if False:"), client)
Socket = client["Socket"]

port, files = int(sys.argv[1]), sys.argv[2:4]
players = []
for name, path in zip("AB", files):
    token = open(path).read().split()[1]
    ws = Socket(f"ws://127.0.0.1:{port}/socket")
    ws.send({"t": "hello", "protocol": 1, "token": token})
    while ws.recv()["t"] != "welcome":
        pass
    ws.send({"t": "games"})
    listing = ws.recv()
    while listing["t"] != "games":
        listing = ws.recv()
    # A finished game is no longer listed: the caller names it (GAME).
    game = listing["games"][0]["game"] if listing["games"] else os.environ["GAME"]
    ws.send({"t": "join", "game": game})
    state = ws.recv()
    while state["t"] != "state":
        state = ws.recv()
    players.append({"name": name, "ws": ws, "game": game, "side": state["you"][0]})

if sys.argv[4] == "--who-is":
    print(next(p["name"] for p in players if p["side"] == sys.argv[5]))
    sys.exit(0)
act = sys.argv[4]
if act in ("--say", "--draw", "--resign", "--rematch"):
    p = next(p for p in players if p["name"] == sys.argv[5])
    message = {"t": "chat" if act == "--say" else act[2:], "game": p["game"]}
    if act == "--say":
        message["text"] = sys.argv[6]
    p["ws"].send(message)
    time.sleep(1)
    sys.exit(0)
random.seed(7)
legal, to_move, ply = state["legal"], state["to_move"], state["ply"]
for n in range(int(sys.argv[5])):
    p = next(p for p in players if p["side"] == to_move)
    step = random.choice(legal)
    p["ws"].send({"t": "move", "game": p["game"], "ply": ply, "step": step, "ack": n + 1})
    event = p["ws"].recv()
    while event.get("t") != "step" or event["ply"] != ply:
        event = p["ws"].recv()
    print(ply, to_move, step, flush=True)
    legal, to_move, ply = event["legal"], event["to_move"], ply + 1
    time.sleep(2.5)
