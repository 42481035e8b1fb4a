package norge

import (
	"fmt"
	"slices"
	"strings"

	"skagerrak/engine"
)

// View is what one side may know: the state with the enemy's secrets taken
// out (submarine positions, convoy contents, off-map forces, orders and
// private reports), the open phase and the score.
type View struct {
	Side  engine.Side  `json:"side"`
	Phase engine.Phase `json:"phase"`
	Game  *State       `json:"game"`
	// Scores are the victory points as they stand (2.2-2.4).
	German Score `json:"german"`
	Allied Score `json:"allied"`
}

// View implements engine.Ruleset.
func (rules) View(s *State, side engine.Side) *View {
	g, a := Scores(s)
	return &View{Side: side, Phase: PhaseOf(s), Game: filtered(s, side), German: g, Allied: a}
}

// filtered is the state as side sees it.
func filtered(s *State, side engine.Side) *State {
	c := s.clone()
	c.Units = nil
	for _, u := range s.Units {
		if u.Side == side || onHex(u.Loc) {
			c.Units = append(c.Units, u)
		}
	}
	c.Ships = nil
	for _, sh := range s.Ships {
		if sh.Side == side {
			sh.Cargo = append([]string(nil), sh.Cargo...)
			c.Ships = append(c.Ships, sh)
			continue
		}
		if sh.Kind == "sub" {
			if sh.Sunk {
				c.Ships = append(c.Ships, Ship{ID: sh.ID, Side: sh.Side, Kind: sh.Kind, Sunk: true, Damaged: true})
			}
			continue
		}
		v := Ship{ID: sh.ID, Side: sh.Side, Kind: sh.Kind, Loc: sh.Loc, Damaged: sh.Damaged, Sunk: sh.Sunk, Restricted: sh.Restricted, Tried: sh.Tried}
		if sh.onMap() {
			v.Reduced = sh.Reduced
			v.Exited = sh.Exited
		}
		if sh.Scrapped {
			v.Scrapped = false
		}
		c.Ships = append(c.Ships, v)
	}
	c.Hold = nil
	for _, id := range s.Hold {
		if s.unit(id).Side == side {
			c.Hold = append(c.Hold, id)
		}
	}
	c.NoIntercept = nil
	for _, x := range s.NoIntercept {
		if x == side {
			c.NoIntercept = append(c.NoIntercept, x)
		}
	}
	if side != Allied {
		c.SabotageTurn = 0
		c.AlliedLosses = nil
	}
	if side != German {
		c.GermanLosses = nil
	}
	c.Log = nil
	for e := range s.Log.For(side) {
		c.Log = append(c.Log, e)
	}
	return c
}

// AfterDecode implements engine.Decoded: a view read back names its game.
func (v *View) AfterDecode() error {
	if v.Game == nil {
		return fmt.Errorf("view has no game")
	}
	return nil
}

const width = 72

// wrap folds text at 72 columns, indenting continuation lines.
func wrap(b *strings.Builder, text, indent string) {
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent + w
			continue
		}
		if line == "" {
			line = w
		} else {
			line += " " + w
		}
	}
	if line != "" {
		b.WriteString(line + "\n")
	}
}

// Report implements engine.Reporter: the side's report from its View.
func (rules) Report(v *View, side engine.Side) string {
	if v == nil {
		return ""
	}
	s := v.Game
	var b strings.Builder
	reportHead(&b, v, side)
	reportEvents(&b, s)
	reportOwnForces(&b, s, side)
	reportEnemyForces(&b, s, side)
	reportPlaces(&b, s)
	b.WriteString("\nVictory points\n--------------\n")
	for _, sc := range []Score{v.German, v.Allied} {
		wrap(&b, fmt.Sprintf("%s %d: %s", sc.Side, sc.Total, strings.Join(sc.Items, "; ")), "    ")
	}
	return b.String()
}

