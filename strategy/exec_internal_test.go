package strategy

import (
	"strings"
	"testing"
	"time"
)

// A bot that exited before a write is reported as exited, as when the read
// notices first, not as a broken pipe.
func TestExecWriteToExitedBot(t *testing.T) {
	b := &bot{command: "true"}
	if err := b.start(); err != nil {
		t.Skip("no true command:", err)
	}
	for range b.lines { // its output ends: it exited
	}
	// A process forked meanwhile (another test's bot) holds the pipe's
	// read end until it execs, so a write may still succeed: a few tries.
	var err error
	for try := 0; err == nil && try < 100; try++ {
		if try > 0 {
			time.Sleep(10 * time.Millisecond)
		}
		err = b.send(map[string]any{"type": "hello", "protocol": ProtocolVersion})
	}
	if err == nil {
		t.Fatal("every write to an exited bot succeeded")
	}
	b.sendFailed(0, 0, "handshake", err)
	if b.err == nil || !strings.Contains(b.err.Error(), "handshake: it exited") || strings.Contains(b.err.Error(), "pipe") {
		t.Errorf("error %v, want it to say the bot exited", b.err)
	}
}
