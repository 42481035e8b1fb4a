package norway1940

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// Combat losses and retreats from revision 2 (10.5.6): "the owner always
// chooses how to distribute his combat losses. In case of retreat, the
// attacking player chooses where the losing units are to retreat. A
// retreat must be conducted towards the closest supply source."
//
// The owner's choice is his standing order "losses UNIT ..." (the first of
// those units still in the combat takes each loss; the others after them
// as revision 1 chose), or, for the defender who gave "ask losses", his
// decision in a short phase. The attacking player's choice is the
// "retreat AREA" (beaten defenders) and "fallback AREA" (his own units)
// of his attack order, honoured among the areas closest to a supply
// source of the retreating side.

// LossUnit is a unit that may take a combat loss and its steps left.
type LossUnit struct {
	ID    string `json:"id"`
	Steps int    `json:"steps"`
}

// lossesOf is what a 10.5.3 result takes: step losses and units
// eliminated (the retreat apart).
func lossesOf(res string) (steps, elim int) {
	switch res {
	case "R1", "R1E":
		steps = 1
	case "R2":
		steps = 2
	case "R3":
		steps = 3
	}
	if strings.HasSuffix(res, "E") {
		elim = 1
	}
	return
}

// eliminate removes a unit with all its steps (10.2); an HQ returns later
// (10.2.9).
func eliminate(s *State, u *Unit) {
	u.Steps = 1
	stepLoss(s, u)
}

// takeLosses applies a land combat result to the losing side (revision
// 2): the owner's distribution of the losses, then the retreat the
// attacking player chose among the areas closest to a supply source.
func (c *turnCtx) takeLosses(area string, loser engine.Side, us []*Unit, res, prefer string, strong bool) {
	s := c.s
	switch res {
	case "-":
		return
	case "A":
		// All eliminated: landing troops too; only a retreat sends them
		// back aboard (10.5.6).
		for _, u := range alive(us) {
			eliminate(s, u)
		}
		return
	}
	steps, elim := lossesOf(res)
	for _, l := range c.lossLines(area, loser, us, res, steps, elim) {
		f := strings.Fields(l)
		u := s.unit(f[1])
		if f[0] == "step" {
			stepLoss(s, u)
		} else {
			eliminate(s, u)
		}
	}
	c.retreat(area, loser, us, strong, func() string { return c.retreatTo(loser, area, prefer) })
}

// lossLines distributes the losses of a result over the live units us, as
// decision lines "step ID" and "eliminate ID": by the owner's standing
// order, or in person when he asked and has a choice.
func (c *turnCtx) lossLines(area string, loser engine.Side, us []*Unit, res string, steps, elim int) []string {
	s := c.s
	live := alive(us)
	var units []LossUnit
	total := 0
	for _, u := range live {
		units = append(units, LossUnit{ID: u.ID, Steps: u.Steps})
		total += u.Steps
	}
	needSteps, needElim := steps, 0
	if needSteps > total {
		needSteps = total
	}
	if elim > 0 && total > needSteps {
		needElim = 1
	}
	def := planLosses(live, needSteps, needElim, s.side(loser).Standing.Losses)
	if len(def) == 0 || len(live) < 2 || total <= steps || !s.asked(loser, AskLosses) {
		return def
	}
	q := &Question{Kind: AskLosses, Side: loser, Box: area, Losses: units, Steps: needSteps, Elim: needElim}
	var have []string
	for _, u := range units {
		have = append(have, fmt.Sprintf("%s (%d step(s))", u.ID, u.Steps))
		q.Choices = append(q.Choices, "step "+u.ID)
	}
	for _, u := range units {
		if needElim > 0 {
			q.Choices = append(q.Choices, "eliminate "+u.ID) // only a line the answer may hold
		}
	}
	q.Text = fmt.Sprintf("The %s attack at %s beat your units there (%s): %s. Distribute the losses: %d \"step UNIT\" line(s), one a step (a unit may take more than one)",
		sideTitle(other(loser)), area, describe(res), strings.Join(have, ", "), needSteps)
	if needElim > 0 {
		q.Text += fmt.Sprintf(", and %d \"eliminate UNIT\" line for the unit eliminated", needElim)
	}
	q.Text += "."
	return s.decide(q, def)
}

