package norway1940

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// View is what one side may know (DESIGN.md, fog of war): its own forces in
// full; of the enemy, the land units on the map and fleet markers, whose
// contents show only once detected (9.3, 9.6); the map's public state.
type View struct {
	Side     engine.Side     `json:"side"`
	Phase    engine.Phase    `json:"phase"`
	Turn     int             `json:"turn"`
	Date     string          `json:"date"`
	Phasing  engine.Side     `json:"phasing"`
	Options  []string        `json:"options"`
	Revision int             `json:"revision,omitempty"`
	Weather  Weather         `json:"weather"`
	Units    []*Unit         `json:"units"`
	Fleets   []*Fleet        `json:"fleets"`
	Pools    []*Pool         `json:"pools"`
	Own      *SideState      `json:"own"`
	Control  []Control       `json:"control"`
	Fields   []*Airfield     `json:"airfields"`
	Bats     []*Battery      `json:"batteries"`
	Marks    []*Interdiction `json:"interdiction,omitempty"`
	Works    []*Work         `json:"works,omitempty"`
	Strong   []*Strongpoint  `json:"strongpoints"`
	Depots   []*Depot        `json:"depots,omitempty"`
	SubsOut  []*SubMarker    `json:"subs_deployed,omitempty"`
	Invaded  bool            `json:"invaded,omitempty"`
	Landed   bool            `json:"allied_landed,omitempty"`
	RailNet  []string        `json:"rail_net,omitempty"`
	GermanVP int             `json:"german_vp"`
	AlliedVP int             `json:"allied_vp"`
	Events   []Event         `json:"events"`
	Result   *engine.Result  `json:"result,omitempty"`
	// Ask is the decision this side must take in the open short phase,
	// shown only to the side that asked for it.
	Ask *Question `json:"ask,omitempty"`
}

// View implements engine.Ruleset.
func (rules) View(st *State, side engine.Side) *View {
	return viewOf(st, side)
}

func viewOf(s0 *State, side engine.Side) *View {
	s := s0.clone()
	v := &View{Side: side, Phase: PhaseOf(s), Turn: s.Turn, Phasing: s.Phasing, Options: s.Options, Revision: s.Revision, Weather: s.Weather,
		Control: s.Control, Fields: s.Fields, SubsOut: s.SubsOut, Bats: s.Bats, Marks: s.Marks, Works: s.Works, Strong: s.Strong,
		Invaded: s.Invaded, Landed: s.AlliedLanded, Result: s.Result}
	if s.Turn < len(data.Calendar) {
		v.Date = data.Calendar[s.Turn]
	}
	v.GermanVP, v.AlliedVP = VP(s, false)
	if side == German {
		v.RailNet = s.RailNet
	}
	for _, d := range s.Depots {
		m := *d
		if !d.Flipped {
			m.Real = false // 16.4.1.2: no side knows the markers' identity
		}
		v.Depots = append(v.Depots, &m)
	}
	for _, u := range s.Units {
		if u.Side == side {
			v.Units = append(v.Units, u)
			continue
		}
		if u.Dead || u.Fleet != "" || !data.Graph.Has(u.Loc) {
			continue
		}
		w := *u
		w.Goal, w.Busy, w.Returns, w.Entry = "", 0, 0, 0
		v.Units = append(v.Units, &w)
	}
	for _, f := range s.Fleets {
		if f.Side == side {
			v.Fleets = append(v.Fleets, f)
			continue
		}
		m := &Fleet{ID: f.ID, Side: f.Side, Where: f.Where, Detected: f.Detected}
		if f.Detected {
			m.Nation, m.Combat, m.Transport, m.Cargo, m.Failed = f.Nation, f.Combat, f.Transport, f.Cargo, f.Failed
			m.Carriers, m.CarrierDamage = f.Carriers, f.CarrierDamage
		}
		v.Fleets = append(v.Fleets, m)
	}
	for _, p := range s.Pools {
		if p.Side == side {
			v.Pools = append(v.Pools, p)
		}
	}
	v.Own = s.side(side)
	if s.Pending != nil && s.Pending.Ask.Side == side && !s.Over {
		v.Ask = s.Pending.Ask
	}
	// Fleet numbers the side may use next: only its own counter is shown,
	// as the highest own fleet number.
	for _, e := range s.Events {
		if len(e.To) == 0 || contains(sidesStr(e.To), string(side)) {
			v.Events = append(v.Events, Event{Turn: e.Turn, Rule: e.Rule, Text: e.Text})
		}
	}
	return v
}

