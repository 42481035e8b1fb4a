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
// allows it, and call the verb's function. The ruleset keeps its own
// words for the two refusals, so what a player reads does not change
// when a parser moves onto the driver.
type Driver[P any] struct {
	// Verbs is the ruleset's table.
	Verbs Verbs
	// Funcs parses each verb of the table, by its Name.
	Funcs map[string]VerbFunc[P]
	// Open reports whether p's open phase takes verb v; nil takes every
	// verb of the table.
	Open func(p P, v Verb) bool
	// Unknown records the error for a line whose first word is no verb.
	Unknown func(p P, l OrderLine)
	// Closed records the error for a verb that Open refuses.
	Closed func(p P, l OrderLine, v Verb)
}

// Line dispatches one order line (with at least one word) to its verb's
// function, or to Unknown or Closed. It reports the verb it found.
func (d Driver[P]) Line(p P, l OrderLine) (Verb, bool) {
	v, ok := d.Verbs.Lookup(l.Fields[0])
	if !ok {
		d.Unknown(p, l)
		return Verb{}, false
	}
	if d.Open != nil && !d.Open(p, v) {
		d.Closed(p, l, v)
		return v, false
	}
	f, ok := d.Funcs[v.Name]
	if !ok {
		// Check finds this in the ruleset's tests; a player meets it as
		// an unknown order rather than as silence.
		d.Unknown(p, l)
		return v, false
	}
	f(p, l, l.Fields[1:])
	return v, true
}

// Check reports a table and a parser that have drifted apart: a verb of
// the table with no function, a function for no verb of the table, a
// name given twice, or a refusal left unset. Each ruleset's tests call it.
func (d Driver[P]) Check() error {
	var probs []string
	if d.Unknown == nil {
		probs = append(probs, "no Unknown error")
	}
	if d.Open != nil && d.Closed == nil {
		probs = append(probs, "an Open check with no Closed error")
	}
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
	}
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
