// Command bot is a test bot for the external protocol (docs/PROTOCOL.md):
// it plays a uniformly random move drawn from the seed it is given. Its
// first argument selects a fault to test (at the 20th decision, or at the
// N-th with MODE=N): crash, hang, garbage, illegal,
// closeout (closes its standard output and keeps running), huge (a line
// longer than 1 MB), twice (two answers to one decision),
// badhello, oldhello; pgrp fails if it shares unosim's
// process group; with "observe" it asks for the
// event feed, counts it and checks that only events with a card or a color
// carry one.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	mode, at := "", 20 // the fault comes at decision at (mode=N: at N)
	if len(os.Args) > 1 {
		mode = os.Args[1]
		if m, n, ok := strings.Cut(mode, "="); ok {
			mode = m
			at, _ = strconv.Atoi(n)
		}
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	say := func(v any) {
		data, _ := json.Marshal(v)
		out.Write(data)
		out.WriteByte('\n')
		out.Flush()
	}
	rngs := map[int]*rand.Rand{}
	decisions, events := 0, 0
	for in.Scan() {
		var msg struct {
			Type  string            `json:"type"`
			Seat  int               `json:"seat"`
			Seed  uint64            `json:"seed"`
			Moves []json.RawMessage `json:"moves"`
		}
		if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
			fmt.Fprintln(os.Stderr, "bad line:", err)
			os.Exit(3)
		}
		switch msg.Type {
		case "hello":
			if mode == "pgrp" && sharesGroup() {
				fmt.Fprintln(os.Stderr, "testbot: in unosim's process group: a Ctrl-C would kill it too")
				os.Exit(7)
			}
			if mode == "badhello" {
				say(map[string]any{"type": "hello", "protocol": 99})
				continue
			}
			if mode == "oldhello" {
				say(map[string]any{"type": "hello", "protocol": 0})
				continue
			}
			say(map[string]any{"type": "hello", "protocol": 1, "observe": mode == "observe", "name": "testbot"})
		case "begin":
			rngs[msg.Seat] = rand.New(rand.NewPCG(msg.Seed, 1))
		case "event":
			events++
			if mode == "observe" {
				var e struct {
					Event map[string]any `json:"event"`
				}
				json.Unmarshal(in.Bytes(), &e)
				kind, _ := e.Event["kind"].(string)
				if _, ok := e.Event["card"]; ok != cardEvents[kind] {
					fmt.Fprintf(os.Stderr, "testbot: event %s: card present %v: %s\n", kind, ok, in.Bytes())
					os.Exit(6)
				}
				if _, ok := e.Event["color"]; ok != (kind == "color" || kind == "pile-start") {
					fmt.Fprintf(os.Stderr, "testbot: event %s: color present %v: %s\n", kind, ok, in.Bytes())
					os.Exit(6)
				}
			}
		case "decide":
			decisions++
			if decisions == at {
				switch mode {
				case "crash":
					fmt.Fprintln(os.Stderr, "testbot: crashing on purpose")
					os.Exit(4)
				case "hang":
					time.Sleep(time.Hour)
				case "garbage":
					fmt.Fprintln(out, "what is this")
					out.Flush()
					continue
				case "illegal":
					say(map[string]any{"move": len(msg.Moves)})
					continue
				case "closeout":
					os.Stdout.Close()
					time.Sleep(time.Hour)
				case "twice": // two answers in one write: the second answers nothing
					fmt.Fprintf(out, "{\"move\":0}\n{\"move\":0}\n")
					out.Flush()
					continue
				case "huge":
					say(map[string]any{"move": 0, "pad": strings.Repeat("x", 2<<20)})
					continue
				}
			}
			if mode == "observe" && events == 0 {
				fmt.Fprintln(os.Stderr, "testbot: no events before a decision")
				os.Exit(5)
			}
			say(map[string]any{"move": rngs[msg.Seat].IntN(len(msg.Moves))})
		}
	}
}

// cardEvents are the kinds of event that carry a card (docs/PROTOCOL.md).
var cardEvents = map[string]bool{"start-card": true, "play": true, "draw-card": true, "stack": true,
	"deflect": true, "jump-in": true, "pile-flip": true, "pile": true}
