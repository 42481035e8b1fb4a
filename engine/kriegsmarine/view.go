package kriegsmarine

import (
	"fmt"

	"skagerrak/engine"
)

// View is what one side may know of the game (2.0: each player keeps his own
// map behind a screen). It holds the side's own units in full, the reports
// made to that side, and the public facts (turn, weather, invasion). The
// German objective is in the German view only, until the game ends (4.1).
type View struct {
	Game string `json:"game"`
	// Revision is the game's rules revision, from revision 2 on.
	Revision  int         `json:"revision,omitempty"`
	Side      engine.Side `json:"side"`
	Turn      int         `json:"turn"`
	Title     string      `json:"title"`
	Phase     string      `json:"phase"`
	Over      bool        `json:"over,omitempty"`
	DayTurn   bool        `json:"day_turn"`
	Weather   string      `json:"weather"`
	WeatherOn bool        `json:"weather_on,omitempty"`
	Options   []string    `json:"options,omitempty"`
	// InvasionTurn is the turn Germany invaded Norway (9.1), 0 before;
	// Intervention the first turn Allied ships may enter Norwegian waters.
	InvasionTurn int `json:"invasion_turn,omitempty"`
	Intervention int `json:"intervention,omitempty"`
	// DanesFrom is the turn the Allies command the Danish ships (17.31).
	DanesFrom int `json:"danes_from,omitempty"`
	// Objective is the German objective: German view, or both once over.
	Objective *Objective `json:"objective,omitempty"`
	// Units are the side's own units.
	Units []UnitView `json:"units"`
	// Tracking are the enemy groups this side tracks (6.42).
	Tracking []TrackView `json:"tracking,omitempty"`
	// Tracked are this side's groups the enemy tracks.
	Tracked []TrackView `json:"tracked,omitempty"`
	// Scramble is "" before an Air Emergency Scramble, "active" while it is
	// in effect and "over" once cancelled (6.29; public: the Allies score
	// for it, 6.292).
	Scramble string `json:"scramble,omitempty"`
	// Wilfred is the Wilfred Force (Allied view; public once landed, 11.1).
	Wilfred *Wilfred `json:"wilfred,omitempty"`
	// Commanders are the side's commanders (10.0).
	Commanders []Commander `json:"commanders,omitempty"`
	// ConvoyEscort is the escort of the HN25 convoy (Allied view, 14.1).
	ConvoyEscort string `json:"convoy_escort,omitempty"`
	// Occupied are the Norwegian ports Germany holds (public, 9.44).
	Occupied []Occupation `json:"occupied,omitempty"`
	// Reports are every report made to this side, oldest first.
	Reports []Entry `json:"reports,omitempty"`
	// Result is the game's outcome once over.
	Result *engine.Result `json:"result,omitempty"`
	// Decision is the question of an open short decision phase the side
	// owes (6.41, 8.24); nil in a turn phase.
	Decision *Question `json:"decision,omitempty"`
}

