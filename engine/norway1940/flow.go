package norway1940

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// playerTurn resolves the phasing side's naval, air and land phases (5.2).
func playerTurn(s *State, o *Orders, dice engine.Dice) {
	x := s.Phasing
	c := newTurnCtx(s, x, dice)
	s.side(x).Standing.Keep = 0
	recallSubs(s, x)
	lines := append([]Order(nil), o.Lines...)
	sort.SliceStable(lines, func(i, j int) bool { return stage(lines[i]) < stage(lines[j]) })
	run := func(st int) {
		for _, ord := range lines {
			if stage(ord) != st {
				continue
			}
			if rule, _, msg := c.check(ord); msg != "" {
				s.logTo(x, rule, "order on line %d (%s) not carried out: %s", ord.Line, formatOrder(ord), msg)
				continue
			}
			c.exec(ord)
		}
	}
	// Naval phase (9): movement, submarines, landings, combat.
	run(0)
	c.thunderFleets()
	run(1)
	c.reactions()
	c.resolveLandings()
	run(2)
	batteryFire(s, dice, x)
	// Air phase (8): parachutes, recon, then the other missions.
	run(3)
	run(4)
	c.interceptions(lines)
	run(5)
	// Land phase (10): movement, then combat.
	run(6)
	run(7)
	c.landCombats()
	run(8)
}

// thunderFleets sends home the fleets left at sea in a thunderstorm area
// after the movement step (6.3.4: they must make for port or a sea area
// with better weather).
func (c *turnCtx) thunderFleets() {
	s := c.s
	for _, f := range append([]*Fleet(nil), s.Fleets...) {
		if f.Side != c.x || !isBox(f.Where) || s.seaWeather(seaOf(f.Where)) != "thunder" {
			continue
		}
		home := Germany
		if f.Side == Allied {
			home = UK
		}
		for _, p := range data.PortsOf(seaOf(f.Where)) {
			if s.controller(p) == f.Side {
				home = p
				break
			}
		}
		if f.Side == Allied && f.Nation == "norwegian" && home == UK {
			continue
		}
		s.log("6.3.4", "fleet %s runs for %s before the thunderstorm", f.ID, home)
		f.Where = home
		dock(s, f, true)
	}
}

// endPlayerTurn closes a player-turn and opens the next one.
func endPlayerTurn(s *State, dice engine.Dice) {
	x := s.Phasing
	// 11.1.5: overstacked areas lose units of the owner's choosing (here the
	// weakest).
	for _, a := range data.Areas {
		for {
			engine.Step(dice, "overstacking eliminations in "+a.Name+" (11.1.5)")
			if r, _ := stackingProblem(s, a.Name, x); r != "11.1.2" {
				break
			}
			us := s.combatIn(a.Name, x)
			sort.SliceStable(us, func(i, j int) bool { return us[i].Mod < us[j].Mod })
			if s.rev().Has(OverstackingByLosses) {
				us = byPriority(us, s.side(x).Standing.Losses)
			}
			us[0].Dead = true
			s.log("11.1.5", "%s is eliminated: %s is overstacked", us[0].ID, a.Name)
		}
	}
	for _, u := range s.Units {
		if u.Side == x {
			u.Half, u.Strait = false, false
		}
	}
	if x == German {
		for _, u := range s.Units {
			if u.Type == "supply" && u.Loc == Germany && !u.Dead {
				u.Dead = true
				s.logTo(German, "7.3", "supply unit %s was not shipped and is lost", u.ID)
			}
		}
		s.RailNet = germanRailNet(s)
		s.Phasing = Allied
		reorg(s, Allied, dice)
		return
	}
	embarkation(s)
	endTurn(s)
	if s.Over {
		return
	}
	s.Turn++
	s.Phasing = German
	startTurn(s, dice)
}

