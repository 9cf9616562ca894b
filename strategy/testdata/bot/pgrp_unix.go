//go:build unix

package main

import (
	"os"
	"syscall"
)

// sharesGroup says whether the bot is in the process group of unosim.
func sharesGroup() bool {
	g, err := syscall.Getpgid(os.Getppid())
	return err == nil && g == syscall.Getpgrp()
}
