package kriegsmarine

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// gunneryClass groups target types for the reconstructed Gunnery Table.
func gunneryClass(t string) string {
	switch t {
	case "BB", "BC", "PD", "ACD", "AS":
		return "heavy"
	case "CV", "CA", "CL", "AO", "ML":
		return "medium"
	}
	return "light"
}

// GunneryTable gives, for a 2d6 gunnery roll against a target class, the
// result: "hit", "flood", "fjord" (hit only in a fjord hex) or "immobile"
// (hit only on a ship that cannot sail). Source: 8.23 example (CL against
// CL: 7 "if the target cannot sail, hit 1", 8 "if in a fjord hex, hit 1",
// 5 and 6 nothing); the rest is reconstructed — the chart on PAC #2 is not
// transcribed: big ships are harder to hurt, a 12 floods.
var GunneryTable = map[string]engine.Table[string]{
	"heavy": engine.MustTable("Gunnery Table (heavy targets)",
		engine.TableRow[string]{Lo: 2, Hi: 8, Result: ""},
		engine.TableRow[string]{Lo: 9, Hi: 9, Result: "immobile"},
		engine.TableRow[string]{Lo: 10, Hi: 10, Result: "fjord"},
		engine.TableRow[string]{Lo: 11, Hi: 11, Result: "hit"},
		engine.TableRow[string]{Lo: 12, Hi: 12, Result: "flood"}),
	"medium": engine.MustTable("Gunnery Table (cruiser targets)",
		engine.TableRow[string]{Lo: 2, Hi: 6, Result: ""},
		engine.TableRow[string]{Lo: 7, Hi: 7, Result: "immobile"},
		engine.TableRow[string]{Lo: 8, Hi: 8, Result: "fjord"},
		engine.TableRow[string]{Lo: 9, Hi: 11, Result: "hit"},
		engine.TableRow[string]{Lo: 12, Hi: 12, Result: "flood"}),
	"light": engine.MustTable("Gunnery Table (light targets)",
		engine.TableRow[string]{Lo: 2, Hi: 6, Result: ""},
		engine.TableRow[string]{Lo: 7, Hi: 7, Result: "immobile"},
		engine.TableRow[string]{Lo: 8, Hi: 8, Result: "fjord"},
		engine.TableRow[string]{Lo: 9, Hi: 12, Result: "hit"}),
}

// gunnery is a ship's current gunnery value: halved, rounded up, at half
// its hit capacity or on moderate damage (8.62, 8.64); a task force loses 1
// a ship (8.65). Night doubles British and German gunnery (8.29).
func (s *State) gunnery(id string) int {
	g := s.printedGunnery(id)
	if s.unit(id).GunHalved && g > 1 {
		g = (g + 1) / 2 // 8.662: halved for the rest of the game, at least 1
	}
	return g
}

func (s *State) printedGunnery(id string) int {
	d, u := def(id), s.unit(id)
	g := d.Gunnery
	if u.Disabled > 0 {
		return 0 // 8.661
	}
	if s.carrying(id) && g > 1 {
		g-- // 11.2: carrying the Wilfred Force
	}
	if id == "kgv" && s.has(OptKGV) {
		g = 11 // 17.2: front 11, back 5
		if moderate(d, u) || 2*u.Hits >= d.Hits {
			return 5
		}
		return g
	}
	if d.TaskForce() {
		g -= u.Hits
		if g < 0 {
			g = 0
		}
		return g
	}
	if moderate(d, u) || (d.Hits > 0 && 2*u.Hits >= d.Hits) {
		g = (g + 1) / 2
	}
	return g
}

// sink removes a unit and its carrier aircraft (6.24, 8.63).
func (s *State) sink(id string) {
	u := s.unit(id)
	u.Where = AtSunk
	for i := range s.Units {
		if s.Units[i].Base == id && s.Units[i].Where == AtBase {
			s.Units[i].Where = AtSunk
		}
	}
}

