package sweden43

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// View is what one side knows. Europa is an open-map game: both sides see
// every unit on the map and every combat. Each player keeps his own order
// of battle (15B): the enemy's units still to come (reinforcements,
// mobilizations, assemblies, amphibious and airborne forces not yet
// committed) and the German replacement pool are hidden.
type View struct {
	Side engine.Side `json:"side"`
	// Revision is the game's rules revision, omitted for revision 1.
	Revision int            `json:"revision,omitempty"`
	Scenario string         `json:"scenario"`
	Options  []string       `json:"options"`
	Turn     int            `json:"turn"`
	Player   int            `json:"player"`
	Step     string         `json:"step"`
	Over     bool           `json:"over,omitempty"`
	Phase    engine.Phase   `json:"phase"`
	Board    Board          `json:"board"`
	Log      []Event        `json:"log"`
	Result   *engine.Result `json:"result,omitempty"`
}

// View implements engine.Ruleset.
func (r rules) View(st *State, side engine.Side) View {
	v := View{Side: side, Revision: st.Revision, Scenario: st.Scenario, Options: append([]string(nil), st.Options...), Turn: st.Turn, Player: st.Player, Step: st.Step, Over: st.Over, Phase: phaseOf(st)}
	b := st.Board.Clone()
	b.Units = b.Units[:0]
	for _, u := range st.Board.Units {
		if u.Side != side && u.Status != OnMap && u.Status != Eliminated {
			continue
		}
		if u.Side != side {
			u.OOS, u.Restricted = false, ""
		}
		b.Units = append(b.Units, u)
	}
	if side != German {
		b.ReplHalfREs = 0
	}
	if side != st.phasing() {
		b.RailUsed = 0
	}
	v.Board = b
	for e := range st.Log.For(side) {
		v.Log = append(v.Log, e)
	}
	v.Result = r.Result(st)
	return v
}

// AfterDecode implements engine.Decoded: a view read back has its map of
// owners, empty or not.
func (v *View) AfterDecode() error {
	if v.Board.Owner == nil {
		v.Board.Owner = map[string]engine.Side{}
	}
	return nil
}

// stateOf rebuilds a state from a view, for the scripted player and the
// order form: it holds what the side knows, which is all its own orders
// depend on.
func stateOf(v View) *State {
	st := &State{Revision: v.Revision, Scenario: v.Scenario, Options: append([]string(nil), v.Options...), Turn: v.Turn, Player: v.Player, Step: v.Step, Over: v.Over, Board: v.Board.Clone()}
	if st.Board.Owner == nil {
		st.Board.Owner = map[string]engine.Side{}
	}
	return st
}

func wrap(text string, width int, indent string) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			out = append(out, line)
			line = indent
		}
		if line == "" || line == indent {
			line += w
		} else {
			line += " " + w
		}
	}
	if line != "" && line != indent {
		out = append(out, line)
	}
	return out
}

// Report implements engine.Reporter: plain text, 72 columns, from the View.
func (rules) Report(v View, side engine.Side) string {
	var b strings.Builder
	put := func(s string) { putWrapped(&b, s) }
	put(fmt.Sprintf("OBJECTIVE: SWEDEN - report for the %s player", side))
	sd, _ := data.scenarioDef(v.Scenario)
	put("Scenario: " + sd.Title)
	if len(v.Options) > 0 {
		put("Options: " + strings.Join(v.Options, ", "))
	}
	put("Now: " + v.Phase.Title)
	if v.Result != nil {
		put("RESULT: " + v.Result.Summary)
	}
	b.WriteString("\nEvents this game turn:\n")
	for _, e := range v.Log {
		if e.Turn == v.Turn || (v.Turn > 1 && e.Turn == v.Turn-1 && v.Player == 0 && v.Step == "move") {
			put("  " + TurnName(e.Turn) + ": " + e.Text)
		}
	}
	c := newCtx(stateOf(v))
	for _, sd := range []engine.Side{side, other(side)} {
		title := "Your forces"
		if sd != side {
			title = "Enemy forces seen"
		}
		b.WriteString("\n" + title + ":\n")
		reportGround(&b, v, sd)
		reportAir(&b, v, sd)
		if sd == side {
			reportWaiting(&b, v, side)
		}
	}
	b.WriteString("\nSwedish cities:\n")
	var own []string
	for _, p := range data.Places {
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' {
			own = append(own, fmt.Sprintf("%s %s(%s)", p.Name, strings.ToUpper(string(c.owner(p.Hex))[:1]), p.Zone))
		}
	}
	put("  " + strings.Join(own, ", ") + "  [A allied, G german owned; zone]")
	if v.Board.NavyOut {
		put("The Swedish navy is out in the Baltic (26A).")
	}
	b.WriteString("\n" + asciiMap(c))
	return b.String()
}

