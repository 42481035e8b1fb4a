package adjudicator

import (
	"strings"

	"skagerrak/engine"
)

// playerFile is what a player's signed text holds: mail commands at its
// top (see PlayerCommands), then, when it has header lines, an order file.
// A reply that quotes the form (each line starting with ">", "> " or
// "> > ") is read without the quote marks, from its quoted Game: line on.
// Lines are never removed, only blanked, so that line numbers in errors
// are those of the text as sent.
type playerFile struct {
	engine.OrderFile
	// Commands are the command lines at the top of the text.
	Commands []engine.OrderLine
	// Header says the text has a Phase: line after its commands (an
	// order file follows them; a Game: line alone only names the game the
	// commands are for); Err is the order file's error.
	Header bool
	Err    error
	// Quoted says the order file was read without its quote marks;
	// Skipped counts the lines above its quoted Game: line, not read.
	Quoted  bool
	Skipped int
	// Other counts the lines after the commands that are neither header
	// nor read (text without header lines under the commands).
	Other int
	// QuoteEnds are the lines (counted from 1) where the quoted form's
	// text may end, in order: each the last line before a break (blank
	// lines without a quote mark) that more text follows. What follows
	// the last may be the rest of the mail the player answered, which a
	// mail client quotes too (mutt quotes the guide attached to the first
	// report after the report's text). See Game.parseSubmitted.
	QuoteEnds []int
}

// readPlayerFile reads a player's signed text (see playerFile).
func readPlayerFile(text string) playerFile {
	var p playerFile
	text = strings.TrimPrefix(text, "\ufeff")
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	p.Commands = topCommands(lines)
	for _, c := range p.Commands {
		lines[c.N-1] = ""
	}
	rest := strings.Join(lines, "\n")
	f, err := engine.ParseOrderFile(rest)
	if err != nil && len(lines) <= engine.MaxOrderFileLines {
		if un, skipped, start, ok := unquote(lines); ok {
			if g, err2 := engine.ParseOrderFile(un); err2 == nil {
				f, err, p.Quoted, p.Skipped = g, nil, true, skipped
				p.QuoteEnds = quoteEnds(lines, start)
			}
		}
	}
	p.OrderFile, p.Err = f, err
	for _, l := range lines {
		t := strings.TrimSpace(unquoteLine(l))
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		switch headerKey(t) {
		case "phase":
			p.Header = true
		case "":
			p.Other++
		}
	}
	return p
}

// readOrderFile reads the order file of a player's signed text: its
// header and body, commands above it and quote marks left out.
func readOrderFile(text string) (engine.OrderFile, error) {
	p := readPlayerFile(text)
	return p.OrderFile, p.Err
}

// topCommands returns the command lines at the top of a text: each line,
// before any other that is not blank or a comment, whose first word is a
// player's command.
func topCommands(lines []string) []engine.OrderLine {
	var out []engine.OrderLine
	for i, raw := range lines {
		ls := engine.OrderLines(raw)
		if len(ls) == 0 {
			continue
		}
		l := ls[0]
		if _, ok := playerCommands[strings.ToLower(l.Fields[0])]; !ok || len(out) == MaxCommandsPerMail {
			break
		}
		l.N = i + 1
		out = append(out, l)
	}
	return out
}

// headerKey returns "game", "phase" or "side" for a header line, else "".
func headerKey(line string) string {
	key, _, ok := strings.Cut(line, ":")
	k := strings.ToLower(strings.TrimSpace(key))
	if ok && (k == "game" || k == "phase" || k == "side") {
		return k
	}
	return ""
}

// unquoteLine drops a line's quote marks: leading blanks and any run of
// ">" each followed by at most one blank.
func unquoteLine(l string) string {
	t := strings.TrimLeft(l, " \t")
	if !strings.HasPrefix(t, ">") {
		return l
	}
	for strings.HasPrefix(t, ">") {
		t = strings.TrimPrefix(t, ">")
		if strings.HasPrefix(t, " ") || strings.HasPrefix(t, "\t") {
			t = t[1:]
		}
	}
	return t
}

