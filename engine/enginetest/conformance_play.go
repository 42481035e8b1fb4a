package enginetest

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime/debug"
	"testing"

	"skagerrak/engine"
)

// Budgets of random play. A phase of a real game rolls a few hundred dice
// at most, and a game lasts a few hundred phases.
const (
	maxRolls  = 200_000
	maxPhases = 5_000
	// maxTries is how many order texts a side sends before it is taken
	// to have sent none (the adjudicator's NMR).
	maxTries = 3
)

// runaway is the panic of a resolution that rolled past maxRolls.
type runaway struct{ rolls int }

// cappedDice rolls d and stops a resolution past maxRolls rolls by
// panicking with runaway, so that a loop that never ends is found, not
// waited for.
type cappedDice struct {
	d engine.Dice
	n int
}

func (c *cappedDice) Roll(sides int, why string) int {
	c.n++
	if c.n > maxRolls {
		panic(runaway{c.n})
	}
	return c.d.Roll(sides, why)
}

// phaseRecord is one resolved phase as the log records it.
type phaseRecord struct {
	texts  map[engine.Side]string
	nmr    map[engine.Side]bool
	rolls  []engine.Roll
	digest [32]byte
}

// gameRecord is one random game as the log records it.
type gameRecord struct {
	setup      engine.Setup
	setupRolls []engine.Roll
	first      [32]byte
	phases     []phaseRecord
	// snap is a state met in play, after snapAt phases, kept to replay
	// the rest of the game from it.
	snap   engine.State
	snapAt int
}

// playStats counts what random play went through, for the test's log.
type playStats struct {
	games, manual, absent, phases, maxPhases int
	texts, refused, accepted, nmr            int
	misfits, fog                             int
	mutants, mutantsAccepted                 int
}

func (s playStats) String() string {
	return fmt.Sprintf("%d games (%d on manual dice, %d of absent players), %d phases (at most %d in a game); %d order texts sent, %d refused, %d accepted (%d of %d with mutated lines), %d sides defaulted; %d misfit hands cleared; %d fog comparisons",
		s.games, s.manual, s.absent, s.phases, s.maxPhases, s.texts, s.refused, s.accepted, s.mutantsAccepted, s.mutants, s.nmr, s.misfits, s.fog)
}

// player plays one random game.
type player struct {
	t      testing.TB
	rs     Conforming
	rng    *rand.Rand
	game   int
	manual bool
	// absent is a game in which no side ever sends orders: every phase
	// resolves on default orders, and the game still ends.
	absent bool
	// forms are the sides' order forms of the state last checked, the
	// state whose phase is played next.
	forms map[engine.Side]string
	stats *playStats
	where string
}

// randomPlay plays n random games of rs, cycling through its set-ups,
// and logs what they went through.
func randomPlay(t testing.TB, rs Conforming, n int) {
	var sus []engine.Setup
	for _, su := range setups(rs) {
		// An option may need another: a set-up New refuses is no game.
		if _, err := rs.New(su, engine.NewSeededDice(nil, "g", "setup", [32]byte{})); err != nil {
			if len(su.Options) == 0 {
				t.Fatalf("New(%+v): %v", su, err)
			}
			t.Logf("set-up %+v refused: %v", su, err)
			continue
		}
		sus = append(sus, su)
	}
	var st playStats
	h := fnv.New64a()
	h.Write([]byte(rs.Name()))
	for g := 0; g < n; g++ {
		if *gameFlag >= 0 && g != *gameFlag {
			continue
		}
		p := &player{t: t, rs: rs, rng: rand.New(rand.NewPCG(h.Sum64(), uint64(g))), game: g, stats: &st}
		// One game in four on manual dice, a different set-up each round.
		p.manual = (g%len(sus)+g/len(sus))%4 == 1
		p.absent = g%10 == 9
		p.playGame(sus[g%len(sus)])
	}
	t.Logf("%s: %v", rs.Name(), st)
}

// fail stops the test naming the game, so that -conformance.game replays it.
func (p *player) fail(format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("game %d (-conformance.game=%d, manual dice %v) %s: %s", p.game, p.game, p.manual, p.where, fmt.Sprintf(format, args...))
}

