package kampen

import (
	"strings"

	"skagerrak/engine"
)

// driver binds Verbs to the parser's per-verb functions.
var driver = engine.Driver[*parser]{
	Verbs: Verbs,
	Funcs: map[string]engine.VerbFunc[*parser]{
		"move":      (*parser).move,
		"rapid":     (*parser).rapid,
		"para":      (*parser).para,
		"attack":    cardPlayOf("attack"),
		"react":     cardPlayOf("react"),
		"engineer":  onOffOf("engineer"),
		"submarine": onOffOf("submarine"),
		"losses":    (*parser).losses,
		"block":     (*parser).block,
		"flee":      (*parser).flee,
		"defend":    cardPlayOf("defend"),
		"retreat":   (*parser).retreat,
		"trade":     (*parser).trade,
		"place":     (*parser).place,
		"discard":   (*parser).discard,
	},
	// losses is read in every step, as revision 1 read it; the parser
	// refuses it where it does not apply.
	Open:  func(p *parser, v engine.Verb) bool { return v.Allows(p.s.Step, "", 0) || v.Name == "losses" },
	Valid: func(p *parser) []string { return strings.Split(sideVerbs(p.s, p.side), ", ") },
	Unknown: func(p *parser, l engine.OrderLine, valid string) {
		p.errorf(l, "3.1", valid, "unknown order %q", l.Fields[0])
	},
	Closed: func(p *parser, l engine.OrderLine, v engine.Verb, valid string) {
		p.errorf(l, "3.1", valid, "%q is not an order of the %s step", v.Name, p.s.Step)
	},
	Refuse: func(p *parser, e engine.LineError) { p.errs = append(p.errs, e) },
}

func cardPlayOf(use string) engine.VerbFunc[*parser] {
	return func(p *parser, l engine.OrderLine, args []string) { p.cardPlay(l, args, use) }
}

func onOffOf(verb string) engine.VerbFunc[*parser] {
	return func(p *parser, l engine.OrderLine, args []string) { p.onOff(l, verb, args) }
}