// unquote reads a quoted form: the lines from the first quoted Game: line
// on, each without its quote marks, and the lines above it blanked (the
// reply's own words and the quoted report). ok is false when no quoted
// line is a Game: line.
func unquote(lines []string) (text string, skipped, start int, ok bool) {
	start = -1
	for i, l := range lines {
		if u := unquoteLine(l); u != l && headerKey(strings.TrimSpace(u)) == "game" {
			start = i
			break
		}
	}
	if start < 0 {
		return "", 0, 0, false
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if i < start {
			if t := strings.TrimSpace(l); t != "" {
				skipped++
			}
			continue
		}
		out[i] = unquoteLine(l)
	}
	return strings.Join(out, "\n"), skipped, start, true
}

// MaxQuoteEnds bounds the places where a quoted form's text is tried as
// ending (see Game.parseSubmitted): the last ones of the text.
const MaxQuoteEnds = 8

// quoteEnds returns the numbers (from 1) of the lines after the quote
// that begins at index start where its text may end (see
// playerFile.QuoteEnds), the last MaxQuoteEnds of them.
func quoteEnds(lines []string, start int) []int {
	var ends []int
	for i := start + 1; i < len(lines); i++ {
		if !unquotedBlank(lines[i]) || unquotedBlank(lines[i-1]) || linesAfter(lines, i) == 0 {
			continue
		}
		ends = append(ends, i)
	}
	return ends[max(0, len(ends)-MaxQuoteEnds):]
}

// unquotedBlank reports whether a line is blank and has no quote mark.
func unquotedBlank(l string) bool {
	return strings.TrimSpace(l) == "" && unquoteLine(l) == l
}

// linesAfter counts the lines after the first n that are not blank.
func linesAfter(lines []string, n int) int {
	c := 0
	for _, l := range lines[min(n, len(lines)):] {
		if strings.TrimSpace(l) != "" {
			c++
		}
	}
	return c
}

// cutAfter blanks every line of text after its first n, keeping the
// line count (and so the line numbers of errors) as sent.
func cutAfter(text string, n int) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := n; i < len(lines); i++ {
		lines[i] = ""
	}
	return strings.Join(lines, "\n")
}

// readOrderFileTo is readOrderFile of the text's first readTo lines, or
// of all of it when readTo is 0 (see OrdersAccepted.ReadTo).
func readOrderFileTo(text string, readTo int) (engine.OrderFile, error) {
	if readTo > 0 {
		text = cutAfter(text, readTo)
	}
	return readOrderFile(text)
}

// parseSubmitted validates the orders of a player's file for side. When
// the file as read has errors and is a quoted form with more text after a
// break in the quote (see playerFile.QuoteEnds), it is read to each place
// it may end, the last first, and the first reading without errors
// counts: a player who answered the first report with mutt has the guide
// quoted after the form, and its lines are no orders. readTo is the last
// line read then (OrdersAccepted.ReadTo), else 0; errs are those of the
// file as read.
func (g *Game) parseSubmitted(side engine.Side, text string, p playerFile) (orders engine.Orders, errs []engine.LineError, readTo int) {
	orders, errs = g.Rules.ParseOrders(g.State, side, p.Body)
	if len(errs) == 0 {
		return orders, errs, 0
	}
	for i := len(p.QuoteEnds) - 1; i >= 0; i-- {
		end := p.QuoteEnds[i]
		c := readPlayerFile(cutAfter(text, end))
		if c.Err != nil || c.Game != p.Game || c.Phase != p.Phase || c.Side != p.Side {
			continue
		}
		if o, e := g.Rules.ParseOrders(g.State, side, c.Body); len(e) == 0 {
			return o, nil, end
		}
	}
	return orders, errs, 0
}