func sidesStr(xs []engine.Side) []string {
	var out []string
	for _, x := range xs {
		out = append(out, string(x))
	}
	return out
}

// stateFromView rebuilds a partial State from a View: what the side knows,
// for the scripted player to check its orders with the rules' own code.
func stateFromView(v *View) *State {
	s := &State{Game: "norway1940", Options: v.Options, Revision: v.Revision, Turn: v.Turn, Phasing: v.Phasing, Weather: v.Weather,
		Units: v.Units, Fleets: v.Fleets, Pools: v.Pools, Control: v.Control, Fields: v.Fields, Bats: v.Bats,
		Marks: v.Marks, Works: v.Works, Strong: v.Strong, Depots: v.Depots, SubsOut: v.SubsOut, Invaded: v.Invaded, AlliedLanded: v.Landed, RailNet: v.RailNet}
	s.Sides = []*SideState{v.Own, {Side: other(v.Side), Standing: Standing{Evade: "weaker"}}}
	return s.clone()
}

// Report writes a side's report from its View (engine.Reporter).
func (rules) Report(v *View, side engine.Side) string {
	if v == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Norway 1940 - %s\n", v.Phase.Title)
	fmt.Fprintf(&b, "Weather: South %s, Centre %s, North %s\n", v.Weather.South, v.Weather.Centre, v.Weather.North)
	fmt.Fprintf(&b, "Victory points held: German %d, Allied %d\n\n", v.GermanVP, v.AlliedVP)
	if v.Ask != nil {
		fmt.Fprintf(&b, "Your decision (rule %s): %s\n", v.Ask.Rule, v.Ask.Text)
		fmt.Fprintf(&b, "  Answer with one of: %s\n", strings.Join(v.Ask.Choices, " | "))
		fmt.Fprintf(&b, "  Without an answer by the deadline: %s (your standing orders)\n\n", strings.Join(v.Ask.Default, "; "))
	}
	if len(v.Events) > 0 {
		b.WriteString("What happened:\n")
		for _, e := range v.Events {
			fmt.Fprintf(&b, "  [%s] %s\n", e.Rule, e.Text)
		}
		b.WriteString("\n")
	}
	b.WriteString("Victory point locations:\n")
	for _, ar := range data.Areas {
		if ar.VP == 0 {
			continue
		}
		owner := engine.Side("")
		for _, c := range v.Control {
			if c.Area == ar.Name {
				owner = c.Side
			}
		}
		fmt.Fprintf(&b, "  %-14s %d VP  %s\n", ar.Name, ar.VP, owner)
	}
	if v.Own != nil {
		b.WriteString("Your air markers this turn:\n")
		for _, a := range v.Own.Air {
			fmt.Fprintf(&b, "  %-9s %-8s %d of %d left\n", a.Nation, a.Type, a.Markers-a.Used, a.Markers)
		}
		if v.Own.Standing.Keep > 0 {
			fmt.Fprintf(&b, "  %d fighter marker(s) kept for the opponent's turn\n", v.Own.Standing.Keep)
		}
	}
	b.WriteString("Your land units:\n")
	for _, u := range v.Units {
		if u.Side == side && !u.Dead {
			fmt.Fprintf(&b, "  %-8s %-4s %-4s %s steps %d/%d mod %+d move %d\n", u.ID, u.Type, u.Size, where(u), u.Steps, u.MaxSteps, u.modifier(), u.Move)
		}
	}
	b.WriteString("Your fleets:\n")
	for _, f := range v.Fleets {
		if f.Side == side {
			fmt.Fprintf(&b, "  %-4s %-9s combat %d transport %d decoys %d detected %v cargo %s\n", f.ID, f.Where, f.Combat, f.Transport, f.Decoys, f.Detected, cargoText(f))
		}
	}
	b.WriteString("Enemy fleet markers:\n")
	for _, f := range v.Fleets {
		if f.Side != side {
			if f.Detected {
				fmt.Fprintf(&b, "  %-4s %-9s detected: combat %d transport %d cargo %s\n", f.ID, f.Where, f.Combat, f.Transport, cargoText(f))
			} else {
				fmt.Fprintf(&b, "  %-4s %-9s undetected\n", f.ID, f.Where)
			}
		}
	}
	b.WriteString("Enemy land units seen:\n")
	var lines []string
	for _, u := range v.Units {
		if u.Side != side {
			lines = append(lines, fmt.Sprintf("  %-8s %s", u.ID, where(u)))
		}
	}
	sort.Strings(lines)
	b.WriteString(strings.Join(lines, "\n"))
	b.WriteString("\n")
	return b.String()
}

