#!/usr/bin/env python3
"""A unosim bot in Python (standard library only) that answers every kind of
decision of docs/PROTOCOL.md by a simple rule: it plays a card of the
current color first (actions before numbers), wilds last; names its most
common color; never challenges; always calls UNO and catches; stacks and
deflects rather than accepting; jumps in; targets and points at the player
with the fewest cards; links the two opponents with the most. Run it with

    unosim simulate --players 4 --rules party --strategy 'exec:python3 examples/simplebot.py' --strategy heuristic --seats rotate
"""
import json
import random
import sys

COLORS = ("red", "yellow", "green", "blue")


def color_of(card):
    c = card.split("-", 1)[0]
    return c if c in COLORS else None


def symbol_of(card):
    return card.split("-", 1)[1] if color_of(card) else card


def best_color(hand):
    counts = {c: 0 for c in COLORS}
    for card in hand:
        c = color_of(card)
        if c:
            counts[c] += 1
    return max(COLORS, key=lambda c: counts[c])


def choose(msg, rng):
    d, view, moves = msg["decision"], msg["view"], msg["moves"]
    me, hand = view["seat"], view["hand"]
    kinds = [m["kind"] for m in moves]

    def first(kind):
        return kinds.index(kind) if kind in kinds else None

    def play_score(card):
        # prefer the current color, then actions, then keep wilds for last
        c = color_of(card)
        if c is None:
            return 0 if card == "wild-draw-four" else 1
        s = 10 if c == view["color"] else 5
        if not symbol_of(card).isdigit():
            s += 2
        return s

    if d in ("turn", "drawn", "pile-up"):
        plays = [i for i, m in enumerate(moves) if m["kind"] == "play"]
        if plays:
            return max(plays, key=lambda i: play_score(moves[i]["card"]))
        for k in ("draw", "keep"):
            if first(k) is not None:
                return first(k)
        return 0
    if d == "color":
        want = best_color(hand)
        for i, m in enumerate(moves):
            if m.get("color") == want:
                return i
        return 0
    if d == "call-uno":
        return first("uno") if first("uno") is not None else 0
    if d == "catch":
        return first("catch") if first("catch") is not None else 0
    if d == "respond":
        for k in ("stack", "deflect", "accept"):
            if first(k) is not None:
                return first(k)
        return 0  # never challenge
    if d == "jump-in":
        return first("jump") if first("jump") is not None else 0
    if d in ("target", "point"):
        return min(range(len(moves)),
                   key=lambda i: (moves[i]["player"] == me, view["hand_sizes"][moves[i]["player"]]))
    if d == "link":
        # link the two opponents with the most cards, never myself
        def key(i):
            ps = moves[i]["players"]
            return (me in ps, -sum(view["hand_sizes"][p] for p in ps))
        return min(range(len(moves)), key=key)
    if "--strict" in sys.argv:  # the tests: every decision must be known
        sys.exit("simplebot: unknown decision %r" % d)
    sys.stderr.write("simplebot: unknown decision %r, random move\n" % d)
    return rng.randrange(len(moves))


def main():
    rngs = {}
    for line in sys.stdin:
        msg = json.loads(line)
        t = msg["type"]
        if t == "hello":
            if msg.get("protocol") != 1:
                sys.stderr.write("simplebot: protocol %r unknown\n" % msg.get("protocol"))
            reply({"type": "hello", "protocol": 1, "name": "simplebot", "observe": False})
        elif t == "begin":
            rngs[msg["seat"]] = random.Random(msg["seed"])
        elif t == "decide":
            rng = rngs.setdefault(msg["seat"], random.Random(0))
            reply({"move": choose(msg, rng)})


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
