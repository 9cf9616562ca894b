package strategy

import (
	"strings"
	"testing"
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
	err := b.send(map[string]any{"type": "hello", "protocol": ProtocolVersion})
	if err == nil {
		t.Fatal("a write to an exited bot succeeded")
	}
	b.sendFailed(0, 0, "handshake", err)
	if b.err == nil || !strings.Contains(b.err.Error(), "handshake: it exited") || strings.Contains(b.err.Error(), "pipe") {
		t.Errorf("error %v, want it to say the bot exited", b.err)
	}
}