// damage applies a gunnery result to a target and says what happened.
func (s *State) damage(id, res string) string {
	d, u := def(id), s.unit(id)
	if u.Where != AtMap {
		return ""
	}
	if strings.HasPrefix(res, "special:") {
		return s.specialDamage(id, res)
	}
	if res == "sink" {
		s.sink(id)
		return d.Name + " is sunk"
	}
	if res == "flood" && d.FloodModerate == 0 {
		res = "hit" // 8.64: no flooding capacity, a flooding is a hit
	}
	switch res {
	case "hit":
		u.Hits++
		if !d.TaskForce() && 2*u.Hits >= d.Hits && u.HalfTurn == 0 {
			u.HalfTurn = s.Turn // 8.62: no torpedoes from the next turn
		}
		capacity := d.Hits
		if moderate(d, u) {
			capacity = (d.Hits + 1) / 2 // 8.64: moderate damage halves hit capacity
		}
		if d.Type == "AGP" || u.Hits >= capacity {
			s.sink(id)
			return d.Name + " is sunk"
		}
		return fmt.Sprintf("%s takes a hit (%d of %d)", d.Name, u.Hits, capacity)
	case "flood":
		u.Flooding++
		if u.Flooding >= d.FloodModerate+d.FloodSink {
			s.sink(id)
			return d.Name + " floods and sinks"
		}
		if u.Flooding == d.FloodModerate {
			if d.Carrier > 0 {
				s.carrierDamaged(id)
			}
			if u.Hits >= (d.Hits+1)/2 {
				s.sink(id)
				return d.Name + " floods, takes moderate damage and sinks"
			}
			return d.Name + " floods and takes moderate damage"
		}
		return fmt.Sprintf("%s takes flooding damage (%d)", d.Name, u.Flooding)
	}
	return ""
}

// fire rolls a unit's gunnery at a target (8.23) and returns the results.
func (s *State) fire(firer, target string, dice int, h engine.Hex, d engine.Dice) []string {
	var out []string
	if oiler(target) {
		return []string{"sink"} // 13.2: an oiler under fire is sunk
	}
	cls := gunneryClass(def(target).Type)
	fjord := portOrFjord(h)
	for i := 0; i < dice; i++ {
		roll := engine.TwoD6(d, "gunnery (8.23)")
		res := GunneryTable[cls].Lookup(roll)
		if res == "fjord" {
			if !fjord {
				continue
			}
			res = "hit"
		}
		if res == "immobile" {
			if s.unit(target).Disabled != s.Turn {
				continue
			}
			res = "hit" // 8.23 example: the target cannot sail
		}
		if res != "" {
			out = append(out, res)
		}
		if roll == 12 {
			// 8.662: a 12 also rolls on the Gunnery Special Damage Table.
			out = append(out, fmt.Sprintf("special:%d", engine.TwoD6(d, "gunnery special damage (8.662)")))
		}
	}
	return out
}

// maxRounds bounds a battle of rules revision 1 in which both sides keep
// choosing to fight. Revision 2 has no bound: 8.25 says "combat continues
// until the surface ships of one side are all destroyed or combat ends",
// and what ends it is the 8.24 check after each round; the one battle that
// would go on for ever, where neither side has anything left to fire, ends
// when a round finds nothing to fire (nothingToFire).
const maxRounds = 6