// OrderForm is the pre-filled order form of a side's next orders
// (engine.OrderFormer): a commented summary of what the side may order,
// then its standing orders as they stand, so that a form sent back
// unchanged keeps them. In a short phase the asking side's form states
// the question and is filled in with the decision its standing orders
// give, the deadline's default.
func (rules) OrderForm(v *View, side engine.Side) string {
	if v == nil || v.Phase.Over {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", v.Phase.Title)
	if v.Ask != nil && v.Ask.Side == side {
		fmt.Fprintf(&b, "# Decision in person (rule %s): %s\n", v.Ask.Rule, v.Ask.Text)
		fmt.Fprintf(&b, "# Valid decision lines: %s\n", strings.Join(v.Ask.Choices, " | "))
		b.WriteString("# Filled in with what your standing orders would decide:\n")
		for _, l := range v.Ask.Default {
			b.WriteString(l + "\n")
		}
		return b.String()
	}
	if !contains(sidesStr(v.Phase.Owes), string(side)) {
		b.WriteString("# You owe no orders in this phase.\n")
		return b.String()
	}
	b.WriteString("# One order a line; " + engine.GuidePointer + ".\n")
	b.WriteString("# Fleets: fleet ID to BOX | fleet ID from PORT [combat N] [transport N] [decoys N] [carry UNITS] to BOX\n")
	b.WriteString("# Air:    air recon BOX FLEET N | air bomb WHERE TARGET N | air support AREA N | air patrol WHERE N\n")
	if v.Revision >= 2 {
		b.WriteString("# Land:   move UNIT AREA ... | rail UNIT AREA ... | attack AREA [with UNITS] [retreat AREA] [fallback AREA]\n")
	} else {
		b.WriteString("# Land:   move UNIT AREA ... | rail UNIT AREA ... | attack AREA [with UNITS] [retreat AREA]\n")
	}
	for _, f := range v.Fleets {
		if f.Side == side {
			fmt.Fprintf(&b, "#   fleet %s in %s: combat %d, transport %d, decoys %d, carrying %s\n", f.ID, f.Where, f.Combat, f.Transport, f.Decoys, cargoText(f))
		}
	}
	for _, p := range v.Pools {
		if p.Combat+p.Transport > 0 {
			fmt.Fprintf(&b, "#   in port at %s: %d combat, %d transport (%s)\n", p.Port, p.Combat, p.Transport, p.Nation)
		}
	}
	formUnits(&b, v, side)
	var ready []string
	for _, u := range v.Units {
		if u.Side == side && !u.Dead && (u.Loc == Germany || u.Loc == UK || u.Loc == ParaBox) && u.Entry <= v.Turn {
			ready = append(ready, u.ID+"@"+u.Loc)
		}
	}
	if len(ready) > 0 {
		fmt.Fprintf(&b, "#   ready to ship or fly: %s\n", strings.Join(ready, " "))
	}
	for _, a := range v.Own.Air {
		if a.Markers > a.Used {
			fmt.Fprintf(&b, "#   air: %d %s %s marker(s) left\n", a.Markers-a.Used, a.Nation, a.Type)
		}
	}
	st := v.Own.Standing
	b.WriteString("# Standing orders for the opponent's player-turn:\n")
	fmt.Fprintf(&b, "keep fighters 0\n")
	evade := st.Evade
	if evade == "" {
		evade = "weaker"
	}
	fmt.Fprintf(&b, "evade %s\n", evade)
	fmt.Fprintf(&b, "react %s\n", map[bool]string{true: "on", false: "off"}[st.React])
	fmt.Fprintf(&b, "continue %s\n", map[bool]string{true: "on", false: "off"}[st.Continue])
	if v.Revision >= 2 {
		b.WriteString("# The order your land units take combat losses in (10.5.6), the first still in the combat first:\n")
		if len(st.Losses) > 0 {
			b.WriteString("losses " + strings.Join(st.Losses, " ") + "\n")
		} else {
			b.WriteString("losses none\n")
		}
	}
	kinds := "evasion, continue, react, interception"
	if v.Revision >= 2 {
		kinds += ", losses"
	}
	fmt.Fprintf(&b, "# Decisions to take in person instead, in a short phase (%s):\n", kinds)
	b.WriteString(askText(st.Ask) + "\n")
	return b.String()
}

// formUnits lists the side's land units in the form, by where they are,
// in the order the report lists them.
func formUnits(b *strings.Builder, v *View, side engine.Side) {
	byLoc := map[string][]string{}
	var locs []string
	for _, u := range v.Units {
		if u.Side != side || u.Dead {
			continue
		}
		w := where(u)
		if _, ok := byLoc[w]; !ok {
			locs = append(locs, w)
		}
		byLoc[w] = append(byLoc[w], u.ID)
	}
	for _, w := range locs {
		fmt.Fprintf(b, "#   units %s: %s\n", w, strings.Join(byLoc[w], " "))
	}
}

// Reveal describes a finished game in full (engine.Revealer): every unit,
// fleet and port, the control of the VP locations and the result.
func (rules) Reveal(s *State) string {
	var b strings.Builder
	b.WriteString("Norway 1940 - the whole board\n")
	if s.Result != nil {
		fmt.Fprintf(&b, "%s\n", s.Result.Summary)
	}
	g, a := VP(s, s.Result != nil && s.Result.Level == "points")
	fmt.Fprintf(&b, "Victory points: German %d, Allied %d\n\nVP locations:\n", g, a)
	for _, ar := range data.Areas {
		if ar.VP > 0 {
			fmt.Fprintf(&b, "  %-14s %d VP  %s\n", ar.Name, ar.VP, s.controller(ar.Name))
		}
	}
	for _, x := range []engine.Side{German, Allied} {
		fmt.Fprintf(&b, "\n%s land units:\n", x)
		for _, u := range s.Units {
			if u.Side == x {
				state, steps := where(u), u.Steps
				if u.Dead {
					// An eliminated unit has lost every step (10.2); a
					// revision 1 state may hold -1 for one eliminated
					// outright, which its recorded games keep.
					state, steps = "eliminated", max(steps, 0)
				}
				fmt.Fprintf(&b, "  %-8s %-4s %s, %d/%d steps\n", u.ID, u.Type, state, steps, u.MaxSteps)
			}
		}
		fmt.Fprintf(&b, "%s fleets:\n", x)
		for _, f := range s.Fleets {
			if f.Side == x {
				fmt.Fprintf(&b, "  %-4s %-9s combat %d transport %d decoys %d detected %v cargo %s\n", f.ID, f.Where, f.Combat, f.Transport, f.Decoys, f.Detected, cargoText(f))
			}
		}
		for _, p := range s.Pools {
			if p.Side == x && p.Combat+p.Transport > 0 {
				fmt.Fprintf(&b, "  in port at %s: %d combat, %d transport (%s)\n", p.Port, p.Combat, p.Transport, p.Nation)
			}
		}
	}
	return b.String()
}
