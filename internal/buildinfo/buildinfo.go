// Package buildinfo names the build that runs: a game records the build
// that created it, verify says which build checked it, and version prints
// it.
package buildinfo

import "runtime/debug"

// Software names this build: the module version and, where the build
// recorded it, the VCS revision ("(devel) 0123456789ab+dirty").
func Software() string {
	v := "(devel)"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v = bi.Main.Version
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "+dirty"
		}
	}
	return v
}
