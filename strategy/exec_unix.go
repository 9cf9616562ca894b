//go:build unix

package strategy

import (
	"os/exec"
	"syscall"
)

// detach starts the bot in a process group of its own, so that the
// terminal's Ctrl-C reaches unosim alone: unosim stops cleanly and closes
// the bot's input, instead of the bot dying of the signal mid-game and the
// run failing on it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
