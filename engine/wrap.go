package engine

import (
	"strings"
	"unicode/utf8"
)

// WrapLines breaks every line of text longer than width columns at its
// spaces, each piece after the first under the line's own indent and two
// more, so that a report stays within its columns; a word longer than
// width stands on a line of its own. Lines that fit are left as they are.
func WrapLines(text string, width int) string {
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if utf8.RuneCountInString(l) <= width {
			out = append(out, l)
			continue
		}
		body := strings.TrimLeft(l, " ")
		indent := l[:len(l)-len(body)]
		line := indent
		for _, w := range strings.Fields(body) {
			switch {
			case strings.TrimSpace(line) == "":
				line += w
			case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width:
				out = append(out, line)
				line = indent + "  " + w
			default:
				line += " " + w
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