// UnitView is one of the side's own units as its owner sees it.
type UnitView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Type   string `json:"type"`
	Nation string `json:"nation"`
	Air    bool   `json:"air,omitempty"`
	Sub    bool   `json:"sub,omitempty"`
	Where  string `json:"where"`
	Hex    string `json:"hex,omitempty"`
	// Speed is the printed speed; Allowance what the unit may move this
	// turn: the speed of the turn's parity (3.414), after damage (6.12)
	// and the weather from where it starts (15.0, 15.3); AllowanceSouth,
	// set only where it is more (strong wind, 15.2), the allowance of a
	// move every step of which goes south. Evasion is the evasion speed
	// (6.43).
	Speed          string `json:"speed,omitempty"`
	Allowance      int    `json:"allowance,omitempty"`
	AllowanceSouth int    `json:"allowance_south,omitempty"`
	// Idle marks a Norwegian or Danish unit that may not move yet (6.15,
	// 9.1, 17.31): its allowance is 0 (rules revision 2).
	Idle    bool `json:"idle,omitempty"`
	Evasion int  `json:"evasion,omitempty"`
	Ships   int  `json:"ships,omitempty"`
	// Gunnery is the dice the unit's gunnery rolls now, after damage (8.62,
	// 8.64, 8.65, 8.661, 8.662) and the Wilfred Force aboard (11.2), before
	// what a round adds or takes (8.26, 8.29, 10.2).
	Gunnery   int    `json:"gunnery,omitempty"`
	Hits      int    `json:"hits,omitempty"`
	HitsTaken int    `json:"hits_taken,omitempty"`
	Flooding  int    `json:"flooding,omitempty"`
	Moderate  bool   `json:"moderate,omitempty"`
	Arrive    int    `json:"arrive,omitempty"`
	ArriveAt  string `json:"arrive_at,omitempty"`
	Arrow     string `json:"arrow,omitempty"`
	Spent     int    `json:"spent,omitempty"`
	Base      string `json:"base,omitempty"`
	Radius    int    `json:"radius,omitempty"`
	Used      bool   `json:"used,omitempty"`
	Struck    int    `json:"struck,omitempty"`
	// North is the hexes moved north of row S since the last supply (13.3).
	North int `json:"north,omitempty"`
	// Returning marks a ship that must return to Scapa Flow (14.0): it
	// moves by itself.
	Returning bool `json:"returning,omitempty"`
	// Disabled marks engine damage (8.661) or a forced return to port
	// (8.662): the ship goes home by itself.
	Disabled bool `json:"disabled,omitempty"`
}

// TrackView is a tracking contact as one side sees it.
type TrackView struct {
	Hex   string `json:"hex"`
	Since int    `json:"since"`
	// Units are this side's units in it (trackers or tracked).
	Units []string `json:"units"`
	// Enemy describes the other group as reported: types, count, speed.
	Enemy      []string `json:"enemy_types"`
	EnemySpeed int      `json:"enemy_speed,omitempty"`
}

func (s *State) view(side engine.Side) *View { return s.viewOf(side, true) }

// viewOf is the side's View, with or without its reports: the order parser
// needs none of them, and a late turn has many.
func (s *State) viewOf(side engine.Side, reports bool) *View {
	v := &View{
		Game: "kriegsmarine", Revision: s.Revision, Side: side, Turn: s.Turn, Over: s.Over,
		Weather: s.Weather, WeatherOn: s.has(OptWeather), Options: s.Options,
		InvasionTurn: s.InvasionTurn, Intervention: s.intervention(), DanesFrom: s.DanesFrom,
		Occupied: s.Occupied, Result: s.Result, Scramble: s.Scramble,
	}
	if !s.Over {
		v.Title = TurnTitle(s.Turn)
		v.Phase = phaseID(s.Turn)
		v.DayTurn = IsDay(s.Turn)
	} else {
		v.Title = "Game over"
	}
	if side == Allied {
		v.ConvoyEscort = s.ConvoyEscort
	}
	if w := s.Wilfred; w.Status != "" && (side == Allied || w.Status == "landed") {
		v.Wilfred = &w
	}
	for _, c := range s.Commanders {
		if commanderDef(c.ID).Side == side {
			v.Commanders = append(v.Commanders, c)
		}
	}
	if side == German || s.Over {
		o := s.Objective
		v.Objective = &o
	}
	for _, u := range s.Units {
		d := def(u.ID)
		if d.Side != side || u.Where == AtOut {
			continue
		}
		v.Units = append(v.Units, s.unitView(u, d))
	}
	s.addTrackViews(v, side)
	for e := range s.Log.For(side) {
		if reports {
			v.Reports = append(v.Reports, e)
		}
	}
	return v
}

