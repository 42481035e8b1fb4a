package engine

import (
	"fmt"
	"sort"
	"strings"
)

// VerbFunc parses one order line of a verb into the parser p: args are
// the line's words after the verb. It records its own errors in p.
type VerbFunc[P any] func(p P, l OrderLine, args []string)

// Driver binds a ruleset's verb table to the small functions that parse
// each verb, and does what every parser does with an order line: find
// its verb (by name or alias, in any case), ask whether the open phase
// allows it, check its count of words against the table, and call the
// verb's function. The refusals of an unknown or closed verb carry the
// "valid:" hint it draws from the table; the ruleset words them.
type Driver[P any] struct {
	// Verbs is the ruleset's table.
	Verbs Verbs
	// Funcs parses each verb of the table, by its Name.
	Funcs map[string]VerbFunc[P]
	// Open reports whether p's open phase takes verb v; nil takes every
	// verb of the table.
	Open func(p P, v Verb) bool
	// Valid lists the verbs p's player may give in the open phase, in
	// table order, for the refusals' hints; nil lists those Open takes.
	Valid func(p P) []string
	// Unknown records the error for a line whose first word is no verb;
	// valid is the hint: the nearest verbs of the open phase, and all of
	// them.
	Unknown func(p P, l OrderLine, valid string)
	// Closed records the error for a verb that Open refuses; valid lists
	// the verbs of the open phase.
	Closed func(p P, l OrderLine, v Verb, valid string)
	// Refuse records an error the driver finds itself: a line with fewer
	// or more words than its verb's Words.
	Refuse func(p P, e LineError)
}

// Line dispatches one order line (with at least one word) to its verb's
// function, or to Unknown, Closed or Refuse. It reports the verb it
// found and whether its function read the line.
func (d Driver[P]) Line(p P, l OrderLine) (Verb, bool) {
	v, ok := d.Verbs.Lookup(l.Fields[0])
	if !ok {
		d.Unknown(p, l, Suggest(l.Fields[0], d.valid(p)))
		return Verb{}, false
	}
	if d.Open != nil && !d.Open(p, v) {
		d.Closed(p, l, v, CutList(d.valid(p), 0))
		return v, false
	}
	f, ok := d.Funcs[v.Name]
	if !ok {
		// Check finds this in the ruleset's tests; a player meets it as
		// an unknown order rather than as silence.
		d.Unknown(p, l, Suggest(l.Fields[0], d.valid(p)))
		return v, false
	}
	if !v.Words.Allows(len(l.Fields) - 1) {
		d.Refuse(p, WrongCount(l, v))
		return v, false
	}
	f(p, l, l.Fields[1:])
	return v, true
}

// valid lists the verbs p's player may give in the open phase (Valid, or
// the verbs Open takes).
func (d Driver[P]) valid(p P) []string {
	if d.Valid != nil {
		return d.Valid(p)
	}
	var names []string
	for _, v := range d.Verbs {
		if d.Open == nil || d.Open(p, v) {
			names = append(names, v.Name)
		}
	}
	return names
}

// WrongCount is the refusal of line l, whose words after the verb v's
// Words refuses: the count it takes, with its usage (unless that is the
// bare verb), and the line's; the verb's rule; and for valid the table's
// example of it (an order line the parser takes), or its usage.
func WrongCount(l OrderLine, v Verb) LineError {
	verb := strings.ToLower(l.Fields[0])
	valid := v.exampleLine()
	if valid == "" {
		valid = v.Usage
	}
	usage := ""
	if v.Usage != v.Name {
		usage = " (" + v.Usage + ")"
	}
	return l.Errorf(v.Rule, valid, "%s takes %s after it%s; this line has %d", verb, v.Words, usage, len(l.Fields)-1)
}

// exampleLine is the line of v's example that gives v (an example may
// give other orders with it), or "".
func (v Verb) exampleLine() string {
	for _, l := range strings.Split(v.Example.Line, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && (strings.EqualFold(f[0], v.Name) || containsString(v.Aliases, strings.ToLower(f[0]))) {
			return l
		}
	}
	return ""
}

// Check reports a table and a parser that have drifted apart: a verb of
// the table with no function, a function for no verb of the table, a
// name given twice, a refusal left unset, or a verb whose example (the
// hint of its wrong-count refusal) has a count its Words refuses. Each
// ruleset's tests call it.
func (d Driver[P]) Check() error {
	probs := append(d.checkRefusals(), d.checkVerbs()...)
	var names []string
	for n := range d.Funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		found := false
		for _, v := range d.Verbs {
			found = found || v.Name == n
		}
		if !found {
			probs = append(probs, fmt.Sprintf("function %q is for no verb of the table", n))
		}
	}
	if len(probs) > 0 {
		return fmt.Errorf("verb driver: %s", strings.Join(probs, "; "))
	}
	return nil
}

// checkRefusals reports a refusal the driver may need and has not.
func (d Driver[P]) checkRefusals() []string {
	var probs []string
	if d.Unknown == nil {
		probs = append(probs, "no Unknown error")
	}
	if d.Open != nil && d.Closed == nil {
		probs = append(probs, "an Open check with no Closed error")
	}
	counted := false
	for _, v := range d.Verbs {
		counted = counted || v.Words.Checked()
	}
	if counted && d.Refuse == nil {
		probs = append(probs, "verbs with Words and no Refuse")
	}
	return probs
}

// checkVerbs reports the table's names given twice or not in lower case,
// verbs with no function, and examples that their verb's Words refuses.
func (d Driver[P]) checkVerbs() []string {
	var probs []string
	seen := map[string]bool{}
	for _, v := range d.Verbs {
		for _, w := range append([]string{v.Name}, v.Aliases...) {
			if seen[w] {
				probs = append(probs, fmt.Sprintf("%q is named twice in the table", w))
			}
			seen[w] = true
		}
		if w := strings.ToLower(v.Name); w != v.Name {
			probs = append(probs, fmt.Sprintf("verb %q is not lower case", v.Name))
		}
		if d.Funcs[v.Name] == nil {
			probs = append(probs, fmt.Sprintf("verb %q has no function", v.Name))
		}
		if ex := v.exampleLine(); v.Words.Checked() && (ex == "" || !v.Words.Allows(len(strings.Fields(ex))-1)) {
			probs = append(probs, fmt.Sprintf("verb %q has no example line that its Words allows", v.Name))
		}
	}
	return probs
}
