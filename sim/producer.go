package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// Producer names the program that made a record: merging the games of two
// builds would mix two sets of rules or strategies, so every record carries
// it and a merge compares it.
type Producer struct {
	Tool      string `json:"tool"`
	Version   string `json:"version"`
	Build     string `json:"build"` // vcs:REVISION[+modified], or mod:VERSION+sha256:HASH of the executable
	GoVersion string `json:"go_version"`
}

func (p Producer) String() string {
	if p == (Producer{}) {
		return "an unknown build (a record written before builds were recorded)"
	}
	return fmt.Sprintf("%s %s build %s (%s)", p.Tool, p.Version, p.Build, p.GoVersion)
}

// FakeBuildEnv names the environment variable that replaces the build of
// this executable in the records it writes. Only tests use it, to make
// records that look like another build's without building twice.
const FakeBuildEnv = "UNOSIM_FAKE_BUILD"

var (
	buildOnce sync.Once
	buildID   string
)

// ThisBuild is the producer of the records this executable writes, with
// the tool's version. The build is the VCS revision when the binary
// carries one; builds made with -buildvcs=false (as on these machines) get
// the main module's version and the SHA-256 of the executable instead.
func ThisBuild(version string) Producer {
	buildOnce.Do(func() { buildID = readBuild() })
	b := buildID
	if fake := os.Getenv(FakeBuildEnv); fake != "" {
		b = fake
	}
	return Producer{Tool: "unosim", Version: version, Build: b, GoVersion: runtime.Version()}
}

func readBuild() string {
	modVersion := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		modVersion = bi.Main.Version
		rev, modified := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" {
			if modified {
				// A dirty tree is not the revision: add the binary's hash.
				return "vcs:" + rev + "+modified+sha256:" + exeHash()
			}
			return "vcs:" + rev
		}
	}
	return "mod:" + modVersion + "+sha256:" + exeHash()
}

// exeHash is the first 16 hex digits of the SHA-256 of the running
// executable ("unknown" when it cannot be read).
func exeHash() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