// putWrapped writes s to b wrapped at 72 columns.
func putWrapped(b *strings.Builder, s string) {
	for _, l := range wrap(s, 72, "    ") {
		b.WriteString(l + "\n")
	}
}

// reportGround lists side sd's ground units on the map by hex name.
func reportGround(b *strings.Builder, v View, sd engine.Side) {
	type row struct{ hex, text string }
	var rows []row
	for _, u := range v.Board.Units {
		if u.Side != sd || u.Status != OnMap {
			continue
		}
		h, _ := engine.ParseHex(u.Hex)
		a, d := u.Strength()
		t := fmt.Sprintf("%s %s %s %d-%d-%d", u.ID, u.Type, u.Size, a, d, u.Move)
		if u.Reduced {
			t += " cadre"
		}
		if u.OOS {
			t += " OUT OF SUPPLY"
		}
		if u.Restricted != "" {
			t += " (supplied by " + u.Restricted + ")"
		}
		rows = append(rows, row{data.HexName(h), t})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].hex < rows[j].hex })
	for _, r := range rows {
		putWrapped(b, fmt.Sprintf("  %-16s %s", r.hex, r.text))
	}
}

// reportAir lists side sd's air units on the map, ready or flown.
func reportAir(b *strings.Builder, v View, sd engine.Side) {
	for _, a := range v.Board.Air {
		if a.Side == sd && a.Status == OnMap {
			base := a.Base
			if h, err := engine.ParseHex(a.Base); err == nil {
				base = data.HexName(h)
			}
			ready := "ready"
			if a.Flown == v.Turn {
				ready = "flown"
			}
			putWrapped(b, fmt.Sprintf("  %-16s air %s %s %d-%d-%d range %d, %s", base, a.ID, a.Type, a.Att, a.Def, a.Bomb, a.Range, ready))
		}
	}
}

// reportWaiting lists the side's units still to come and, for the
// Germans, their infantry replacements (29B).
func reportWaiting(b *strings.Builder, v View, side engine.Side) {
	var wait []string
	for _, u := range v.Board.Units {
		// After a surrender nothing of the Allies is still to come (28B1).
		if u.Side == side && stillToCome(u) && !(side == Allied && v.Board.Surrendered) {
			w := u.ID + " (" + u.Status
			if u.Turn > 0 {
				w += " " + TurnName(u.Turn)
			}
			if u.Arrive != "" {
				w += " at " + u.Arrive
			}
			wait = append(wait, w+")")
		}
	}
	if len(wait) > 0 {
		putWrapped(b, "  Still to come: "+strings.Join(wait, ", "))
	}
	if side == German {
		putWrapped(b, fmt.Sprintf("  Infantry replacements: %s REs (29B)", halfStr(v.Board.ReplHalfREs)))
	}
}

