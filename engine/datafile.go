package engine

import (
	"fmt"
	"io/fs"
	"strings"
)

// DataRows reads a data-pack file as the rulesets keep them: one record a
// line, fields separated by "|", blank lines and "#" comments skipped,
// fields trimmed. Every record must have cols fields (any number when cols
// is 0) and a non-empty last field, its source: a rule number or
// "reconstructed: why" (DESIGN.md: every datum carries its source). Errors
// name the file and the line.
func DataRows(fsys fs.FS, name string, cols int) ([][]string, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var out [][]string
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		if cols > 0 && len(f) != cols {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", name, i+1, len(f), cols)
		}
		for j := range f {
			f[j] = strings.TrimSpace(f[j])
		}
		if f[len(f)-1] == "" {
			return nil, fmt.Errorf("%s:%d: no source (the last field says where the datum comes from)", name, i+1)
		}
		out = append(out, f)
	}
	return out, nil
}
