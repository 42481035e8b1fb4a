package engine

import (
	"fmt"
	"strings"
)

// Verb is one order a ruleset's parser takes, declared as data: the
// parser's "valid:" hints list the verbs of the open phase from it, and
// the player's guide prints its syntax from it, so neither can drift from
// the other. (A later shared driver may add each verb's parse function.)
type Verb struct {
	// Name is the word an order line starts with, lower case.
	Name string
	// Aliases are other words the parser takes for Name.
	Aliases []string
	// Rule is the rulebook section the order carries out.
	Rule string
	// Usage is the order's syntax, e.g. "move UNIT HEX [HEX ...]".
	Usage string
	// Args explains the capitalised words of Usage, in order.
	Args []Arg
	// Words is how many words the order takes after its verb, which the
	// driver checks before the verb's function reads them; the zero
	// Words checks nothing (an order whose names may hold spaces).
	Words Count
	// Doc says in one sentence what the order does.
	Doc string
	// Phases are the kinds of phase that allow the order (the ruleset's
	// own names, e.g. "movement"); empty means every phase with orders.
	Phases []string
	// Sides are the sides that may give it; empty means every side.
	Sides []Side
	// Since is the named rules change that brought the order in; the
	// zero Change is in every revision.
	Since Change
	// Example is one order line that the parser accepts.
	Example Example
}

// Arg is one argument of a verb's usage.
type Arg struct {
	Name string
	Doc  string
}

// Example is an order line and where it is valid: a side's orders in the
// phase with this ID of the ruleset's default scenario, as its scripted
// game reaches it (or as a test sets it up, when Setup names how).
type Example struct {
	Phase string
	Side  Side
	// Line is the order line; an order that needs others with it (an
	// attack with the move it belongs to) gives them all, one a line.
	Line string
	// Setup says in words what the example needs beyond the phase, for
	// examples a test builds its own state for; "" for none.
	Setup string
}

// Many is a Count's Max with no limit.
const Many = -1

// Count bounds how many words an order line has after its verb; make one
// with Takes.
type Count struct {
	min, max int
	set      bool
}

// Takes is a Count of at least min and at most max words (max Many: no
// limit).
func Takes(min, max int) Count { return Count{min: min, max: max, set: true} }

// Checked reports whether c bounds anything (the zero Count does not).
func (c Count) Checked() bool { return c.set }

// Allows reports whether n words after the verb are within c.
func (c Count) Allows(n int) bool {
	return !c.set || n >= c.min && (c.max == Many || n <= c.max)
}

// String says c in words: "no words", "1 word", "2 or 3 words", "1 to 3
// words", "at least 2 words".
func (c Count) String() string {
	words := func(n int) string {
		if n == 1 {
			return "1 word"
		}
		return fmt.Sprintf("%d words", n)
	}
	switch {
	case c.max == Many && c.min == 0:
		return "any number of words"
	case c.max == Many:
		return "at least " + words(c.min)
	case c.min == c.max && c.min == 0:
		return "no words"
	case c.min == c.max:
		return words(c.min)
	case c.max == c.min+1:
		return fmt.Sprintf("%d or %s", c.min, words(c.max))
	}
	return fmt.Sprintf("%d to %s", c.min, words(c.max))
}

// Verbs is a ruleset's table of orders, in the order its guide lists them.
type Verbs []Verb

// Lookup finds the verb word names, by name or alias, in any case.
func (vs Verbs) Lookup(word string) (Verb, bool) {
	w := strings.ToLower(word)
	for _, v := range vs {
		if v.Name == w || containsString(v.Aliases, w) {
			return v, true
		}
	}
	return Verb{}, false
}

// Allows reports whether v may be given by side in a phase of kind phase
// under rules revision rev. An empty phase or side matches any.
func (v Verb) Allows(phase string, side Side, rev int) bool {
	if int(v.Since.In) > rev && rev > 0 {
		return false
	}
	if phase != "" && len(v.Phases) > 0 && !containsString(v.Phases, phase) {
		return false
	}
	if side != "" && len(v.Sides) > 0 {
		for _, s := range v.Sides {
			if s == side {
				return true
			}
		}
		return false
	}
	return true
}

// Closed says why v is no order of a phase whose kind its Phases leave
// out, or of a game of rules revision rev before v came in: the
// message of a refusal of word, the verb as the line wrote it.
func (v Verb) Closed(word string, rev int) string {
	if int(v.Since.In) > rev && rev > 0 {
		return fmt.Sprintf("%q is an order from rules revision %d; this game plays revision %d", word, v.Since.In, rev)
	}
	return fmt.Sprintf("%q is not an order of this phase, only of: %s", word, strings.Join(v.Phases, ", "))
}