// reportHead is the report's title: the open phase, the weather of this
// turn and the next, the victory points.
func reportHead(b *strings.Builder, v *View, side engine.Side) {
	s := v.Game
	wrap(b, fmt.Sprintf("NORGE - report for the %s player", side), "")
	wrap(b, strings.Repeat("=", 40), "")
	if v.Phase.Over {
		wrap(b, "The game is over.", "")
	} else {
		wrap(b, "Open phase: "+v.Phase.ID+" - "+v.Phase.Title, "  ")
	}
	if s.Turn >= 1 && s.Turn <= len(s.Weather) {
		w := s.Weather[s.Turn-1]
		wrap(b, fmt.Sprintf("Weather turn %d: North %s, South %s; at sea %s.", s.Turn, w.North, w.South, s.seaWeather()), "  ")
	}
	if len(s.Weather) > s.Turn {
		w := s.Weather[s.Turn]
		wrap(b, fmt.Sprintf("Weather turn %d: North %s, South %s.", s.Turn+1, w.North, w.South), "  ")
	}
	wrap(b, fmt.Sprintf("Victory points: German %d, Allied %d (a side needs 5 more to win).", v.German.Total, v.Allied.Total), "  ")
}

// reportEvents lists the events the side saw this turn and the last.
func reportEvents(b *strings.Builder, s *State) {
	b.WriteString("\nEvents\n------\n")
	n := 0
	for _, e := range s.Log {
		if e.Turn >= s.Turn-1 {
			wrap(b, fmt.Sprintf("T%d %s: %s", e.Turn, turnStages[e.Step].Name, e.Text), "    ")
			n++
		}
	}
	if n == 0 {
		b.WriteString("(none)\n")
	}
}

// reportOwnForces lists the side's units by where they are, then its ships.
func reportOwnForces(b *strings.Builder, s *State, side engine.Side) {
	b.WriteString("\nYour forces\n-----------\n")
	byLoc := map[string][]string{}
	var locs []string
	for _, u := range s.Units {
		if u.Side != side {
			continue
		}
		name := u.ID
		if u.Reduced {
			name += "(r)"
		}
		if u.RT {
			name += "[RT]"
		}
		if _, ok := byLoc[u.Loc]; !ok {
			locs = append(locs, u.Loc)
		}
		byLoc[u.Loc] = append(byLoc[u.Loc], name)
	}
	sortStrings(locs)
	for _, l := range locs {
		wrap(b, fmt.Sprintf("%s: %s", l, strings.Join(byLoc[l], " ")), "    ")
	}
	for _, sh := range s.Ships {
		if sh.Side != side {
			continue
		}
		wrap(b, shipLine(sh, true), "    ")
	}
}

// reportEnemyForces lists the enemy units the side sees by where they are,
// then the enemy ships on the board or sunk.
func reportEnemyForces(b *strings.Builder, s *State, side engine.Side) {
	b.WriteString("\nEnemy forces seen\n-----------------\n")
	byLoc := map[string][]string{}
	var locs []string
	for _, u := range s.Units {
		if u.Side == side {
			continue
		}
		name := u.ID
		if u.Reduced {
			name += "(r)"
		}
		if _, ok := byLoc[u.Loc]; !ok {
			locs = append(locs, u.Loc)
		}
		byLoc[u.Loc] = append(byLoc[u.Loc], name)
	}
	sortStrings(locs)
	for _, l := range locs {
		wrap(b, fmt.Sprintf("%s: %s", l, strings.Join(byLoc[l], " ")), "    ")
	}
	for _, sh := range s.Ships {
		if sh.Side != side && (sh.onMap() || sh.Sunk) {
			wrap(b, shipLine(sh, false), "    ")
		}
	}
}

// reportPlaces lists who holds each port and airfield, the air units over
// the Tactical Maps and the blown bridges.
func reportPlaces(b *strings.Builder, s *State) {
	b.WriteString("\nPorts and airfields\n-------------------\n")
	var g, a []string
	for _, p := range data.Ports {
		if s.controller(p.Name) == German {
			g = append(g, p.Name)
		} else {
			a = append(a, p.Name)
		}
	}
	for _, f := range data.Airfields {
		if s.controller(f.Name) == German {
			g = append(g, f.Name+"(airfield)")
		} else {
			a = append(a, f.Name+"(airfield)")
		}
	}
	wrap(b, "German: "+strings.Join(g, ", "), "    ")
	wrap(b, "Allied: "+strings.Join(a, ", "), "    ")
	if len(s.Air) > 0 {
		b.WriteString("\nAir over the Tactical Maps\n--------------------------\n")
		for _, am := range s.Air {
			wrap(b, fmt.Sprintf("%s from %s over Map %s: %d", am.Side, am.Base, am.Map, am.Strength), "    ")
		}
	}
	if len(s.Blown) > 0 {
		var bl []string
		for _, x := range s.Blown {
			bl = append(bl, strings.ReplaceAll(x.Side, "|", "/"))
		}
		wrap(b, "Blown bridges: "+strings.Join(bl, ", "), "    ")
	}
}