// battle fights one engagement (8.2, 8.3). Each round every ship fires
// its gunnery at the enemy ship it can hurt most, damage is simultaneous
// (8.221), then torpedoes are fired (8.28); after each round the standing
// encounter choices decide whether it goes on (8.24: "fight" continues,
// anything else ends, and speeds settle a disagreement). Escort and
// restricted fire come from standing orders (8.26, 8.27).
func (s *State) battle(g *Engagement, orders map[engine.Side]*Orders, dice engine.Dice) {
	allied := s.stillAt(g.Allied, g.Hex)
	german := s.stillAt(g.German, g.Hex)
	if len(allied) == 0 || len(german) == 0 {
		g.Outcome = "no battle: one side is gone"
		return
	}
	kind := "Surface battle"
	if g.Kind == ResPursuit {
		kind = "Special pursuit battle"
	}
	var rounds []string
	for round := 1; s.rev().Has(CombatNoRoundCap) || round <= maxRounds; round++ {
		engine.Step(dice, "the rounds of the battle at "+g.Hex.String()+" (8.25)")
		allied = s.stillAt(g.Allied, g.Hex)
		german = s.stillAt(g.German, g.Hex)
		if len(allied) == 0 || len(german) == 0 {
			break
		}
		var dec map[engine.Side]Decision
		if g.Kind != ResPursuit {
			dec = s.roundDecisions(g, orders, round, allied, german, rounds)
		}
		if round > 1 && !s.battleGoesOn(g, orders, dec) {
			break
		}
		ro := roundOrders(orders, dec)
		var shots, results []string
		if g.Kind == ResPursuit {
			shots, results = s.pursuitRound(g, orders[German], allied, german, dice)
		} else {
			restricted := s.restrictedFire(ro, allied, german)
			if s.rev().Has(CombatNoRoundCap) && round > 1 && s.nothingToFire(ro, allied, german, restricted) {
				rounds = append(rounds, "neither side has anything left to fire: combat ends (8.25)")
				break
			}
			var dmg map[string][]string
			shots, dmg = s.gunneryRound(g, ro, round, allied, german, restricted, dice)
			s.silenceDone(allied, german, dmg)
			results = append(s.applyDamage(dmg), s.torpedoes(ro, allied, german, g.Hex, dice)...)
		}
		if len(results) == 0 {
			results = append(results, "no damage")
		}
		rounds = append(rounds, fmt.Sprintf("round %d: %s; %s", round, strings.Join(shots, ", "), strings.Join(results, "; ")))
		if g.Kind == ResPursuit || g.Norwegian || g.Danish {
			break // 8.3 and 9.31: one round
		}
	}
	g.Outcome = strings.Join(rounds, " | ")
	s.logf("both", "combat", g.Hex.String(), "8.2", "%s at %s: %s.", kind, g.Hex, g.Outcome)
	s.injuries(append(append([]string(nil), g.Allied...), g.German...), false, g.Hex, dice)
	if g.Norwegian {
		s.norwegianWithdrawal(g)
		return
	}
	if g.TrackAfter {
		// 8.3, and 8.24 "Important": after the battle the side that may
		// track tries to, if its standing choice wanted contact.
		s.pursuitEvasion(g, dice)
	}
}

// roundDecisions asks the sides that decide each round in person: their
// declarations, and from the second round the end-of-round check of the
// round before (8.24, 8.26-8.28).
func (s *State) roundDecisions(g *Engagement, orders map[engine.Side]*Orders, round int, allied, german, rounds []string) map[engine.Side]Decision {
	var qs []Question
	for _, side := range []engine.Side{Allied, German} {
		own, enemy := allied, german
		if side == German {
			own, enemy = german, allied
		}
		if orders[side].CombatAsk {
			qs = append(qs, s.combatQuestion(side, g, orders, round, own, enemy, rounds))
		}
	}
	return s.decide(DecideCombat, qs)
}

// pursuitRound is the one round of a special pursuit battle (8.3): the
// German (or tracking) side fires one ship as gunnery 2 at one enemy ship,
// which answers with gunnery 1; no torpedoes. From revision 2 the answer
// comes after the German fire is resolved ("After this gunnery is
// resolved, the Allied ship that was fired upon may return fire"), so a
// ship it sank returns none; revision 1 resolved both at once.
func (s *State) pursuitRound(g *Engagement, o *Orders, allied, german []string, dice engine.Dice) (shots, results []string) {
	gf, at := s.pursuitFire(o, allied, german)
	first := s.fire(gf, at, 2, g.Hex, dice)
	shots = append(shots, fmt.Sprintf("%s fires at %s", def(gf).Name, def(at).Name))
	dmg := map[string][]string{at: first}
	if s.rev().Has(PursuitTargetAfloat) {
		results, dmg = s.applyDamage(dmg), map[string][]string{}
	}
	var answer []string
	if s.unit(at).Where == AtMap {
		answer = s.fire(at, gf, 1, g.Hex, dice)
		dmg[gf] = append(dmg[gf], answer...)
		shots = append(shots, fmt.Sprintf("%s answers", def(at).Name))
	} else {
		shots = append(shots, fmt.Sprintf("%s is sunk before it can answer", def(at).Name))
	}
	s.silenceDone(allied, german, map[string][]string{at: first, gf: answer})
	return shots, append(results, s.applyDamage(dmg)...)
}

