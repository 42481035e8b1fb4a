package enginetest

import (
	"bytes"
	"fmt"
	"strings"

	"skagerrak/engine"
)

// orders has side send order texts until one is accepted, at most
// maxTries: the scripted player's orders, the order form unchanged, the
// default orders written out (each of which must be accepted), or any of
// these with mutated lines. Every refusal is checked, and every accepted
// text written back and read again. ok is false when every text was
// refused (the side is defaulted), and always in a game of absent
// players.
func (p *player) orders(s engine.State, side engine.Side, f *fog) (text string, o engine.Orders, ok bool) {
	if p.absent {
		return "", nil, false
	}
	before := p.canon(s)
	for try := 0; try < maxTries; try++ {
		text, what := p.orderText(s, side)
		p.stats.texts++
		if what == "" {
			p.stats.mutants++
		}
		o, errs := p.rs.ParseOrders(s, side, text)
		if !bytes.Equal(before, p.canon(s)) {
			p.fail("ParseOrders changed the state")
		}
		f.reply(p, side, text, o, errs)
		if len(errs) > 0 {
			if what != "" {
				p.fail("%s: %s is refused: %v\n%s", side, what, errs, clip(text))
			}
			p.stats.refused++
			checkRefusal(p.t, text, errs, fmt.Sprintf("game %d %s %s", p.game, p.where, side))
			continue
		}
		p.stats.accepted++
		if what == "" {
			p.stats.mutantsAccepted++
		}
		p.checkFormat(s, side, o, text)
		return text, o, true
	}
	return "", nil, false
}

// checkFormat checks that accepted orders, written back as the side is
// told they were understood, are accepted again and written the same.
func (p *player) checkFormat(s engine.State, side engine.Side, o engine.Orders, text string) {
	f := p.rs.FormatOrders(s, side, o)
	o2, errs := p.rs.ParseOrders(s, side, f)
	if len(errs) > 0 {
		p.fail("%s: the orders as understood are refused: %v\nsent:\n%s\nunderstood:\n%s", side, errs, clip(text), f)
	}
	if f2 := p.rs.FormatOrders(s, side, o2); f2 != f {
		p.fail("%s: the orders as understood are understood otherwise when sent back:\n%s\n%s", side, f, f2)
	}
}

// orderText draws one order text for side, and names it if it must be
// accepted as it stands.
func (p *player) orderText(s engine.State, side engine.Side) (text, must string) {
	v := p.rs.View(s, side)
	play := func() string {
		if pl, ok := p.rs.(engine.Player); ok {
			seed := fmt.Sprint(p.rng.Uint64())
			text := pl.Play(v, side, engine.NewSeededDice([]byte("player"), fmt.Sprint(p.game), seed, [32]byte{}))
			if p.rng.IntN(4) == 0 {
				p.samePlay(v, side, seed, text)
			}
			return text
		}
		return p.rs.FormatOrders(s, side, p.rs.DefaultOrders(s, side))
	}
	switch r := p.rng.IntN(20); {
	case r < 9:
		return play(), "the scripted player's orders"
	case r < 12:
		if _, ok := p.rs.(engine.OrderFormer); ok {
			return p.forms[side], "the order form unchanged"
		}
		return play(), "the scripted player's orders"
	case r < 13:
		return p.rs.FormatOrders(s, side, p.rs.DefaultOrders(s, side)), "the default orders written out"
	default:
		return p.mutate(play(), p.vocabulary(s)), ""
	}
}

// samePlay checks that the scripted player plays the same from the view
// read back from its JSON, as a player's own tools read it.
func (p *player) samePlay(v engine.View, side engine.Side, seed, text string) {
	dec, ok := p.rs.(engine.ViewDecoder)
	if !ok {
		return
	}
	back, err := dec.DecodeView(p.canon(v))
	if err != nil {
		p.fail("%s's view does not decode: %v", side, err)
	}
	again := p.rs.(engine.Player).Play(back, side, engine.NewSeededDice([]byte("player"), fmt.Sprint(p.game), seed, [32]byte{}))
	if again != text {
		p.fail("%s: the scripted player plays otherwise from its view read back:\n%s\n%s", side, text, again)
	}
}

// vocabulary is every word of every side's order form and default
// orders: verbs, the side's own units and places, and the enemy's, which
// a player may name whether or not he can see them.
func (p *player) vocabulary(s engine.State) []string {
	var words []string
	for _, side := range p.rs.Sides() {
		words = append(words, fieldsOf(p.forms[side])...)
	}
	for _, side := range p.rs.Phase(s).Owes {
		words = append(words, fieldsOf(p.rs.FormatOrders(s, side, p.rs.DefaultOrders(s, side)))...)
	}
	return append(words, garbage...)
}

func fieldsOf(text string) []string {
	var out []string
	for _, l := range engine.OrderLines(text) {
		out = append(out, l.Fields...)
	}
	return out
}

// garbage are words no order should take: wrong verbs, unknown units,
// hexes and areas off the map, numbers out of range, odd characters.
var garbage = []string{
	"frobnicate", "teleport", "X999", "U9999", "Nowhere", "Atlantis", "A0", "Z99", "ZZ99", "0000", "9999",
	"-1", "0", "99999999999999999999", "1e9", "æøå", "Ω", "\u200b", "\x00", "to", "from", "--",
	"move", "attack", "all", "none", "ALL", "\t",
}