func (p *player) playGame(su engine.Setup) {
	p.stats.games++
	if p.manual {
		p.stats.manual++
	}
	if p.absent {
		p.stats.absent++
	}
	p.where = fmt.Sprintf("set-up %+v", su)
	defer func() {
		switch r := recover().(type) {
		case nil:
		case runaway:
			p.fail("a resolution rolled %d dice and did not end", r.rolls)
		default:
			p.fail("panic: %v\n%s", r, debug.Stack())
		}
	}()
	rec := &gameRecord{setup: su}
	setupDice := engine.NewSeededDice([]byte("conformance"), fmt.Sprint(p.game), "setup", [32]byte{})
	s, rolls, err := p.roll(setupDice, func(d engine.Dice) (engine.State, error) { return p.rs.New(su, d) })
	if err != nil {
		p.fail("New: %v", err)
	}
	rec.setupRolls = rolls
	rec.first = p.digest(s)
	p.check(nil, s)
	for i := 0; ; i++ {
		ph := p.rs.Phase(s)
		p.where = fmt.Sprintf("set-up %+v phase %s", su, ph.ID)
		if ph.Over {
			break
		}
		if i >= maxPhases {
			p.fail("the game has not ended after %d phases", i)
		}
		if p.rng.IntN(i+1) == 0 {
			rec.snap, rec.snapAt = s, i
		}
		next, pr := p.playPhase(s, ph)
		rec.phases = append(rec.phases, pr)
		p.check(s, next)
		s = next
	}
	if rv, ok := p.rs.(engine.Revealer); ok && rv.Reveal(s) == "" {
		p.fail("the finished game reveals nothing")
	}
	p.stats.phases += len(rec.phases)
	p.stats.maxPhases = max(p.stats.maxPhases, len(rec.phases))
	p.where = fmt.Sprintf("set-up %+v replay", su)
	p.replay(rec)
}

// playPhase gathers every owing side's orders and resolves the phase.
func (p *player) playPhase(s engine.State, ph engine.Phase) (engine.State, phaseRecord) {
	pr := phaseRecord{texts: map[engine.Side]string{}, nmr: map[engine.Side]bool{}}
	orders := map[engine.Side]engine.Orders{}
	f := p.newFog(s)
	for _, side := range ph.Owes {
		text, o, ok := p.orders(s, side, f)
		if !ok {
			p.stats.nmr++
			pr.nmr[side] = true
			o = p.rs.DefaultOrders(s, side)
		} else {
			pr.texts[side] = text
		}
		orders[side] = o
	}
	f.checkSides(p, ph.Owes)
	before := p.canon(s)
	seeded := engine.NewSeededDice([]byte("conformance"), fmt.Sprint(p.game), ph.ID, engine.OrdersDigest(pr.texts))
	next, rolls, err := p.roll(seeded, func(d engine.Dice) (engine.State, error) {
		return p.rs.Resolve(s, orders, d)
	})
	if err != nil {
		p.fail("Resolve: %v", err)
	}
	if !bytes.Equal(before, p.canon(s)) {
		p.fail("Resolve changed its input state")
	}
	pr.rolls, pr.digest = rolls, p.digest(next)
	return next, pr
}

// roll runs a resolution on the game's dice: seeded dice as given, or on
// manual dice the rolls the resolution asks for, given in random pieces
// as a referee would (each try discarded until the hand is enough). It
// returns the rolls made.
func (p *player) roll(seeded *engine.SeededDice, resolve func(engine.Dice) (engine.State, error)) (engine.State, []engine.Roll, error) {
	if !p.manual {
		s, err := resolve(&cappedDice{d: seeded})
		return s, seeded.Rolls(), err
	}
	var hand []int
	prev, first := 0, engine.Roll{}
	for try := 0; ; try++ {
		if try > 10_000 {
			p.fail("manual dice: still short after %d pieces", try)
		}
		md := engine.NewFaceDice(hand...)
		s, err := func() (st engine.State, err error) {
			defer engine.Halted(&err) // a set-up's New may stop at a die too
			return resolve(&cappedDice{d: md})
		}()
		var missing *engine.DieMissing
		switch {
		case md.Err() != nil:
			// A value that fits no die it is for (one given beyond the
			// die asked for, so in the last piece): the referee clears
			// the piece and gives the one roll sure to be asked.
			p.stats.misfits++
			hand = append(hand[:prev], 1+p.rng.IntN(first.Sides))
			continue
		case errors.As(err, &missing):
			// The resolution stopped at the first die not in hand (no
			// filler rolls): the referee gives that one and, at random,
			// a few more, and tries again.
			prev, first = len(hand), missing.Want
			hand = append(hand, p.piece(missing.Want)...)
			continue
		case err != nil:
			return nil, nil, err
		}
		return s, md.Rolls(), nil
	}
}