// germanRailNet is the railways the German controls from Oslo (10.3.7.1,
// 10.3.7.3).
func germanRailNet(s *State) []string {
	if s.controller("Oslo") != German || enemyIn(s, "Oslo", German) {
		return nil
	}
	seen := map[string]bool{"Oslo": true}
	queue := []string{"Oslo"}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		for _, e := range data.Graph.Edges(a) {
			if e.Kind != "rail" || seen[e.To] || e.To == "Sweden" || s.controller(e.To) != German || enemyIn(s, e.To, German) {
				continue
			}
			seen[e.To] = true
			queue = append(queue, e.To)
		}
	}
	out := make([]string, 0, len(seen))
	for a := range seen {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// startTurn opens turn s.Turn: weather (6), reinforcements (4.1), air
// points (8.2), German supply units (7.3), sudden death (12.4) and the
// German reorganisation (5.2.2).
func startTurn(s *State, dice engine.Dice) {
	t := s.Turn
	resetAir(s)
	for _, f := range s.Fields {
		f.Used = 0
	}
	for _, f := range s.Fleets {
		f.CarrierUsed = 0
	}
	for _, c := range data.Carriers {
		if c.Turn == t {
			s.pool(c.Side, c.Nation, c.Port).Carriers += c.Combat
		}
	}
	if t >= 6 {
		r := dice.Roll(6, "6.1 weather")
		clamp := func(n int) int {
			if n < 1 {
				return 1
			}
			if n > 6 {
				return 6
			}
			return n
		}
		s.Weather = Weather{Roll: r, Centre: data.Weather.Lookup(r), North: data.Weather.Lookup(clamp(r + 1)), South: data.Weather.Lookup(clamp(r - 1))}
		s.log("6.2", "weather roll %d: South %s, Centre %s, North %s", r, s.Weather.South, s.Weather.Centre, s.Weather.North)
	}
	var marks []*Interdiction
	for _, m := range s.Marks {
		m.Count-- // 10.3.6: one marker removed a turn
		if m.Count > 0 {
			marks = append(marks, m)
		}
	}
	s.Marks = marks
	for _, p := range data.Pools {
		if p.Turn == t && t > 1 {
			q := s.pool(p.Side, p.Nation, p.Port)
			q.Combat += p.Combat
			q.Transport += p.Transport
		} else if p.Turn == 1 && t == 1 {
			q := s.pool(p.Side, p.Nation, p.Port)
			q.Combat += p.Combat
			q.Transport += p.Transport
			q.Groups = append([]int(nil), p.Groups...)
		}
	}
	for _, u := range s.Units {
		if len(u.Loc) > 8 && u.Loc[:8] == "Pending:" && u.Entry <= t {
			u.Loc = u.Loc[8:]
			s.log("4.1", "%s enters at %s", u.ID, u.Loc)
		}
		if u.Type == "hq" && u.Dead && u.Returns == t {
			srcs := sources(s, u.Side)
			if len(srcs) > 0 {
				u.Dead, u.Steps, u.Loc, u.Fleet = false, 1, srcs[0], ""
				s.log("10.2.9", "HQ %s returns at %s", u.ID, u.Loc)
			}
		}
	}
	if t >= 6 {
		for i := 0; i < 2; i++ {
			u := &Unit{ID: s.newID("S"), Side: German, Nation: "german", Type: "supply", Size: "sup", Steps: 2, MaxSteps: 2, Loc: Germany, Entry: t}
			s.Units = append(s.Units, u)
		}
		s.logTo(German, "7.3", "two land supply units are ready in Germany")
	}
	if t == 11 || t == 14 || t == 17 {
		suddenDeath(s)
		if s.Over {
			return
		}
	}
	reorg(s, German, dice)
}

// reorg is side x's reorganisation and supply phase (5.2.2).
func reorg(s *State, x engine.Side, dice engine.Dice) {
	reuseDecoys(s, x)
	recoverMarkers(s, x)
	progressWorks(s, x)
	reorgSupply(s, x)
}

// reuseDecoys puts side x's decoys returned last turn back in play (9.8).
func reuseDecoys(s *State, x engine.Side) {
	ss := s.side(x)
	for i := range ss.Returned {
		for j := range ss.Decoys {
			if ss.Decoys[j].Nation == ss.Returned[i].Nation {
				ss.Decoys[j].N += ss.Returned[i].N
			}
		}
		ss.Returned[i].N = 0
	}
}

// recoverMarkers removes a blast marker from side x's units and a hit from its
// airfields, each after a full turn.
func recoverMarkers(s *State, x engine.Side) {
	t := s.Turn
	for _, u := range s.Units {
		if u.Side == x && u.Blast > 0 && u.BlastTurn <= t-2 {
			u.Blast--
			u.BlastTurn = t - 1
		}
	}
	for _, f := range s.Fields {
		if s.controller(f.Area) == x && f.Hits > 0 && f.HitTurn <= t-2 {
			f.Hits--
			f.HitTurn = t - 1
		}
	}
}

// progressWorks advances side x's works (13.2.2, 13.3, 14.4, 15.3.2): two
// full turns without other activity.
func progressWorks(s *State, x engine.Side) {
	var works []*Work
	for _, w := range s.Works {
		if w.Side != x || progressWork(s, x, w) {
			works = append(works, w)
		}
	}
	s.Works = works
}

// progressWork advances one of side x's works and tells whether it stays:
// a finished work is removed once abandoned (13.3.4), one whose unit did
// anything else is abandoned (13.3.1), repairs are made (13.2.2, 15.3.2)
// and others completed after two turns.
func progressWork(s *State, x engine.Side, w *Work) bool {
	t := s.Turn
	u := s.unit(w.Unit)
	present := len(s.combatIn(w.Area, x)) > 0
	if w.Done {
		if !present {
			s.log("13.3.4", "the abandoned %s at %s is removed", w.Kind, w.Area)
		}
		return present
	}
	if u == nil || u.Dead || u.Loc != w.Area || u.Busy >= w.Start {
		s.logTo(x, "13.3.1", "work (%s) at %s is abandoned", w.Kind, w.Area)
		return false
	}
	if t < w.Start+2 {
		return true
	}
	switch w.Kind {
	case "repair-strongpoint":
		if sp := s.strongpoint(w.Area); sp != nil {
			sp.Usable = true
		}
		s.log("13.2.2", "the strongpoint at %s is repaired", w.Area)
		return false
	case "repair-battery":
		for _, b := range s.Bats {
			if b.Area == w.Area && b.Owner == x && b.Status == "inoperative" {
				b.Status = "active"
				break
			}
		}
		s.log("15.3.2", "a coastal battery at %s is repaired", w.Area)
		return false
	}
	w.Done = true
	s.log("13.3.1", "%s completes a %s at %s", w.Unit, w.Kind, w.Area)
	return true
}

// reorgSupply traces supply for side x's land units (7): a unit newly out
// of supply is reported (7.5), and one surrounded and out of supply where
// the enemy is loses a step (7.5.1).
func reorgSupply(s *State, x engine.Side) {
	for _, u := range s.Units {
		if u.Side != x || u.Dead || u.Fleet != "" || !data.Graph.Has(u.Loc) || u.Type == "supply" {
			continue
		}
		was := u.OOS
		u.OOS = !supplied(s, u)
		if u.OOS && !was {
			s.log("7.5", "%s at %s is out of supply", u.ID, u.Loc)
		}
		if u.OOS && enemyIn(s, u.Loc, x) && surrounded(s, u.Loc, x) {
			s.log("7.5.1", "%s, surrounded and out of supply at %s, loses a step", u.ID, u.Loc)
			stepLoss(s, u)
		}
	}
}

func surrounded(s *State, area string, x engine.Side) bool {
	for _, n := range data.Graph.Neighbors(area) {
		if n != "Sweden" && s.controller(n) == x {
			return false
		}
	}
	return true
}

// sources are side x's supply sources (7.2).
func sources(s *State, x engine.Side) []string {
	var out []string
	if x == German {
		// Oslo supplies while the German controls it, even with enemy
		// units still in the city; paths through it are cut by them.
		if s.controller("Oslo") != German {
			return nil
		}
		seen := map[string]bool{"Oslo": true}
		queue := []string{"Oslo"}
		for len(queue) > 0 {
			a := queue[0]
			queue = queue[1:]
			for _, n := range data.Graph.Neighbors(a) {
				if seen[n] || n == "Sweden" || enemyIn(s, n, German) {
					continue
				}
				seen[n] = true
				queue = append(queue, n)
			}
		}
		for _, a := range data.Areas {
			if seen[a.Name] && s.controller(a.Name) == German && (a.Name == "Oslo" || a.City >= 0 || a.Port != "") && (a.Name == "Oslo" || !enemyIn(s, a.Name, German)) {
				out = append(out, a.Name)
			}
		}
		return out
	}
	for _, a := range data.Areas {
		if a.Name != "Sweden" && (a.City >= 0 || a.Port != "") && s.controller(a.Name) != German && !enemyIn(s, a.Name, Allied) {
			out = append(out, a.Name)
		}
	}
	return out
}

// supplied is 7.1, 7.4 and 8.11.2.
func supplied(s *State, u *Unit) bool {
	if s.Turn < 7 || u.Type == "para" || u.Landed == s.Turn {
		return true
	}
	near := append([]string{u.Loc}, data.Graph.Neighbors(u.Loc)...)
	for _, a := range near {
		for _, v := range s.unitsIn(a, u.Side) {
			if v.Type == "supply" && v.Steps > 0 {
				return true
			}
		}
	}
	src := map[string]bool{}
	for _, a := range sources(s, u.Side) {
		src[a] = true
	}
	if len(src) == 0 {
		return false
	}
	for _, b := range near {
		if b == "Sweden" || (b != u.Loc && enemyIn(s, b, u.Side)) {
			continue
		}
		seen := map[string]bool{b: true}
		queue := []string{b}
		for len(queue) > 0 {
			a := queue[0]
			queue = queue[1:]
			if src[a] {
				return true
			}
			for _, e := range data.Graph.Edges(a) {
				if (e.Kind != "road" && e.Kind != "rail") || seen[e.To] || e.To == "Sweden" || enemyIn(s, e.To, u.Side) {
					continue
				}
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	return false
}

// targets are the German target locations (12.3): every location with a
// VP value (12.2.1 calls them the German targets), or with the option
// decisive-grey-ports only the grey ports.
func targets(s *State) []string {
	var out []string
	for _, a := range data.Areas {
		if s.has(OptDecisivePorts) {
			if a.Port == "grey" {
				out = append(out, a.Name)
			}
		} else if a.VP > 0 {
			out = append(out, a.Name)
		}
	}
	return out
}

// VP returns the victory points of both sides (12.2); final applies the
// end-of-game Allied deductions (12.2.4).
func VP(s *State, final bool) (german, allied int) {
	for _, a := range data.Areas {
		if a.VP == 0 {
			continue
		}
		if s.controller(a.Name) == German {
			german += a.VP
		} else {
			allied += a.VP
		}
	}
	if final {
		allied -= 2
		for _, u := range s.Units {
			if u.Side == Allied && !u.Dead && u.Nation != "norwegian" && (u.Size == "reg" || u.Size == "bde") && (data.Graph.Has(u.Loc) || u.Fleet != "") {
				allied--
			}
		}
	}
	return
}

func (s *State) finish(winner engine.Side, level, summary string, final bool) {
	g, a := VP(s, final)
	s.Over = true
	s.Result = &engine.Result{Winner: winner, Level: level, Points: map[engine.Side]int{German: g, Allied: a}, Summary: summary}
	s.log("12", "%s", summary)
}

// suddenDeath is 12.4.
func suddenDeath(s *State) {
	g, _ := VP(s, false)
	oslo := s.controller("Oslo") == German
	osloVP := data.Area("Oslo").VP
	var ok bool
	var need string
	switch s.Turn {
	case 11:
		ok, need = g >= 8, "at least 8 VP"
	case 14:
		ok, need = oslo && g-osloVP >= 8, "Oslo and 8 VP besides"
	case 17:
		ok, need = oslo && g-osloVP >= 10, "Oslo and 10 VP besides"
	}
	if ok {
		s.log("12.4", "sudden death check, turn %d: the German holds %s (%d VP)", s.Turn, need, g)
		return
	}
	s.finish(Allied, "sudden death", fmt.Sprintf("Allied sudden death victory on turn %d: the German does not hold %s (%d VP)", s.Turn, need, g), false)
}

// endTurn checks decisive victory (12.3) and the end of the game (12.2).
func endTurn(s *State) {
	t := s.Turn
	gAll, aAll := true, true
	for _, a := range targets(s) {
		if s.controller(a) == German {
			aAll = false
		} else {
			gAll = false
		}
	}
	if gAll {
		if s.GermanHold == 0 {
			s.GermanHold = t
		}
	} else {
		s.GermanHold = 0
	}
	if aAll {
		if s.AlliedHold == 0 {
			s.AlliedHold = t
		}
	} else {
		s.AlliedHold = 0
	}
	if gAll && t-s.GermanHold >= 2 {
		s.finish(German, "decisive", fmt.Sprintf("German decisive victory on turn %d: every German target held for two full turns", t), false)
		return
	}
	if aAll && t >= 11 {
		since := s.AlliedHold
		if since < 9 {
			since = 9
		}
		if t-since >= 2 {
			s.finish(Allied, "decisive", fmt.Sprintf("Allied decisive victory on turn %d: every German target held for two full turns from turn 10", t), false)
			return
		}
	}
	if t == 21 {
		g, a := VP(s, true)
		w := Allied
		if g > a {
			w = German
		}
		s.finish(w, "points", fmt.Sprintf("End of turn 21: German %d VP, Allied %d VP; the %s player wins (ties go to the Allied)", g, a, w), true)
	}
}

// resetAir gives both sides their air points for the turn (8.2, 8.2.1,
// 16.6).
func resetAir(s *State) {
	t := s.Turn
	for _, ss := range s.Sides {
		ss.Air = nil
		ss.Rail = 0
		for _, a := range data.Air {
			if a.Side != ss.Side || t < a.From || t > a.To {
				continue
			}
			m := a.Markers
			if a.Nation == "norwegian" && len(ownAirfields(s, Allied)) == 0 && t >= 4 {
				m = 0 // 8.2.1
			}
			if s.has(OptSpecialAir) && a.Nation == "german" && a.Type == "bomber" {
				m--
				ss.Air = append(ss.Air, AirPoints{Nation: "stuka", Type: "bomber", Markers: 3, Strength: 1})
			}
			ss.Air = append(ss.Air, AirPoints{Nation: a.Nation, Type: a.Type, Markers: m, Strength: a.Strength})
		}
		sort.SliceStable(ss.Air, func(i, j int) bool {
			if ss.Air[i].Type != ss.Air[j].Type {
				return ss.Air[i].Type < ss.Air[j].Type
			}
			return ss.Air[i].Nation < ss.Air[j].Nation
		})
	}
}

// recallSubs takes a side's deployed submarines back before its naval
// phase (9.11: a deployed submarine may be stored for further use).
func recallSubs(s *State, x engine.Side) {
	var keep []*SubMarker
	for _, m := range s.SubsOut {
		if m.Side != x {
			keep = append(keep, m)
		}
	}
	s.SubsOut = keep
}

// embarkation reports the Allied withdrawal of 12.2.4.1 and 12.2.4.2 at
// the end of turns 19 and 20; the rulebook's sanction is 12.2.4.3 (a VP
// for each regiment or brigade left in Norway at the end).
func embarkation(s *State) {
	if s.Turn != 19 && s.Turn != 20 {
		return
	}
	var british, left []string
	for _, u := range s.Units {
		if u.Side != Allied || u.Dead || u.Nation == "norwegian" || (u.Size != "reg" && u.Size != "bde") {
			continue
		}
		if u.Nation == "british" {
			british = append(british, u.ID)
		}
		if data.Graph.Has(u.Loc) && (s.Turn == 20 || u.Nation == "british") {
			left = append(left, u.ID)
		}
	}
	if s.Turn == 19 && len(left)*2 > len(british) {
		s.log("12.2.4.1", "turn 19: the Allied has not embarked half the British troops (still in Norway: %s)", strings.Join(left, " "))
	}
	if s.Turn == 20 && len(left) > 0 {
		s.log("12.2.4.2", "turn 20: Allied troops still in Norway (each costs a VP at the end, 12.2.4.3): %s", strings.Join(left, " "))
	}
}