// planLosses is the standing distribution of needSteps step losses and
// needElim eliminations: each goes to the first unit of the priority
// list still alive in the combat; without one, a step goes to the unit
// with the most steps left (the smaller die on a tie) and the unit
// eliminated is the one with the lowest modifier, as revision 1 chose.
func planLosses(live []*Unit, needSteps, needElim int, priority []string) []string {
	rem := map[string]int{}
	for _, u := range live {
		rem[u.ID] = u.Steps
	}
	listed := func() *Unit {
		for _, id := range priority {
			for _, u := range live {
				if u.ID == id && rem[id] > 0 {
					return u
				}
			}
		}
		return nil
	}
	mod := func(u *Unit) int {
		if rem[u.ID] < u.MaxSteps {
			return u.Red
		}
		return u.Mod
	}
	var out []string
	for i := 0; i < needSteps; i++ {
		pick := listed()
		if pick == nil {
			for _, u := range live {
				if rem[u.ID] > 0 && (pick == nil || rem[u.ID] > rem[pick.ID] || (rem[u.ID] == rem[pick.ID] && combatDie(u) < combatDie(pick))) {
					pick = u
				}
			}
		}
		if pick == nil {
			break
		}
		rem[pick.ID]--
		out = append(out, "step "+pick.ID)
	}
	for i := 0; i < needElim; i++ {
		pick := listed()
		if pick == nil {
			for _, u := range live {
				if rem[u.ID] > 0 && (pick == nil || mod(u) < mod(pick)) {
					pick = u
				}
			}
		}
		if pick == nil {
			break
		}
		rem[pick.ID] = 0
		out = append(out, "eliminate "+pick.ID)
	}
	return out
}

// byPriority puts the units a losses order names first, in its order,
// the others after them as they were.
func byPriority(us []*Unit, priority []string) []*Unit {
	var out []*Unit
	for _, id := range priority {
		for _, u := range us {
			if u.ID == id && !containsUnit(out, id) {
				out = append(out, u)
			}
		}
	}
	for _, u := range us {
		if !containsUnit(out, u.ID) {
			out = append(out, u)
		}
	}
	return out
}

// retreatOptions are the areas a beaten stack of side x may retreat to
// from an area (10.5.6): the adjacent land areas (strait crossings
// included, never the sea nor Sweden) free of enemy units (an enemy CZ),
// and of those the ones closest to a supply source of x (7.2). Empty when
// the stack cannot retreat.
func retreatOptions(s *State, x engine.Side, from string) []string {
	src := sources(s, x)
	var best []string
	bestD := 1 << 30
	for _, n := range data.Graph.Neighbors(from) {
		if n == "Sweden" || enemyIn(s, n, x) {
			continue
		}
		d := 99
		for _, a := range src {
			if v := dist(n, a); v < d {
				d = v
			}
		}
		switch {
		case d < bestD:
			best, bestD = []string{n}, d
		case d == bestD:
			best = append(best, n)
		}
	}
	return best
}

// retreatTo is where a stack of side loser beaten at area retreats: the
// attacking player's choice prefer when it is one of the retreatOptions,
// otherwise the first of them (the attacker named none, or named one the
// rules do not allow).
func (c *turnCtx) retreatTo(loser engine.Side, area, prefer string) string {
	opts := retreatOptions(c.s, loser, area)
	if len(opts) == 0 {
		return ""
	}
	if prefer == "" || contains(opts, prefer) {
		if prefer == "" {
			return opts[0]
		}
		return prefer
	}
	c.s.log("10.5.6", "the units beaten at %s cannot retreat to %s: a retreat goes towards the closest supply source (%s); they retreat to %s", area, prefer, strings.Join(opts, ", "), opts[0])
	return opts[0]
}

// checkRetreatChoice checks an attack order's retreat choices against the
// state as the orders before it leave it (10.5.6): "retreat" among the
// defenders' options, "fallback" among the attacker's own; a landing
// force has no fallback (it re-embarks).
func (c *turnCtx) checkRetreatChoice(o Order, landing bool) (string, string, string) {
	s, x := c.s, c.x
	for _, ch := range []struct {
		word, area string
		side       engine.Side
	}{{"retreat", o.Flag, other(x)}, {"fallback", o.Fallback, x}} {
		if ch.area == "" {
			continue
		}
		if ch.word == "fallback" && landing {
			return "10.5.6", "the attack without fallback", "units beaten in an amphibious landing re-embark on their ships (10.5.6): they have no fallback"
		}
		opts := retreatOptions(s, ch.side, o.To)
		if contains(opts, ch.area) {
			continue
		}
		valid := "no " + ch.word + " (the units beaten there cannot retreat and lose a step)"
		if len(opts) > 0 {
			var alt []string
			for _, a := range opts {
				alt = append(alt, ch.word+" "+a)
			}
			valid = strings.Join(alt, " | ")
		}
		return "10.5.6", valid, fmt.Sprintf("%s is not where units beaten at %s may retreat: a retreat goes to an adjacent area free of enemy units, towards the closest supply source", ch.area, o.To)
	}
	return "", "", ""
}
