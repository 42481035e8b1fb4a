package kriegsmarine

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// AfterDecode implements engine.Decoded: a view read back is a
// kriegsmarine view.
func (v *View) AfterDecode() error {
	if v.Game != "kriegsmarine" {
		return fmt.Errorf("not a kriegsmarine view (game %q)", v.Game)
	}
	return nil
}

// Report implements engine.Reporter: what the side learned in the last
// turn, its forces, and what it knows of the enemy, from its View alone.
func (rules) Report(v *View, side engine.Side) string {
	if v == nil {
		return ""
	}
	var b strings.Builder
	last := reportTurn(v)
	writeLearned(&b, v, last)
	if v.Over {
		if v.Result != nil {
			fmt.Fprintf(&b, "\nThe game is over. %s\n", v.Result.Summary)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "\nNow: %s. %s.\n", v.Title, weatherNote(v))
	if q := v.Decision; q != nil {
		b.WriteString("\n" + describeQuestion(v, q))
	}
	if v.Objective != nil && side == German {
		fmt.Fprintf(&b, "Your secret objective: %s.\n", describeObjective(*v.Objective))
	}
	if v.InvasionTurn > 0 {
		fmt.Fprintf(&b, "Germany invaded Norway on turn %d; Allied intervention from turn %d.\n", v.InvasionTurn, v.Intervention)
	}
	writeTracking(&b, v)
	if c := recentContacts(v, 1); len(c) > 0 {
		var hs []string
		for _, h := range c {
			hs = append(hs, h.String())
		}
		fmt.Fprintf(&b, "\nEnemy ships reported lately at: %s.\n", strings.Join(hs, ", "))
	}
	writeForces(&b, v)
	return b.String()
}

// reportTurn is the turn the report tells of: the one before, the last
// played (18, or earlier if a raider ended the game) when the game is over,
// or the turn so far in a short phase inside it.
func reportTurn(v *View) int {
	last := v.Turn - 1
	if v.Over {
		// The last turn played: 18, or earlier if a raider ended the game.
		last = 0
		for _, e := range v.Reports {
			if e.Turn <= LastTurn && e.Turn > last {
				last = e.Turn
			}
		}
	}
	if v.Decision != nil {
		last = v.Turn // a short phase inside the turn: the turn so far
	}
	return last
}

// writeLearned writes the heading and what the side was told in turn last
// (at set-up, the set-up's reports; at the end, the final ones too).
func writeLearned(b *strings.Builder, v *View, last int) {
	if v.Decision != nil {
		fmt.Fprintf(b, "%s so far: what you learned\n\n", TurnTitle(last))
	} else if last >= 1 {
		fmt.Fprintf(b, "%s: what you learned\n\n", TurnTitle(last))
	} else {
		fmt.Fprintf(b, "Set-up: what you know\n\n")
	}
	n := 0
	for _, e := range v.Reports {
		if e.Turn == last || (last < 1 && e.Turn <= 1 && e.Kind == "setup") || (v.Over && e.Turn > LastTurn) {
			rule := ""
			if e.Rule != "" {
				rule = " (" + e.Rule + ")"
			}
			fmt.Fprintf(b, "  - %s%s\n", e.Text, rule)
			n++
		}
	}
	if n == 0 {
		b.WriteString("  - Nothing was reported to you.\n")
	}
}

// writeTracking lists the enemy groups the side tracks and its groups
// tracked (6.44).
func writeTracking(b *strings.Builder, v *View) {
	if len(v.Tracking) > 0 || len(v.Tracked) > 0 {
		b.WriteString("\nTracking:\n")
		for _, t := range v.Tracking {
			fmt.Fprintf(b, "  - You track %s at %s (slowest speed %d).\n", countTypes(t.Enemy), t.Hex, t.EnemySpeed)
		}
		for _, t := range v.Tracked {
			fmt.Fprintf(b, "  - Your group at %s is tracked by %s.\n", t.Hex, countTypes(t.Enemy))
		}
	}
}

// writeForces lists the side's units and where they are.
func writeForces(b *strings.Builder, v *View) {
	b.WriteString("\nYour forces:\n")
	for _, u := range v.Units {
		switch u.Where {
		case AtMap:
			dmg := ""
			if u.HitsTaken > 0 || u.Flooding > 0 {
				dmg = fmt.Sprintf(", damage %d hit(s) %d flooding", u.HitsTaken, u.Flooding)
			}
			fmt.Fprintf(b, "  %-22s %-4s %-5s speed %s, %s%s\n", u.Name, u.Type, u.Hex, u.Speed, unitNow(u), dmg)
		case AtHeld:
			fmt.Fprintf(b, "  %-22s %-4s German area\n", u.Name, u.Type)
		case AtBase:
			fmt.Fprintf(b, "  %-22s %-4s at %s\n", u.Name, u.Type, baseName(u.Base))
		case AtWaiting:
			fmt.Fprintf(b, "  %-22s %-4s arrives turn %d\n", u.Name, u.Type, u.Arrive)
		case AtSunk, AtExited, AtBrokeOut:
			fmt.Fprintf(b, "  %-22s %-4s %s\n", u.Name, u.Type, u.Where)
		}
	}
}

func baseName(b string) string {
	if d, ok := UnitByID(b); ok {
		return d.Name
	}
	return b
}

// Reveal implements engine.Revealer: the whole game once it is over.
func (rules) Reveal(s *State) string {
	var b strings.Builder
	fmt.Fprintf(&b, "German objective: rolled %d: %s.\n", s.Objective.Roll, describeObjective(s.Objective))
	if s.InvasionTurn > 0 {
		fmt.Fprintf(&b, "Germany invaded Norway on turn %d.\n", s.InvasionTurn)
	}
	if s.Result != nil {
		fmt.Fprintf(&b, "%s\n", s.Result.Summary)
	}
	b.WriteString("\nVictory points (16.0):\n")
	for _, l := range s.score() {
		fmt.Fprintf(&b, "  %s +%d: %s (%s)\n", sideName(l.Side), l.Points, l.Why, l.Rule)
	}
	for _, side := range []engine.Side{Allied, German} {
		fmt.Fprintf(&b, "\n%s units at the end:\n", sideName(side))
		for _, u := range s.Units {
			d := def(u.ID)
			if d.Side != side || u.Where == AtOut || d.Air {
				continue
			}
			where := u.Where
			if u.Where == AtMap {
				where = u.Hex.String()
			}
			fmt.Fprintf(&b, "  %-22s %-4s %s\n", d.Name, d.Type, where)
		}
	}
	return b.String()
}

// describeQuestion says what a side must decide in a short phase, what it
// knows for it, and what the deadline gives.
func describeQuestion(v *View, q *Question) string {
	var b strings.Builder
	var names []string
	for _, id := range q.Units {
		if u := v.unit(id); u != nil {
			names = append(names, u.Name)
		}
	}
	switch q.Kind {
	case DecideEncounter:
		fmt.Fprintf(&b, "You must decide an encounter at %s (%s): your %s meet enemy surface ships: %s.\n", q.Hex, q.Rule, strings.Join(names, ", "), countTypes(q.Enemy))
		b.WriteString("Choose track, evade or fight (the Encounter Table, 6.41)")
		if q.InPort {
			b.WriteString("; in a port or fjord hex evade is not allowed")
		}
		b.WriteString(".\n")
	case DecideCombat:
		fmt.Fprintf(&b, "You must decide round %d of the battle at %s: your %s against %s.\n", q.Round, q.Hex, strings.Join(names, ", "), countTypes(q.Enemy))
		for _, r := range q.SoFar {
			fmt.Fprintf(&b, "  %s\n", r)
		}
		if q.Round > 1 {
			b.WriteString("First the end-of-round check (8.24): fight on, or evade to end the battle.\n")
		}
		fmt.Fprintf(&b, "Then your declarations for round %d: restricted fire (8.26)", q.Round)
		if q.EscortsAllowed > 0 {
			fmt.Fprintf(&b, ", up to %d escorted ship(s) (8.27)", q.EscortsAllowed)
		}
		b.WriteString(", gunnery targets (8.221) and torpedoes (8.28).\n")
	}
	fmt.Fprintf(&b, "Valid lines: %s.\nIf you send nothing by the deadline: %s.\n", strings.Join(q.Choices, ", "), q.Default)
	return b.String()
}