// unitView is one of the side's units as its View shows it: an aircraft
// unit's base and radius, a ship's allowance this turn (with the wind,
// 15.2-15.3), evasion speed, gunnery, damage and arrival.
func (s *State) unitView(u Unit, d *UnitDef) UnitView {
	uv := UnitView{ID: u.ID, Name: d.Name, Type: d.Type, Nation: d.Nation, Air: d.Air, Sub: d.Sub(), Where: u.Where}
	if u.Where == AtMap {
		uv.Hex = u.Hex.String()
	}
	if d.Air {
		uv.Base, uv.Radius, uv.Used, uv.Struck = u.Base, d.Radius, u.Used, u.Struck
		return uv
	}
	uv.Speed = d.SpeedString()
	from := engine.Hex{} // off the map: no sheltered start (15.3)
	if u.Where == AtMap {
		from = u.Hex
	}
	base, on := baseAllowance(d, &u, s.Turn), s.has(OptWeather)
	uv.Allowance = windAllowance(base, d.Small(), s.Weather, on, from, false)
	if south := windAllowance(base, d.Small(), s.Weather, on, from, true); south != uv.Allowance {
		uv.AllowanceSouth = south
	}
	if s.rev().Has(NeutralAllowanceZero) && s.idleNeutral(d) {
		uv.Allowance, uv.AllowanceSouth, uv.Idle = 0, 0, true
	}
	uv.Evasion = evasionSpeed(d, &u)
	uv.Ships, uv.Gunnery, uv.Hits = d.Ships, s.gunnery(u.ID), d.Hits
	uv.HitsTaken, uv.Flooding, uv.Moderate = u.Hits, u.Flooding, moderate(d, &u)
	uv.Arrive, uv.ArriveAt = u.Arrive, u.ArrivePort
	uv.Returning = s.forcedHome(u.ID)
	uv.North = u.North
	uv.Disabled = u.Disabled > 0 || u.ForcedHome
	if u.Spent > 0 {
		uv.Arrow, uv.Spent = u.Arrow.String(), u.Spent
	}
	return uv
}

// addTrackViews adds the tracking contacts the side is in, as tracker
// (with the enemy as reported) or tracked (6.44).
func (s *State) addTrackViews(v *View, side engine.Side) {
	for _, t := range s.Tracks {
		switch side {
		case t.Tracker:
			enemy := t.TrackedTypes
			if enemy == nil {
				enemy = typesOf(t.TrackedUnits)
			}
			v.Tracking = append(v.Tracking, TrackView{Hex: t.Hex.String(), Since: t.Since, Units: t.TrackerUnits, Enemy: enemy, EnemySpeed: t.TrackedSpeed})
		case t.Tracked:
			v.Tracked = append(v.Tracked, TrackView{Hex: t.Hex.String(), Since: t.Since, Units: t.TrackedUnits, Enemy: typesOf(t.TrackerUnits), EnemySpeed: t.TrackerSpeed})
		}
	}
}

func (v *View) unit(id string) *UnitView {
	return engine.Find(v.Units, func(x *UnitView) bool { return x.ID == id })
}

// idleNeutral reports whether a Norwegian or Danish unit may not move
// this turn: Norwegian and Danish units move from two turns after the
// German invasion (6.15, 9.1), the Danes from when the Allies command
// them (17.31).
func (s *State) idleNeutral(d *UnitDef) bool {
	if d.Nation != "NO" && d.Nation != "DK" {
		return false
	}
	if d.Nation == "DK" && s.DanesFrom > 0 && s.Turn >= s.DanesFrom {
		return false
	}
	return s.intervention() == 0 || s.Turn < s.intervention()
}

// fairAllowance is the unit's allowance before the weather: the speed of
// the turn's parity, halved after moderate damage (as baseAllowance).
func (u *UnitView) fairAllowance(d *UnitDef, turn int) int {
	a := d.Speed(turn)
	if u.Moderate {
		a = (a + 1) / 2
	}
	return a
}

func phaseID(turn int) string { return fmt.Sprintf("T%02d", turn) }