func shipLine(sh Ship, own bool) string {
	where := sh.Loc
	switch {
	case sh.Sunk:
		where = "sunk"
	case sh.Scrapped:
		where = "merged away"
	case sh.Kind == "sub" && sh.Area > 0:
		where = fmt.Sprintf("sea area %d", sh.Area)
	case where == "":
		where = "off the board"
	}
	st := ""
	if sh.Reduced {
		st = " (reduced)"
	}
	t := fmt.Sprintf("%s %s%s: %s", kindName(sh.Kind), sh.ID, st, where)
	if own && sh.Kind == "convoy" && !sh.Sunk {
		t += ", carrying " + cargoText(&sh)
	}
	return t
}

func kindName(k string) string {
	switch k {
	case "bs":
		return "battleship"
	case "cv":
		return "carrier"
	case "sub":
		return "submarine"
	}
	return k
}

func sortStrings(xs []string) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// OrderForm implements engine.OrderFormer: the syntax of the open phase as
// comments, the side's units that may act, and its standing orders as real
// lines, so that the form parses unchanged.
func (rules) OrderForm(v *View, side engine.Side) string {
	if v == nil || v.Phase.Over {
		return ""
	}
	s := v.Game
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", v.Phase.Title)
	if !v.Phase.Awaits(side) {
		b.WriteString("# You owe no orders in this phase.\n")
		return b.String()
	}
	b.WriteString("# One order a line; " + engine.GuidePointer + ".\n")
	if s.Setup {
		b.WriteString("# carry BATTLESHIP UNIT ...   (6.2: 1 regiment or 3 battalions, no armor or para)\n")
		b.WriteString(setupLines(s))
		return b.String()
	}
	switch s.Step {
	case StepAirGerman, StepAirAllied:
		formAir(&b, s, side)
	case StepNavalGerman, StepNavalAllied:
		formNaval(&b, s, side)
	case StepLandGerman, StepLandAllied:
		formLand(&b, s, side)
	case StepSubs:
		b.WriteString("# sub SUB AREA   (17.1: to an adjacent sea area, or a new one anywhere)\n")
		for _, sh := range s.Ships {
			if sh.Side == side && sh.Kind == "sub" && !sh.Sunk {
				fmt.Fprintf(&b, "#   %s\n", shipLine(sh, true))
			}
		}
	}
	return b.String()
}

// formAir is the form of an air phase (9.1-9.3): the bases the side holds
// and the maps each reaches.
func formAir(b *strings.Builder, s *State, side engine.Side) {
	b.WriteString("# air BASE MAP      (9.1-9.3: an airfield or carrier and a Tactical Map A-F)\n")
	if side == German {
		for _, af := range data.Airfields {
			if s.controller(af.Name) == German {
				fmt.Fprintf(b, "#   %s reaches maps %s\n", af.Name, strings.Join(af.Range, ","))
			}
		}
	}
	for _, sh := range s.Ships {
		if sh.Side == side && sh.Kind == "cv" && sh.onMap() {
			fmt.Fprintf(b, "#   %s at %s reaches maps %s\n", sh.ID, sh.Loc, strings.Join(data.node(sh.Loc).Carrier, ","))
		}
	}
}

// formNaval is the form of a naval phase (10): the side's ships, its
// standing intercept and losses orders.
func formNaval(b *strings.Builder, s *State, side engine.Side) {
	b.WriteString("# move SHIP HEX [HEX ...] [off]   (10.1; off-board ships start at an entrance)\n")
	b.WriteString("# load CONVOY UNIT ...   merge CONVOY CONVOY   intercept on|off\n")
	for _, sh := range s.Ships {
		if sh.Side == side && sh.Kind != "sub" && !sh.Sunk && !sh.Scrapped {
			fmt.Fprintf(b, "#   %s\n", shipLine(sh, true))
		}
	}
	for _, sh := range s.Ships {
		if sh.Side == side && sh.Kind == "sub" && !sh.Sunk {
			fmt.Fprintf(b, "#   %s (moves in the submarine phase, 17.1)\n", shipLine(sh, true))
		}
	}
	if containsSide(s.NoIntercept, side) {
		b.WriteString("intercept off\n")
	} else {
		b.WriteString("intercept on\n")
	}
	b.WriteString("# losses UNIT|SHIP ... | losses none   (who goes first when you choose, 10.8, 12.6)\n")
	b.WriteString(lossLine(s, side))
}

