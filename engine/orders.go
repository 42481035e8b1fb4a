package engine

import (
	"fmt"
	"strings"
)

// OrderFile is an order file split into its header and its order lines.
//
// An order file is plain UTF-8 text. It starts with header lines
// "Game: ID", "Phase: ID" and "Side: NAME" (any order, any case for the
// keys); every other non-blank line that is not a "#" comment is an order.
// An optional "Game-Id: ID" header names which game of that name the file
// is for (the host's order form carries it).
type OrderFile struct {
	Game  string
	Phase string
	Side  Side
	// GameID is the Game-Id: header, "" when the file has none.
	GameID string
	// Body is the whole text with the header lines blanked, so that line
	// numbers in a ruleset's errors are line numbers of the file.
	Body string
}

// Limits on order files (DESIGN.md: bounded everything).
const (
	MaxOrderFileBytes = 256 << 10
	MaxOrderFileLines = 4000
)

// ParseOrderFile reads the header of an order file. A missing or repeated
// header, or an unknown "Key:" line before the first order, is an error
// naming the line.
func ParseOrderFile(text string) (OrderFile, error) {
	var f OrderFile
	if len(text) > MaxOrderFileBytes {
		return f, fmt.Errorf("order file is %d bytes; the limit is %d", len(text), MaxOrderFileBytes)
	}
	text = strings.TrimPrefix(text, "\ufeff")
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) > MaxOrderFileLines {
		return f, fmt.Errorf("order file has %d lines; the limit is %d", len(lines), MaxOrderFileLines)
	}
	seen := map[string]int{}
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		k := strings.ToLower(strings.TrimSpace(key))
		if !ok || (k != "game" && k != "phase" && k != "side" && k != "game-id") {
			continue
		}
		if prev, dup := seen[k]; dup {
			return f, fmt.Errorf("line %d: second %s: header (the first is on line %d)", i+1, key, prev)
		}
		seen[k] = i + 1
		val = strings.TrimSpace(val)
		switch k {
		case "game":
			f.Game = val
		case "phase":
			f.Phase = val
		case "side":
			f.Side = Side(strings.ToLower(val))
		case "game-id":
			f.GameID = strings.ToLower(val)
		}
		lines[i] = ""
	}
	for _, k := range []string{"game", "phase", "side"} {
		if _, ok := seen[k]; !ok {
			return f, fmt.Errorf("no %s: header line (an order file starts with Game:, Phase: and Side: lines)", strings.ToUpper(k[:1])+k[1:])
		}
	}
	f.Body = strings.Join(lines, "\n")
	return f, nil
}

// OrderLine is one order of an order file.
type OrderLine struct {
	// N is the 1-based line number in the file.
	N int
	// Text is the line without its comment, trimmed.
	Text string
	// Fields are Text's whitespace-separated words.
	Fields []string
}

// OrderLines returns the order lines of body: blank lines and "#" comments
// (whole-line or trailing) are skipped.
func OrderLines(body string) []OrderLine {
	var out []OrderLine
	for i, raw := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		if j := strings.IndexByte(raw, '#'); j >= 0 {
			raw = raw[:j]
		}
		t := strings.TrimSpace(raw)
		if t == "" {
			continue
		}
		out = append(out, OrderLine{N: i + 1, Text: t, Fields: strings.Fields(t)})
	}
	return out
}

// Errorf builds a LineError for an order line.
func (l OrderLine) Errorf(rule, valid, format string, args ...any) LineError {
	return LineError{Line: l.N, Text: l.Text, Rule: rule, Msg: fmt.Sprintf(format, args...), Valid: valid}
}

// WithoutFailed is lines less those errs name (LineError.Line counts
// from 1): what a scripted player keeps of its orders once the parser
// refused some. It is nil when no line is left.
func WithoutFailed(lines []string, errs []LineError) []string {
	bad := map[int]bool{}
	for _, e := range errs {
		bad[e.Line] = true
	}
	var keep []string
	for i, l := range lines {
		if !bad[i+1] {
			keep = append(keep, l)
		}
	}
	return keep
}
