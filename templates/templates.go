// Package templates holds the text/template files of every message
// skagerrak sends: turn reports, order replies, reminders, notices and the
// final report. They are embedded in the binary; Render executes one.
//
// Templates receive plain data (strings, numbers, slices of strings) that
// the adjudicator prepares from a side's View only; they never see a game's
// full state.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"
	"time"
)

//go:embed *.tmpl
var files embed.FS

var set = template.Must(template.New("").Funcs(template.FuncMap{
	"time":   func(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 MST") },
	"join":   strings.Join,
	"indent": indent,
	"wrap":   func(s string) string { return Wrap(s, Width) },
}).ParseFS(files, "*.tmpl"))

// Width is the column width of every mail: 72 reads well in any client.
const Width = 72

// Wrap breaks every line of s longer than width at its last space that
// fits, continuing with the line's own indent plus four spaces. Lines
// without a space to break at are left whole.
func Wrap(s string, width int) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		indent := strings.Repeat(" ", len(line)-len(strings.TrimLeft(line, " ")))
		// A cut leaves text before it: past the indent, and on a
		// continuation past its four spaces too (a word too long for the
		// line stays whole rather than being cut at the indent forever).
		start := len(indent)
		for len([]rune(line)) > width {
			r := []rune(line)
			cut := -1
			for i := width; i > start; i-- {
				if r[i] == ' ' {
					cut = i
					break
				}
			}
			if cut < 0 {
				break
			}
			out = append(out, strings.TrimRight(string(r[:cut]), " "))
			line = indent + "    " + strings.TrimLeft(string(r[cut:]), " ")
			start = len(indent) + 4
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// Render executes the named template ("report.tmpl", ...) with data.
func Render(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := set.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("templates: %w", err)
	}
	return b.String(), nil
}

// Names lists the templates.
func Names() []string {
	var out []string
	for _, t := range set.Templates() {
		if t.Name() != "" {
			out = append(out, t.Name())
		}
	}
	return out
}

func indent(n int, s string) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}
