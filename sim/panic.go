package sim

import (
	"fmt"
	"runtime/debug"
)

// PanicError is a panic of a worker goroutine turned into an error. Go
// ends a program on an unrecovered panic with exit code 2, the code of bad
// input; recovered, it reaches the command, which exits 1 (a failure of the
// work) and prints the stack.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error (a bug in unosim; please report it with this message): panic: %v\n%s", e.Value, e.Stack)
}

// CatchPanic, deferred at the top of a goroutine that returns an error,
// turns a panic into a *PanicError in *err.
func CatchPanic(err *error) {
	if r := recover(); r != nil {
		*err = &PanicError{Value: r, Stack: debug.Stack()}
	}
}