// In is the verbs of the table that a phase of one of the kinds phases
// allows (those with no Phases too), in table order: the part of a table
// that one parser reads.
func (vs Verbs) In(phases ...string) Verbs {
	var out Verbs
	for _, v := range vs {
		in := len(v.Phases) == 0
		for _, ph := range phases {
			in = in || containsString(v.Phases, ph)
		}
		if in {
			out = append(out, v)
		}
	}
	return out
}

// Names lists the names of the verbs side may give in a phase of kind
// phase under revision rev, in table order (see Allows).
func (vs Verbs) Names(phase string, side Side, rev int) []string {
	var out []string
	for _, v := range vs {
		if v.Allows(phase, side, rev) {
			out = append(out, v.Name)
		}
	}
	return out
}

// Valid is Names joined for an error's "valid:" hint.
func (vs Verbs) Valid(phase string, side Side, rev int) string {
	return strings.Join(vs.Names(phase, side, rev), ", ")
}

// Syntax writes the guide's order syntax section: every verb with its
// usage, arguments, rule, phases, sides and example.
func (vs Verbs) Syntax() string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "%s\n", v.Usage)
		if v.Doc != "" {
			for _, l := range wrapWords(v.Doc, 68) {
				fmt.Fprintf(&b, "    %s\n", l)
			}
		}
		for _, a := range v.Args {
			for i, l := range wrapWords(a.Doc, 57) {
				name := a.Name
				if i > 0 {
					name = ""
				}
				fmt.Fprintf(&b, "    %-10s %s\n", name, l)
			}
		}
		var facts []string
		if v.Rule != "" {
			facts = append(facts, "rule "+v.Rule)
		}
		if len(v.Phases) > 0 {
			facts = append(facts, "phases: "+strings.Join(v.Phases, ", "))
		}
		if len(v.Sides) > 0 {
			var ss []string
			for _, s := range v.Sides {
				ss = append(ss, string(s))
			}
			facts = append(facts, "sides: "+strings.Join(ss, ", "))
		}
		if len(v.Aliases) > 0 {
			facts = append(facts, "also written: "+strings.Join(v.Aliases, ", "))
		}
		if v.Since.In > 0 {
			facts = append(facts, fmt.Sprintf("from rules revision %d", v.Since.In))
		}
		if len(facts) > 0 {
			for _, l := range wrapWords("("+strings.Join(facts, "; ")+")", 68) {
				fmt.Fprintf(&b, "    %s\n", l)
			}
		}
		when := ""
		if v.Example.Setup != "" {
			when = ", " + v.Example.Setup
		}
		fmt.Fprintf(&b, "    Example (%s, phase %s%s):\n", v.Example.Side, v.Example.Phase, when)
		for _, l := range strings.Split(v.Example.Line, "\n") {
			fmt.Fprintf(&b, "        %s\n", l)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// GuidePointer is what an order form says of the guide: a player gets it
// by mailing the judge "help".
const GuidePointer = `mail "help" for the guide`

// Summary is an order form's summary of the orders side may give in a
// phase of kind phase under revision rev (see SummaryOf).
func (vs Verbs) Summary(phase string, side Side, rev int) string {
	return vs.SummaryOf(vs.Names(phase, side, rev))
}

// SummaryOf is an order form's summary of the named verbs: their usages,
// as "#" comment lines of about 72 columns (a usage is never split), so
// that the form cannot drift from the parser or the guide.
func (vs Verbs) SummaryOf(names []string) string {
	var usages []string
	for _, n := range names {
		if v, ok := vs.Lookup(n); ok {
			usages = append(usages, v.Usage)
		}
	}
	var b strings.Builder
	line := ""
	for _, u := range usages {
		if line != "" && len([]rune(line))+3+len([]rune(u)) > 70 {
			b.WriteString("# " + line + "\n")
			line = ""
		}
		if line != "" {
			line += " | "
		}
		line += u
	}
	if line != "" {
		b.WriteString("# " + line + "\n")
	}
	return b.String()
}

// OrdersMarker is the line of a guide's prose that the order syntax
// section replaces (see WriteGuide).
const OrdersMarker = "{{orders}}"

// WriteGuide is a ruleset's player's guide: its prose with the line
// OrdersMarker replaced by the verbs' syntax section. Prose without the
// marker gets the section at its end.
func WriteGuide(prose string, vs Verbs) string {
	syntax := strings.TrimRight(vs.Syntax(), "\n") + "\n"
	if i := strings.Index(prose, OrdersMarker+"\n"); i >= 0 {
		return prose[:i] + syntax + prose[i+len(OrdersMarker)+1:]
	}
	return strings.TrimRight(prose, "\n") + "\n\n" + syntax
}

// wrapWords folds text into lines of at most width letters, between words.
func wrapWords(text string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
