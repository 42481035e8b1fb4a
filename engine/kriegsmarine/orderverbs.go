package kriegsmarine

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// turnDriver binds the turn's verbs to the parser's functions (the
// decision phases' verbs are read by decisionDriver). A verb of a later
// rules revision than the game's, or of the decision phases only, is
// refused saying so.
var turnDriver = engine.Driver[*parser]{
	Verbs: Verbs.In(PhaseTurn),
	Funcs: map[string]engine.VerbFunc[*parser]{
		"move":      func(p *parser, l engine.OrderLine, _ []string) { p.move(l, false) },
		"enter":     func(p *parser, l engine.OrderLine, _ []string) { p.move(l, true) },
		"search":    func(p *parser, l engine.OrderLine, _ []string) { p.searches = append(p.searches, l) },
		"encounter": lineVerb((*parser).encounter),
		"combat":    (*parser).combatAsk,
		"split":     lineVerb((*parser).splitLine),
		"rebase":    lineVerb((*parser).rebase),
		"detach":    lineVerb((*parser).detach),
		"scramble":  lineVerb((*parser).scramble),
		"airborne":  lineVerb((*parser).airborne),
		"strike":    func(p *parser, l engine.OrderLine, _ []string) { p.strike(l, false) },
		"cover":     func(p *parser, l engine.OrderLine, _ []string) { p.strike(l, true) },
		"escort":    (*parser).escort,
		"restrict":  (*parser).restrict,
		"abandon":   lineVerb((*parser).abandon),
		"expose":    lineVerb((*parser).expose),
		"target":    lineVerb((*parser).target),
		"torpedoes": lineVerb((*parser).torpLimit),
		"disguise":  (*parser).disguise,
		"schlesien": (*parser).schlesien,
		"end":       (*parser).endGame,
		"pass":      (*parser).pass,
	},
	Open:  func(p *parser, v engine.Verb) bool { return v.Allows(PhaseTurn, "", int(p.v.rev())) },
	Valid: func(p *parser) []string { return Verbs.Names(PhaseTurn, p.v.Side, int(p.v.rev())) },
	Unknown: func(p *parser, l engine.OrderLine, valid string) {
		msg := fmt.Sprintf("unknown order %q", l.Fields[0])
		if v, ok := Verbs.Lookup(l.Fields[0]); ok {
			msg = v.Closed(l.Fields[0], int(p.v.rev())) // a decision phase's
		}
		p.errs = append(p.errs, l.Errorf("", valid, "%s", msg))
	},
	Closed: func(p *parser, l engine.OrderLine, v engine.Verb, valid string) {
		p.errs = append(p.errs, l.Errorf("", valid, "%s", v.Closed(l.Fields[0], int(p.v.rev()))))
	},
	Refuse: func(p *parser, e engine.LineError) { p.errs = append(p.errs, e) },
}

// lineVerb binds a verb function that reads the whole line to the driver.
func lineVerb(f func(*parser, engine.OrderLine)) engine.VerbFunc[*parser] {
	return func(p *parser, l engine.OrderLine, _ []string) { f(p, l) }
}

// combatAsk reads "combat ask": decide each battle round in person (8.2).
func (p *parser) combatAsk(l engine.OrderLine, args []string) {
	if !strings.EqualFold(args[0], ChoiceAsk) {
		p.fail(l, "8.2", "combat ask", "did you mean: combat ask")
		return
	}
	p.o.CombatAsk = true
}

// escort reads "escort SHIP[, SHIP]" (8.27).
func (p *parser) escort(l engine.OrderLine, args []string) {
	ids, ok := p.units(l, args)
	if !ok {
		return
	}
	for _, id := range ids {
		if !def(id).Surface() || contains(p.o.Escorts, id) {
			p.fail(l, "8.27", "escort SHIP[, SHIP]", "%s cannot be escorted twice, nor unless it is a surface ship", def(id).Name)
			break
		}
		p.o.Escorts = append(p.o.Escorts, id)
	}
}

// restrict reads "restrict": restricted fire (8.26).
func (p *parser) restrict(engine.OrderLine, []string) {
	p.o.Restrict = true
}

// disguise reads "disguise": CA and BB reported confusingly (6.46).
func (p *parser) disguise(l engine.OrderLine, _ []string) {
	if p.v.Side != German {
		p.fail(l, "6.46", "", "only the Germans may report CA and BB confusingly")
		return
	}
	p.o.Disguise = true
}

// schlesien reads "schlesien", with the Danish forces option (17.31).
func (p *parser) schlesien(l engine.OrderLine, _ []string) {
	if p.v.Side != German || !contains(p.v.Options, OptDanish) {
		p.fail(l, "17.31", "", "only the German player, with the Danish forces option, sends Schlesien")
		return
	}
	p.o.Schlesien = true
}

// endGame reads "end game" (or "endgame"), on the Commerce Raiding
// objective (6.18).
func (p *parser) endGame(l engine.OrderLine, args []string) {
	if strings.ToLower(l.Fields[0]) == "end" && (len(args) != 1 || !strings.EqualFold(args[0], "game")) {
		p.fail(l, "6.18", "end game", "did you mean: end game")
		return
	}
	if p.v.Side != German || p.v.Objective == nil || p.v.Objective.Result.Kind != ObjRaiding {
		p.fail(l, "6.18", "", "only the German player on the Commerce Raiding objective may end the game early")
		return
	}
	p.o.EndGame = true
}

// pass reads "pass": no orders (the driver refuses words after it).
func (p *parser) pass(engine.OrderLine, []string) {}
