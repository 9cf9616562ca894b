package sim

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// FaultEnv names an environment variable that makes writes fail as on a
// full disk, to test that a failure leaves nothing that looks complete.
// Only tests use it. Its value is a comma-separated list of NAME or
// NAME@N: every write of a file named NAME (stats.json, summary.json,
// report.md, ...; "plots" for the plots; "records" for a batch or a
// segment of per-game records) fails, or with @N the N-th and
// every later one in the process.
const FaultEnv = "UNOSIM_FAIL_WRITE"

var (
	faultMu     sync.Mutex
	faultWrites = map[string]int{}
	faultValue  string // the value the counts are of: a new value starts afresh
)

// InjectedFault returns the error of a write of name that FaultEnv asks
// to fail, or nil.
func InjectedFault(name string) error {
	v := os.Getenv(FaultEnv)
	if v == "" {
		return nil
	}
	faultMu.Lock()
	defer faultMu.Unlock()
	if v != faultValue {
		faultValue, faultWrites = v, map[string]int{}
	}
	faultWrites[name]++
	for _, f := range strings.Split(v, ",") {
		n, at, _ := strings.Cut(f, "@")
		from, err := strconv.Atoi(at)
		if err != nil {
			from = 1
		}
		if n == name && faultWrites[name] >= from {
			return fmt.Errorf("%w (injected by %s)", syscall.ENOSPC, FaultEnv)
		}
	}
	return nil
}
