#!/usr/bin/env python3
"""A unosim bot in Python (standard library only): it plays a uniformly
random legal move, drawn from the seed unosim gives each game and seat, so
its games are reproducible. Run it with

    unosim simulate --players 2 --strategy 'exec:python3 examples/randombot.py' --strategy random

The protocol is in docs/PROTOCOL.md: JSON lines on stdin and stdout.
"""
import json
import random
import sys


def main():
    rngs = {}  # one random stream per seat this process plays
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            reply({"type": "hello", "protocol": 1, "name": "randombot", "observe": False})
        elif kind == "begin":
            rngs[msg["seat"]] = random.Random(msg["seed"])
        elif kind == "decide":
            moves = msg["moves"]
            # A smarter bot would read msg["view"] (its hand, the top card,
            # every hand's size...) and the moves' "kind" and "card".
            reply({"move": rngs[msg["seat"]].randrange(len(moves))})


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
