package engine

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// Pack is a ruleset's data pack: the files under data/ of the file system
// it embeds (DESIGN.md: every datum carries its source). Every ruleset
// reads its data through one, and keeps what it loaded from it in one
// package variable, data.
type Pack struct {
	// Game names the ruleset, for errors.
	Game string
	// FS holds the pack's files as data/NAME.
	FS fs.FS
}

// Text is the data file name as text (a guide, a map drawn in letters).
func (p Pack) Text(name string) (string, error) {
	b, err := fs.ReadFile(p.FS, "data/"+name)
	if err != nil {
		return "", fmt.Errorf("%s: data pack: %w", p.Game, err)
	}
	return string(b), nil
}

// MustText is Text for a file the pack cannot lack: a missing one panics,
// which the ruleset's tests catch before any game runs.
func (p Pack) MustText(name string) string {
	s, err := p.Text(name)
	if err != nil {
		panic(err)
	}
	return s
}

// Rows reads the data file name as DataRows does.
func (p Pack) Rows(name string, cols int) ([][]string, error) {
	return DataRows(p.FS, "data/"+name, cols)
}

// Atoi is field f of a data file as a number; a field that is none
// panics (inside Load, an error naming the pack).
func (p Pack) Atoi(f string) int {
	n, err := strconv.Atoi(strings.TrimSpace(f))
	if err != nil {
		panic(fmt.Sprintf("%s: data pack: %q is not a number", p.Game, f))
	}
	return n
}

// Load runs load, a ruleset's reading of its pack, once at start-up: an
// error, or a panic inside load (a malformed datum), panics naming the
// pack; the ruleset's tests catch it before any game runs.
func Load[D any](p Pack, load func() (D, error)) D {
	d, err := load()
	if err != nil {
		panic(fmt.Sprintf("%s: data pack: %v", p.Game, err))
	}
	return d
}

// Rules reads the pack's rules listing, data/rules.txt: one rulebook
// section a line, "section | title | status | note | tests", the tests
// comma-separated; "-" for no note or no tests.
func (p Pack) Rules() ([]RuleStatus, error) {
	rows, err := p.Rows("rules.txt", 5)
	if err != nil {
		return nil, err
	}
	out := make([]RuleStatus, 0, len(rows))
	for _, f := range rows {
		r := RuleStatus{Section: f[0], Title: f[1], Status: f[2], Note: f[3]}
		if r.Note == "-" {
			r.Note = ""
		}
		if f[4] != "-" {
			r.Tests = strings.Split(f[4], ",")
		}
		out = append(out, r)
	}
	return out, nil
}

// MustRules is Rules for a pack that cannot lack its listing.
func (p Pack) MustRules() []RuleStatus {
	rs, err := p.Rules()
	if err != nil {
		panic(fmt.Sprintf("%s: data pack: %v", p.Game, err))
	}
	return rs
}

// DataRows reads a data-pack file as the rulesets keep them: one record a
// line, fields separated by "|" ("\|" is a "|" inside a field, "\\" a
// backslash), blank lines and "#" comments skipped, fields trimmed. Every
// record must have cols fields (any number when cols is 0) and a
// non-empty last field, its source: a rule number or "reconstructed: why"
// (DESIGN.md: every datum carries its source). Errors name the file and
// the line.
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
		f := splitFields(line)
		if cols > 0 && len(f) != cols {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", name, i+1, len(f), cols)
		}
		if f[len(f)-1] == "" {
			return nil, fmt.Errorf("%s:%d: no source (the last field says where the datum comes from)", name, i+1)
		}
		out = append(out, f)
	}
	return out, nil
}

// splitFields splits line at each "|" not escaped by a backslash, and
// trims the fields.
func splitFields(line string) []string {
	if !strings.Contains(line, `\`) {
		f := strings.Split(line, "|")
		for j := range f {
			f[j] = strings.TrimSpace(f[j])
		}
		return f
	}
	var f []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && i+1 < len(line) && (line[i+1] == '|' || line[i+1] == '\\'):
			cur.WriteByte(line[i+1])
			i++
		case c == '|':
			f = append(f, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(f, strings.TrimSpace(cur.String()))
}
