package norway1940

import (
	"fmt"
	"sort"
	"strings"
)

// fileProblem is a rule only the whole order file can break, with the
// line that breaks it (the last order that brought the fleet or the units
// concerned) and what would be valid instead.
type fileProblem struct {
	rule, msg, valid string
	line             int
}

// finalCheck checks what only the whole set of orders can break: four
// fleets a box (11.1.3, 9.13.4), the Allied never filling a sea area with
// combat points (9.13.4), land support only where an attack is made
// (8.9.4.1) and stacking (11.1.2, 10.2.9, 18).
func (c *turnCtx) finalCheck() *fileProblem {
	for _, check := range []func() *fileProblem{c.fleetLimit, c.alliedBoxes, c.supportWithoutAttack, c.stacking} {
		if p := check(); p != nil {
			return p
		}
	}
	return nil
}

// fleetsIn are side x's fleet markers in each naval box.
func (c *turnCtx) fleetsIn() map[string][]*Fleet {
	out := map[string][]*Fleet{}
	for _, f := range c.s.Fleets {
		if f.Side == c.x && isBox(f.Where) {
			out[f.Where] = append(out[f.Where], f)
		}
	}
	return out
}

// fleetLimit is 11.1.3: no more than 4 friendly fleets in one sea box at
// the end of the naval movement. The fleet that breaks it is the one the
// latest order line put there; the hint names the boxes it could reach
// that have room, and the fleets there it could merge with.
func (c *turnCtx) fleetLimit() *fileProblem {
	in := c.fleetsIn()
	var boxes []string
	for b := range in {
		boxes = append(boxes, b)
	}
	sort.Strings(boxes)
	for _, b := range boxes {
		fs := in[b]
		if len(fs) <= 4 {
			continue
		}
		last := fs[0]
		for _, f := range fs[1:] {
			if c.lineOf["fleet:"+f.ID] > c.lineOf["fleet:"+last.ID] {
				last = f
			}
		}
		var others []string
		for _, f := range fs {
			if f != last {
				others = append(others, f.ID)
			}
		}
		return &fileProblem{rule: "11.1.3", line: c.lineOf["fleet:"+last.ID],
			msg:   fmt.Sprintf("fleet %s would be the %s fleet of yours in %s (with %s): no more than 4 friendly fleets may occupy one sea box", last.ID, ordinal(len(fs)), b, strings.Join(others, " ")),
			valid: c.roomFor(last, in)}
	}
	return nil
}

// roomFor says where a fleet that overfills its box would fit: the boxes
// it may reach from where it came that hold fewer than 4 of the side's
// fleets, or a merge with a fleet of its box.
func (c *turnCtx) roomFor(f *Fleet, in map[string][]*Fleet) string {
	from := c.fleetFrom[f.ID]
	var to []string
	for _, sea := range seaAreas {
		for _, b := range data.BoxesOf(sea) {
			if b == f.Where || len(in[b]) >= 4 {
				continue
			}
			if _, _, msg := c.checkDest(from, b, f); msg == "" {
				to = append(to, b)
			}
		}
	}
	var parts []string
	if len(to) > 0 {
		parts = append(parts, fmt.Sprintf("send %s to a box with room: %s", f.ID, strings.Join(to, ", ")))
	}
	var merge []string
	for _, g := range in[f.Where] {
		if g == f {
			continue
		}
		if _, _, msg := c.check(Order{Verb: "fleet", Kind: "merge", ID: g.ID, Target: f.ID}); msg == "" {
			merge = append(merge, fmt.Sprintf("fleet %s merge %s", g.ID, f.ID))
		}
	}
	if len(merge) > 0 {
		parts = append(parts, "or merge it: "+strings.Join(merge, " | "))
	}
	if len(parts) == 0 {
		return "at most 4 of your fleets in " + f.Where + ": leave " + f.ID + " where it was"
	}
	return strings.Join(parts, "; ")
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// alliedBoxes is 9.13.4: the Allied player cannot occupy all the naval
// boxes of a sea area with naval combat points.
func (c *turnCtx) alliedBoxes() *fileProblem {
	if c.x != Allied {
		return nil
	}
	in := c.fleetsIn()
	for _, sea := range seaAreas {
		var last *Fleet
		held := 0
		for _, b := range data.BoxesOf(sea) {
			with := false
			for _, f := range in[b] {
				if f.Combat == 0 {
					continue
				}
				with = true
				if last == nil || c.lineOf["fleet:"+f.ID] > c.lineOf["fleet:"+last.ID] {
					last = f
				}
			}
			if with {
				held++
			}
		}
		if held < len(data.BoxesOf(sea)) || last == nil {
			continue
		}
		var other []string
		for _, b := range data.BoxesOf(sea) {
			if b != last.Where {
				other = append(other, b)
			}
		}
		return &fileProblem{rule: "9.13.4", line: c.lineOf["fleet:"+last.ID],
			msg:   fmt.Sprintf("with fleet %s in %s, Allied combat points would occupy every box of the %s sea area", last.ID, last.Where, sea),
			valid: fmt.Sprintf("at most %d of the %d boxes of the %s sea area with combat points: %s to a box your combat points already hold (%s) or out of the area", len(data.BoxesOf(sea))-1, len(data.BoxesOf(sea)), sea, last.ID, strings.Join(other, ", "))}
	}
	return nil
}

// supportWithoutAttack is 8.9.4.1: land support bombers support a combat.
func (c *turnCtx) supportWithoutAttack() *fileProblem {
	var sup []string
	for area := range c.support {
		sup = append(sup, area)
	}
	sort.Strings(sup)
	for _, area := range sup {
		if c.attackAt[area] == nil && !c.mustAttack[area] && !c.landingAt(area) {
			var at []string
			for a := range c.attackAt {
				at = append(at, a)
			}
			for a := range c.mustAttack {
				if c.attackAt[a] == nil {
					at = append(at, a)
				}
			}
			sort.Strings(at)
			valid := "land support only over an area where your units attack this turn"
			if len(at) > 0 {
				valid += ": " + strings.Join(at, ", ")
			}
			return &fileProblem{rule: "8.9.4.1", line: c.lineOf["support:"+area], msg: fmt.Sprintf("land support over %s without an attack there", area), valid: valid}
		}
	}
	return nil
}

// stacking is 11.1.2 (with 10.2.9 and 18) in the areas the side's units
// entered; the line is the last order that brought units there.
func (c *turnCtx) stacking() *fileProblem {
	areas := make([]string, 0, len(c.entered))
	for a := range c.entered {
		areas = append(areas, a)
	}
	sort.Strings(areas)
	for _, a := range areas {
		if r, m := stackingProblem(c.s, a, c.x); m != "" {
			valid := fmt.Sprintf("at most 7 battalion equivalents of yours in %s (a regiment or brigade 3, a battalion 1; with 2 regiments one artillery or AA and one engineer battalion free; HQs, paratroops and supplies free)", a)
			switch r {
			case "10.2.9":
				valid = "one HQ an area"
			case "18":
				valid = "one Norwegian regiment and one battalion an area until turn 6"
			}
			return &fileProblem{rule: r, line: c.lineOf["area:"+a], msg: m, valid: valid}
		}
	}
	return nil
}