// formLand is the form of a land phase: the landings that may try again
// (12.2), the side's units, its standing hold and losses orders.
func formLand(b *strings.Builder, s *State, side engine.Side) {
	b.WriteString("# disembark SHIP   embark CONVOY UNIT ...   move UNIT HEX [HEX ...]\n")
	b.WriteString("# ferry UNIT   blow HEX HEX   attack HEX with UNIT ...   hold UNIT ...|none\n")
	for i := range s.Ships {
		sh := &s.Ships[i]
		switch {
		case sh.Side != side:
		case reembarking(s, sh):
			fmt.Fprintf(b, "#   the enemy holds the port: embark %s %s (12.2)\n", sh.ID, ashoreNames(s, sh))
		case retrying(s, sh):
			fmt.Fprintf(b, "#   the troops of %s on the quays may try again: disembark %s (12.2)\n", sh.ID, sh.ID)
		}
	}
	if side == German {
		b.WriteString("# airlift UNIT AIRFIELD   drop UNIT HEX (from turn 6)\n")
	} else {
		b.WriteString("# sabotage HEX HEX (one bridge a turn, 1-4 blows it)\n")
	}
	formUnits(b, s, side)
	var hold []string
	for _, id := range s.Hold {
		if u := s.unit(id); u != nil && u.Loc != LocElim {
			hold = append(hold, id)
		}
	}
	if len(hold) > 0 {
		b.WriteString("hold " + strings.Join(hold, " ") + "\n")
	} else {
		b.WriteString("hold none\n")
	}
	b.WriteString("# losses UNIT|SHIP ... | losses none   (who goes first when you choose, 10.8, 12.6)\n")
	b.WriteString(lossLine(s, side))
}

// formUnits lists the side's land units in the form, by where they are,
// as the report's "Your forces" does; eliminated units take no orders.
func formUnits(b *strings.Builder, s *State, side engine.Side) {
	byLoc := map[string][]string{}
	var locs []string
	for _, u := range s.Units {
		if u.Side != side || u.Loc == LocElim {
			continue
		}
		name := u.ID
		if u.Reduced {
			name += "(r)"
		}
		if _, ok := byLoc[u.Loc]; !ok {
			locs = append(locs, u.Loc)
		}
		byLoc[u.Loc] = append(byLoc[u.Loc], name)
	}
	sortStrings(locs)
	b.WriteString("# Your units:\n")
	for _, l := range locs {
		fmt.Fprintf(b, "#   %s: %s\n", l, strings.Join(byLoc[l], " "))
	}
}

func containsSide(xs []engine.Side, x engine.Side) bool {
	return slices.Contains(xs, x)
}

// setupLines are the battleships' troops as carry orders.
func setupLines(s *State) string {
	var b strings.Builder
	for _, sh := range s.Ships {
		if sh.Side == German && sh.Kind == "bs" && sh.Restricted && len(sh.Cargo) > 0 {
			b.WriteString("carry " + sh.ID + " " + strings.Join(sh.Cargo, " ") + "\n")
		}
	}
	return b.String()
}

// Reveal implements engine.Revealer: the whole game for the final report,
// the result and both sides' reports, secrets included.
func (r rules) Reveal(s *State) string {
	var b strings.Builder
	if res := r.Result(s); res != nil {
		wrap(&b, "Result: "+res.Summary, "    ")
		b.WriteString("\n")
	}
	for _, side := range []engine.Side{German, Allied} {
		b.WriteString(r.Report(r.View(s, side), side))
		b.WriteString("\n")
	}
	return b.String()
}

// lossLine is side's standing losses order as an order line, without the
// units and ships no longer in play.
func lossLine(s *State, side engine.Side) string {
	var ids []string
	for _, id := range s.losses(side) {
		if u := s.unit(id); u != nil && u.Loc != LocElim {
			ids = append(ids, id)
		}
		if sh := s.ship(id); sh != nil && !sh.Sunk && !sh.Scrapped {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "losses none\n"
	}
	return "losses " + strings.Join(ids, " ") + "\n"
}