// mutate changes one to three things in an order text.
func (p *player) mutate(text string, vocab []string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	pick := func(xs []string) string { return xs[p.rng.IntN(len(xs))] }
	for n := 1 + p.rng.IntN(3); n > 0; n-- {
		i := p.rng.IntN(len(lines))
		f := strings.Fields(lines[i])
		switch p.rng.IntN(11) {
		case 0: // a wrong verb
			if len(f) > 0 {
				f[0] = pick(garbage[:2])
			}
			lines[i] = strings.Join(f, " ")
		case 1, 2, 3: // a word swapped for another the game knows
			if len(f) > 0 {
				f[p.rng.IntN(len(f))] = pick(vocab)
			}
			lines[i] = strings.Join(f, " ")
		case 4: // an unknown unit or a place off the map
			if len(f) > 1 {
				f[1+p.rng.IntN(len(f)-1)] = pick(garbage[2:11])
			}
			lines[i] = strings.Join(f, " ")
		case 5: // a line of words the game knows, in any order
			var w []string
			for k := 1 + p.rng.IntN(6); k > 0; k-- {
				w = append(w, pick(vocab))
			}
			lines = insert(lines, i, strings.Join(w, " "))
		case 6: // a long line
			lines[i] = strings.Repeat(pick(vocab)+" ", 1+p.rng.IntN(5000))
		case 7: // an empty file
			return ""
		case 8: // a line twice, or dropped
			if p.rng.IntN(2) == 0 {
				lines = insert(lines, i, lines[i])
			} else {
				lines = append(lines[:i], lines[i+1:]...)
				if len(lines) == 0 {
					lines = []string{""}
				}
			}
		case 9: // numbers out of range
			for k := range f {
				if _, err := fmt.Sscan(f[k], new(int)); err == nil {
					f[k] = pick([]string{"-1", "0", "7", "99", "99999999999999999999"})
				}
			}
			lines[i] = strings.Join(f, " ")
		case 10: // upper case, a comment, CRLF
			lines[i] = strings.ToUpper(lines[i]) + " # note\r"
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

func insert(xs []string, i int, x string) []string {
	return append(xs[:i], append([]string{x}, xs[i:]...)...)
}

// fog is, for one open phase, each side's copy of the state changed in
// what it cannot see.
type fog struct {
	s      engine.State
	hidden map[engine.Side]engine.State
}

// newFog makes the changed copies.
func (p *player) newFog(s engine.State) *fog {
	f := &fog{s: s, hidden: map[engine.Side]engine.State{}}
	before := p.canon(s)
	for _, side := range p.rs.Sides() {
		f.hidden[side] = p.rs.Hide(s, side, p.rng.IntN(8))
	}
	if string(before) != string(p.canon(s)) {
		p.fail("Hide changed the state it was given")
	}
	return f
}

// reply checks that side's order text gets the same reply whatever side
// cannot see: the same refusals, word for word, or the same orders
// understood.
func (f *fog) reply(p *player, side engine.Side, text string, o engine.Orders, errs []engine.LineError) {
	if f == nil {
		return
	}
	h := f.hidden[side]
	o2, errs2 := p.rs.ParseOrders(h, side, text)
	p.stats.fog++
	if a, b := marshalErrs(errs), marshalErrs(errs2); a != b {
		p.fail("fog: %s's reply to its orders depends on what it cannot see:\n%s\n%s\norders:\n%s", side, a, b, clip(text))
	}
	if len(errs) == 0 {
		if a, b := p.rs.FormatOrders(f.s, side, o), p.rs.FormatOrders(h, side, o2); a != b {
			p.fail("fog: %s's orders are understood otherwise with what it cannot see changed:\n%s\n%s", side, a, b)
		}
	}
}

// checkSides checks that each side's phase, view, report and order form
// are the same in the state and in its changed copy, and that a side that
// owes nothing gets the same reply to orders sent anyway.
func (f *fog) checkSides(p *player, owes []engine.Side) {
	if f == nil {
		return
	}
	for _, side := range p.rs.Sides() {
		h := f.hidden[side]
		p.stats.fog++
		if a, b := p.rs.Phase(f.s), p.rs.Phase(h); fmt.Sprint(a) != fmt.Sprint(b) {
			p.fail("fog: the phase depends on what %s cannot see: %+v, %+v", side, a, b)
		}
		va, vb := p.rs.View(f.s, side), p.rs.View(h, side)
		if a, b := p.canon(va), p.canon(vb); string(a) != string(b) {
			p.fail("fog: %s's view depends on what it cannot see:\n%s\n%s", side, a, b)
		}
		if r, ok := p.rs.(engine.Reporter); ok && r.Report(va, side) != r.Report(vb, side) {
			p.fail("fog: %s's report depends on what it cannot see", side)
		}
		if r, ok := p.rs.(engine.OrderFormer); ok && p.forms[side] != r.OrderForm(vb, side) {
			p.fail("fog: %s's order form depends on what it cannot see", side)
		}
		if !hasSide(owes, side) {
			vocab := p.vocabulary(f.s)
			text := p.mutate(vocab[p.rng.IntN(len(vocab))], vocab)
			o, errs := p.rs.ParseOrders(f.s, side, text)
			f.reply(p, side, text, o, errs)
		}
	}
}