// pursuitFire is the German ship that fires in a pursuit battle and its
// target (8.3: "The German player selects 1 of his own ships in the combat
// hex and fires"). From rules revision 2 the German player's choice is his
// "target" order: the first of his ships there (by id) whose order names a
// type among the enemy ships fires, at the one of that type it can hurt
// most (8.271). Without one, and in revision 1, his strongest ship fires
// at the enemy's strongest.
func (s *State) pursuitFire(o *Orders, allied, german []string) (firer, target string) {
	if s.rev().Has(PursuitEvasionAlways) {
		for _, id := range german {
			if aims(o, id, allied) {
				return id, weakest(s, preferred(o, id, allied))
			}
		}
	}
	return strongest(s, german), strongest(s, allied)
}

// aims reports whether unit has a target order naming the type of one of
// the ships ids.
func aims(o *Orders, unit string, ids []string) bool {
	for _, t := range o.Targets {
		if t.Unit != unit {
			continue
		}
		for _, id := range ids {
			if def(id).Type == t.Type {
				return true
			}
		}
	}
	return false
}

// restrictedFire is which sides declare restricted fire this round and
// may (8.26).
func (s *State) restrictedFire(ro map[engine.Side]*Orders, allied, german []string) map[engine.Side]bool {
	restricted := map[engine.Side]bool{}
	for _, side := range []engine.Side{Allied, German} {
		own := allied
		if side == German {
			own = german
		}
		if ro[side].Restrict && s.mayRestrict(own) {
			restricted[side] = true
		}
	}
	return restricted
}

// roundGunnery is the dice a ship's gunnery rolls this round (8.23):
// halved by restricted fire, the declarer's gunnery-1 units falling to 0
// (8.26), doubled for British and German ships at night (8.29), +1 with a
// commander (10.2; not in a pursuit battle, 10.33).
func (s *State) roundGunnery(id string, restricted map[engine.Side]bool) int {
	n := s.gunnery(id)
	if restricted[Allied] || restricted[German] {
		if n == 1 && restricted[def(id).Side] {
			n = 0
		} else {
			n = (n + 1) / 2
		}
	}
	if !IsDay(s.Turn) && (def(id).Nation == "UK" || def(id).Nation == "DE") {
		n *= 2
	}
	if n > 0 && s.commanded(id) {
		n++
	}
	return n
}

// gunneryRound is the gunnery of one round of a surface battle (8.221-
// 8.23, 8.26, 8.27): the shots fired and the damage they do, applied
// afterwards all at once.
func (s *State) gunneryRound(g *Engagement, ro map[engine.Side]*Orders, round int, allied, german []string, restricted map[engine.Side]bool, dice engine.Dice) ([]string, map[string][]string) {
	escorted := map[string]bool{}
	if round == 1 {
		escorted = s.escorts(g, ro, allied, german)
	}
	var shots []string
	if restricted[Allied] || restricted[German] {
		shots = append(shots, "restricted fire (8.26)")
	}
	for id := range escorted {
		shots = append(shots, def(id).Name+" is escorted (8.27)")
	}
	sort.Strings(shots)
	dmg := map[string][]string{}
	for _, id := range append(append([]string(nil), allied...), german...) {
		enemies := german
		if def(id).Side == German {
			enemies = allied
		}
		if escorted[id] {
			continue // 8.27: an escorted ship does not fire
		}
		if s.unit(id).Silenced > 0 {
			continue // 8.662 result 5
		}
		var targets []string
		for _, e := range enemies {
			if !escorted[e] {
				targets = append(targets, e)
			}
		}
		if len(targets) == 0 {
			continue
		}
		n := s.roundGunnery(id, restricted)
		if n == 0 {
			continue
		}
		t := weakest(s, preferred(ro[def(id).Side], id, targets))
		dmg[t] = append(dmg[t], s.fire(id, t, n, g.Hex, dice)...)
		shots = append(shots, fmt.Sprintf("%s fires at %s", def(id).Name, def(t).Name))
	}
	return shots, dmg
}

