//go:build !unix

package strategy

import "os/exec"

func detach(*exec.Cmd) {}