// asciiMap draws the reconstructed map, north at the top: G and A are
// German and Allied stacks, C and c Allied- and German-owned cities, +
// other German-owned hexes of Sweden, then the terrain.
func asciiMap(c *ctx) string {
	var b strings.Builder
	b.WriteString("Map (north up; G/A German/Allied units, C/c Allied/German-owned city,\n")
	b.WriteString("+ German-owned Swedish hex, . clear f forest m mountain r rough\n")
	b.WriteString("i intermittent lake = lake ~ sea):\n")
	head := []byte(strings.Repeat(" ", 4+2*data.Grid.Cols+2))
	for col := 5; col <= data.Grid.Cols; col += 5 {
		copy(head[4+2*(col-1):], fmt.Sprint(col))
	}
	b.WriteString(strings.TrimRight(string(head), " ") + "\n")
	for r := data.Grid.Rows; r >= 1; r-- {
		line := fmt.Sprintf("%-3s ", engine.RowName(r))
		if r%2 == 0 {
			line += " "
		}
		for col := 1; col <= data.Grid.Cols; col++ {
			h := engine.Hex{Row: r, Col: col}
			ch := string(data.TerrainAt(h))
			p, isPlace := data.PlaceAt(h)
			switch {
			case c.occ[h] == German:
				ch = "G"
			case c.occ[h] == Allied:
				ch = "A"
			case isPlace && p.IsCity():
				ch = "C"
				if c.owner(h) == German {
					ch = "c"
				}
			case data.CountryAt(h) == 'S' && c.owner(h) == German:
				ch = "+"
			}
			line += ch + " "
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// OrderForm implements engine.OrderFormer: the orders the scripted player
// would give, as comments and as lines that ParseOrders accepts unchanged.
func (r rules) OrderForm(v View, side engine.Side) string {
	var b strings.Builder
	b.WriteString("# Objective: Sweden order form; " + engine.GuidePointer + "\n")
	b.WriteString("# Phase: " + v.Phase.ID + " - " + v.Phase.Title + "\n")
	if v.Over || v.Phase.Over {
		b.WriteString("# the game is over; no orders\n")
		return b.String()
	}
	if len(v.Phase.Owes) == 0 || v.Phase.Owes[0] != side {
		b.WriteString("# you owe no orders this phase\n")
		return b.String()
	}
	step := v.Step
	if step != "setup" && step != "combat" && step != "exploit" {
		step = "move"
	}
	b.WriteString(Verbs.Summary(step, side, 0))
	formUnits(&b, v, side)
	b.WriteString("# suggested orders:\n")
	b.WriteString(r.Play(v, side, nullDice{}))
	return b.String()
}

// formUnits lists every unit the side commands in its form: ground units
// by the place they are in, air units at their bases, and the units still
// to come (amphibious and airborne forces, reinforcements, divisions to
// mobilize or assemble) with their status.
func formUnits(b *strings.Builder, v View, side engine.Side) {
	byPlace := map[string][]string{}
	var places, air, later []string
	for _, u := range v.Board.Units {
		switch {
		case u.Side != side:
		case u.Status == OnMap:
			h, _ := engine.ParseHex(u.Hex)
			p := data.HexName(h)
			if _, ok := byPlace[p]; !ok {
				places = append(places, p)
			}
			byPlace[p] = append(byPlace[p], u.ID)
		case stillToCome(u) && !(side == Allied && v.Board.Surrendered):
			later = append(later, u.ID+" ("+u.Status+")")
		}
	}
	for _, a := range v.Board.Air {
		if a.Side == side && a.Status == OnMap {
			base := a.Base
			if h, err := engine.ParseHex(a.Base); err == nil {
				base = data.HexName(h)
			}
			air = append(air, a.ID+" at "+base)
		}
	}
	sort.Strings(places)
	b.WriteString("# Your units:\n")
	for _, p := range places {
		fmt.Fprintf(b, "#   %s: %s\n", p, strings.Join(byPlace[p], " "))
	}
	if len(air) > 0 {
		fmt.Fprintf(b, "#   air: %s\n", strings.Join(air, ", "))
	}
	if len(later) > 0 {
		fmt.Fprintf(b, "#   to come: %s\n", strings.Join(later, ", "))
	}
}

// Reveal implements engine.Revealer: the whole game for the final report,
// both sides' forces and the full record.
func (r rules) Reveal(st *State) string {
	var b strings.Builder
	if res := r.Result(st); res != nil {
		b.WriteString("RESULT: " + res.Summary + "\n")
	}
	for _, side := range r.Sides() {
		b.WriteString("\n=== The " + string(side) + " player's view ===\n")
		b.WriteString(r.Report(r.View(st, side), side))
	}
	b.WriteString("\nThe whole record:\n")
	for _, e := range st.Log {
		for _, l := range wrap(TurnName(e.Turn)+": "+e.Text, 72, "    ") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