// silenceDone ends the silence of ships that sat out this round (8.662
// result 5), unless this round silenced them again.
func (s *State) silenceDone(allied, german []string, dmg map[string][]string) {
	for _, id := range append(append([]string(nil), allied...), german...) {
		if u := s.unit(id); u.Silenced > 0 && !dmgHas(dmg, id) {
			u.Silenced--
		}
	}
}

// nothingToFire reports whether a round about to be fought would fire
// nothing at all, no gunnery die and no torpedo, and no ship only sits it
// out silenced (8.662) to fire again later. Such a round changes nothing,
// nor would any after it: the battle would go on for ever. 8.25 ends
// combat when one side is gone or "combat ends", and the 8.24 check is what
// ends it; with both sides' standing choice "fight" it never does, so a
// battle in which neither side has anything left to fire ends here (rules
// revision 2; revision 1 stopped every battle after 6 rounds instead).
func (s *State) nothingToFire(ro map[engine.Side]*Orders, allied, german []string, restricted map[engine.Side]bool) bool {
	for _, id := range append(append([]string(nil), allied...), german...) {
		if s.unit(id).Silenced > 0 || s.roundGunnery(id, restricted) > 0 || s.torpPoints(ro, id) > 0 {
			return false
		}
	}
	return true
}

// applyDamage applies every side's results at once (8.221), in unit order.
func (s *State) applyDamage(dmg map[string][]string) []string {
	var ids []string
	for id := range dmg {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []string
	for _, id := range ids {
		for _, r := range dmg[id] {
			if x := s.damage(id, r); x != "" {
				out = append(out, x)
			}
		}
	}
	return out
}

// battleGoesOn is the end-of-round check (8.24) from the standing choices,
// or for a side that decided in person its choice: a side that chose
// "fight" continues. When one side wants to end, the slowest ships' speeds
// decide: within 1 it ends, the faster side has its way otherwise.
func (s *State) battleGoesOn(g *Engagement, orders map[engine.Side]*Orders, dec map[engine.Side]Decision) bool {
	allied, german := s.stillAt(g.Allied, g.Hex), s.stillAt(g.German, g.Hex)
	if len(allied) == 0 || len(german) == 0 {
		return false
	}
	choice := func(side engine.Side, own []string) string {
		c := choiceOf(side, orders[side], own, g.Hex)
		if d, ok := dec[side]; ok && !d.Standing && d.Choice != "" {
			c = d.Choice
		}
		return c
	}
	af := choice(Allied, allied) == ChoiceFight
	gf := choice(German, german) == ChoiceFight
	switch {
	case af && gf:
		return true
	case !af && !gf:
		return false
	}
	slow := func(ids []string) int {
		m := 99
		for _, id := range ids {
			if a := baseAllowance(def(id), s.unit(id), s.Turn); a < m {
				m = a
			}
		}
		return m
	}
	fighter, ender := slow(allied), slow(german)
	if gf {
		fighter, ender = ender, fighter
	}
	return fighter-ender >= 2
}

// torpAvailable is how many torpedo points a ship may fire now (3.411,
// 8.28, 8.281, 8.282, 8.62, 8.65).
func (s *State) torpAvailable(id string) int {
	d, u := def(id), s.unit(id)
	if d.Torpedo == 0 || d.Sub() || u.Disabled > 0 || moderate(d, u) || (u.HalfTurn > 0 && u.HalfTurn < s.Turn) {
		return 0
	}
	strength := d.Torpedo
	if d.TaskForce() {
		strength -= u.Hits
	}
	var n int
	switch d.TorpMode {
	case TorpTurn:
		if u.TorpTurn > 0 {
			return 0
		}
		n = strength
	case TorpOnce:
		n = strength - u.TorpUsed
	case TorpLimit:
		n = d.TorpPerTurn - u.TorpTurn
		if left := strength - u.TorpUsed; left < n {
			n = left
		}
	case TorpReload:
		total := strength
		if !(d.Type == "DD" && s.Objective.Result.Kind == ObjInvasion) {
			// 8.282: the R boxes reload once, from the next turn; not for
			// German destroyers on the invasion objective (9.1).
			if u.TorpUsed > 0 && u.TorpTurn < u.TorpUsed {
				total = 2 * strength
			}
		}
		n = total - u.TorpUsed
		if n > strength-u.TorpTurn {
			n = strength - u.TorpTurn
		}
	}
	if n < 0 {
		return 0
	}
	return n
}

// torpPoints is how many torpedo points a ship fires this round: all it
// may, or fewer if its orders cap them (8.28: some or all of its strength).
func (s *State) torpPoints(orders map[engine.Side]*Orders, id string) int {
	n := s.torpAvailable(id)
	for _, l := range orders[def(id).Side].TorpCaps {
		if l.Unit == id && l.Points < n {
			n = l.Points
		}
	}
	return n
}

// torpedoes is the torpedo part of a round (8.28): every ship fires all it
// may at the enemy's biggest ship; at night each point rolls twice (8.29);
// German torpedoes are +2 unless option torpedoes-work (17.51).
func (s *State) torpedoes(orders map[engine.Side]*Orders, allied, german []string, h engine.Hex, dice engine.Dice) []string {
	type salvo struct {
		firer, target string
		points        int
	}
	var salvos []salvo
	for _, id := range append(append([]string(nil), allied...), german...) {
		n := s.torpPoints(orders, id)
		if n == 0 || s.unit(id).Where != AtMap {
			continue
		}
		enemies := german
		if def(id).Side == German {
			enemies = allied
		}
		enemies = s.stillAt(enemies, h)
		if len(enemies) == 0 {
			continue
		}
		if s.rev().Has(TargetAimsTorpedoes) {
			// 8.28 "After allocating torpedo strength to targets": a
			// unit's target order aims its torpedoes too (rules revision
			// 2; revision 1 always took the biggest ship).
			enemies = preferred(orders[def(id).Side], id, enemies)
		}
		salvos = append(salvos, salvo{id, s.chooseTarget(enemies, dice, "torpedo target (8.28)"), n})
	}
	var out []string
	for _, sv := range salvos {
		u := s.unit(sv.firer)
		u.TorpUsed += sv.points
		u.TorpTurn += sv.points
		mod := 0
		if def(sv.firer).Side == German && !s.has(OptTorpedoes) {
			mod = torpGerman
		}
		rolls := sv.points
		if !IsDay(s.Turn) {
			rolls *= 2 // 8.29
		}
		for i := 0; i < rolls && s.unit(sv.target).Where == AtMap; i++ {
			out = append(out, def(sv.firer).Name+" "+s.torpedo(sv.target, mod, dice, "torpedo attack (8.28)"))
		}
	}
	return out
}

// pursuitEvasion: after the pursuit battle the side being pursued makes an
// evasion determination, and is tracked if it fails (8.3).
func (s *State) pursuitEvasion(g *Engagement, dice engine.Dice) {
	al, ge := s.stillAt(g.Allied, g.Hex), s.stillAt(g.German, g.Hex)
	if len(al) == 0 || len(ge) == 0 {
		return
	}
	pure := true
	for _, id := range al {
		if n := def(id).Nation; n != "NO" && n != "DK" {
			pure = false
		}
	}
	tr, ev, trs, evs := Allied, German, al, ge
	if pure {
		tr, ev, trs, evs = German, Allied, ge, al
	}
	es, ts := s.minEvasion(evs), s.minEvasion(trs)
	roll := engine.TwoD6(dice, "evasion after the battle (8.3, 8.24)") + s.evasionMod(evs, trs)
	rule := "8.24"
	if g.Kind == ResPursuit {
		rule = "8.3"
	}
	if evades(es, ts, roll) {
		s.logf("both", "evasion", g.Hex.String(), rule, "Evasion after the battle at %s: speed %d against %d, rolled %d: evasion succeeds.", g.Hex, es, ts, roll)
		return
	}
	s.logf("both", "evasion", g.Hex.String(), rule, "Evasion after the battle at %s: speed %d against %d, rolled %d: evasion fails.", g.Hex, es, ts, roll)
	s.addTrack(tr, trs, ev, evs, g.Hex)
}

// strongest is the unit with the most gunnery (then by id).
func strongest(s *State, ids []string) string {
	best := ids[0]
	for _, id := range ids[1:] {
		if s.gunnery(id) > s.gunnery(best) {
			best = id
		}
	}
	return best
}

// weakest is the target most likely to be hurt: lightest class, then most
// damaged, then by id.
func weakest(s *State, ids []string) string {
	rank := map[string]int{"light": 0, "medium": 1, "heavy": 2}
	best := ids[0]
	for _, id := range ids[1:] {
		a, b := rank[gunneryClass(def(id).Type)], rank[gunneryClass(def(best).Type)]
		if a < b || (a == b && s.unit(id).Hits > s.unit(best).Hits) {
			best = id
		}
	}
	return best
}

// mayRestrict reports whether a side may declare restricted fire: none of
// its ships in the battle has moderate damage or half its speed (8.26).
func (s *State) mayRestrict(ids []string) bool {
	for _, id := range ids {
		if moderate(def(id), s.unit(id)) || s.unit(id).Disabled > 0 {
			return false
		}
	}
	return true
}

// escorts returns the ships escorted in the first round (8.27), as many as
// escortsAllowed gives each side. The round's orders (standing, or decided
// in person) choose the ships, in the order given; the escorting task
// forces cannot themselves be escorted.
func (s *State) escorts(g *Engagement, orders map[engine.Side]*Orders, allied, german []string) map[string]bool {
	out := map[string]bool{}
	for _, side := range []engine.Side{Allied, German} {
		own, enemy := allied, german
		if side == German {
			own, enemy = german, allied
		}
		allowed := s.escortsAllowed(g, own, enemy)
		for _, id := range orders[side].Escorts {
			d := def(id)
			if allowed == 0 || !contains(own, id) || escortingType(s.rev(), d) {
				continue
			}
			out[id] = true
			allowed--
		}
	}
	return out
}

// specialDamage applies the Gunnery Special Damage Table (8.662), rolled
// with 2d6 after a gunnery roll of 12. Source: 8.662 names results 5, 6, 7,
// 9 and 10; the trigger (a 12) and "no effect" on the other rolls are
// reconstructed.
func (s *State) specialDamage(id, res string) string {
	d, u := def(id), s.unit(id)
	var roll int
	fmt.Sscanf(strings.TrimPrefix(res, "special:"), "%d", &roll)
	switch roll {
	case 5:
		u.Silenced = 1
		return fmt.Sprintf("%s: special damage %d, cannot fire next round", d.Name, roll)
	case 6:
		u.GunHalved = true
		return fmt.Sprintf("%s: special damage %d, gunnery halved for the rest of the game", d.Name, roll)
	case 7:
		for _, other := range s.onMap(d.Side, u.Hex, func(x *UnitDef) bool { return x.Surface() }) {
			if other != id {
				return fmt.Sprintf("%s: special damage %d, and %s", d.Name, roll, s.damage(other, "hit"))
			}
		}
	case 9:
		u.ForcedHome = true
		return fmt.Sprintf("%s: special damage %d, forced to return to port", d.Name, roll)
	case 10:
		if s.torpAvailable(id) > 0 {
			u.TorpUsed++
			return fmt.Sprintf("%s: special damage %d, its torpedoes explode: %s", d.Name, roll, s.damage(id, "hit"))
		}
	}
	return fmt.Sprintf("%s: special damage %d, no effect", d.Name, roll)
}

// dmgHas reports whether a silencing result for id is among this round's
// results (it then applies to the next round, 8.662).
func dmgHas(dmg map[string][]string, id string) bool {
	for _, r := range dmg[id] {
		if r == "special:5" {
			return true
		}
	}
	return false
}

// oiler reports whether a unit is a German fleet oiler sunk as soon as it is
// attacked (13.2; Nordmark fights like other ships, 13.4).
func oiler(id string) bool {
	d := def(id)
	return d.Type == "AO" && d.ID != "nordmark"
}

// lonelyOilers: in the combat phase an oiler alone in a hex with Allied
// ships or submarines is sunk, and so is one whose search found the enemy
// (13.2).
func (s *State) lonelyOilers() {
	for _, u := range s.Units {
		if u.Where != AtMap || !oiler(u.ID) {
			continue
		}
		company := s.onMap(German, u.Hex, func(d *UnitDef) bool { return d.Surface() && !oiler(d.ID) })
		enemy := s.onMap(Allied, u.Hex, func(d *UnitDef) bool { return !d.Air })
		if len(company) == 0 && len(enemy) > 0 {
			s.sink(u.ID)
			s.logf("both", "combat", u.Hex.String(), "13.2", "The oiler %s, alone with enemy ships at %s, is sunk.", def(u.ID).Name, u.Hex)
		}
	}
}

// carrierDamaged: a carrier with moderate damage takes no aircraft; those
// aboard are lost, those in the air this turn land at a friendly base in
// reach or are lost too (6.24, 8.522 example).
func (s *State) carrierDamaged(id string) {
	side := def(id).Side
	for i := range s.Units {
		a := &s.Units[i]
		if a.Base != id || a.Where != AtBase {
			continue
		}
		if a.Struck != s.Turn {
			a.Where = AtSunk
			continue
		}
		from := s.unit(id).Hex
		moved := false
		for _, af := range TheMap().Airfields() {
			ok := (side == Allied && af.Airfield.Country == "UK") || (side == German && (af.Airfield.Country == "DK" || af.Airfield.Country == "DE"))
			if ok && af.Hex.Distance(from) <= def(a.ID).Radius {
				a.Base, moved = af.Airfield.Name, true
				break
			}
		}
		if !moved {
			for _, c := range s.Units {
				cd := def(c.ID)
				if c.ID != id && cd.Side == side && cd.Carrier > 0 && c.Where == AtMap && !moderate(cd, &c) && c.Hex.Distance(from) <= def(a.ID).Radius {
					a.Base, moved = c.ID, true
					break
				}
			}
		}
		if !moved {
			a.Where = AtSunk
		}
	}
}

// escortingType reports whether a unit is a task force of a type that
// gives escorts (8.27: "every 1 TB minelayer or DD destroyer surface ship
// task force unit (not a PT torpedo boat)", and "each surface ship unit
// wishing to be escorted requires 1 destroyer or minelayer task force
// unit"): destroyer, torpedo boat and, from revision 2, minelayer task
// forces (revision 1 left the minelayers out).
func escortingType(rev engine.Rev, d *UnitDef) bool {
	if !d.TaskForce() {
		return false
	}
	return d.Type == "DD" || d.Type == "TB" || (d.Type == "ML" && rev.Has(MinelayerEscorts))
}

// escortsAllowed is how many ships a side may escort in the first round of
// battle g (8.27): none at night (8.29) or outside a hex entirely of sea
// (coastal and fjord hexes count as sea on the invasion turn); else one for
// each destroyer or torpedo boat task force of two ships or more taking
// part (and minelayer task forces, 8.27, from revision 2), plus one for
// each unit beyond an advantage of 3 in numbers.
func (s *State) escortsAllowed(g *Engagement, own, enemy []string) int {
	hi, ok := TheMap().Info(g.Hex)
	coastal := !ok || hi.Terrain != Sea || hi.Fjord
	if !IsDay(s.Turn) || (coastal && s.Turn != s.InvasionTurn) {
		return 0
	}
	allowed := 0
	for _, id := range own {
		d := def(id)
		if escortingType(s.rev(), d) && d.Ships-s.unit(id).Hits >= 2 {
			allowed++
		}
	}
	if extra := len(own) - len(enemy) - 2; extra > 0 {
		allowed += extra
	}
	return allowed
}

// preferred narrows candidate targets to the type a unit's target order
// names, when one of that type is there (8.12, 8.271, 8.521).
func preferred(o *Orders, unit string, ids []string) []string {
	for _, t := range o.Targets {
		if t.Unit != unit {
			continue
		}
		var out []string
		for _, id := range ids {
			if def(id).Type == t.Type {
				out = append(out, id)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return ids
}