// piece is the next dice a referee gives: a face of the die asked for,
// and up to a dozen more guessed from it, as players roll a handful at
// once (one that fits no die it meets is a misfit, cleared).
func (p *player) piece(want engine.Roll) []int {
	out := []int{1 + p.rng.IntN(want.Sides)}
	for n := p.rng.IntN(13); n > 0; n-- {
		out = append(out, 1+p.rng.IntN(want.Sides))
	}
	return out
}

// check checks a state met in play, and the invariants of the phase that
// led to it.
func (p *player) check(prev, next engine.State) {
	p.t.Helper()
	p.forms = checkState(p.t, p.rs, next, fmt.Sprintf("game %d %s", p.game, p.where))
	if err := p.rs.Invariants(prev, next); err != nil {
		p.fail("invariant: %v", err)
	}
}

func (p *player) canon(v any) []byte { return canon(p.t, p.where, v) }

func (p *player) digest(s engine.State) [32]byte { return sha256.Sum256(p.canon(s)) }

// replay plays the game's log again, from its set-up and from the
// snapshot (read back from its JSON, and deep-copied), and checks that
// every phase comes to the state it came to in play.
func (p *player) replay(rec *gameRecord) {
	d := engine.NewReplayDice(rec.setupRolls)
	s, err := p.rs.New(rec.setup, d)
	if err != nil {
		p.fail("replaying New: %v", err)
	}
	p.replayDice(d, len(rec.setupRolls), "New")
	if p.digest(s) != rec.first {
		p.fail("New gives another state on replay")
	}
	p.replayFrom(s, rec.phases, 0)
	if rec.snap == nil {
		return
	}
	back, err := p.rs.DecodeState(p.canon(rec.snap))
	if err != nil {
		p.fail("DecodeState: %v", err)
	}
	p.replayFrom(back, rec.phases[rec.snapAt:], rec.snapAt)
	p.replayFrom(engine.DeepCopy(rec.snap), rec.phases[rec.snapAt:], rec.snapAt)
}

func (p *player) replayFrom(s engine.State, phases []phaseRecord, at int) {
	for i, pr := range phases {
		ph := p.rs.Phase(s)
		orders := map[engine.Side]engine.Orders{}
		for _, side := range ph.Owes {
			if pr.nmr[side] {
				orders[side] = p.rs.DefaultOrders(s, side)
				continue
			}
			o, errs := p.rs.ParseOrders(s, side, pr.texts[side])
			if len(errs) > 0 {
				p.fail("replay of phase %d (%s): %s's orders, accepted in play, are refused: %v", at+i, ph.ID, side, errs)
			}
			orders[side] = o
		}
		d := engine.NewReplayDice(pr.rolls)
		next, err := p.rs.Resolve(s, orders, d)
		if err != nil {
			p.fail("replay of phase %d (%s): %v", at+i, ph.ID, err)
		}
		p.replayDice(d, len(pr.rolls), ph.ID)
		if p.digest(next) != pr.digest {
			p.fail("replay of phase %d (%s) from phase %d gives another state", at+i, ph.ID, at)
		}
		s = next
	}
}

func (p *player) replayDice(d *engine.ManualDice, n int, what string) {
	if err := d.Err(); err != nil {
		p.fail("replaying %s: %v", what, err)
	}
	if d.Used() != n || d.Short() > 0 {
		p.fail("replaying %s: %d rolls used and %d more asked for, %d recorded", what, d.Used(), d.Short(), n)
	}
}
