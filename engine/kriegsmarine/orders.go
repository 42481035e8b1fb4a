package kriegsmarine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"skagerrak/engine"
)

// Orders is one side's orders for a turn: movement (5.2), searches (5.4),
// standing encounter choices (6.41), splits of tracked groups (6.43),
// aircraft transfers (6.21) and destroyer detachments (12.0).
type Orders struct {
	Moves      []Move           `json:"moves,omitempty"`
	Searches   []Search         `json:"searches,omitempty"`
	Encounters []EncounterOrder `json:"encounters,omitempty"`
	Splits     [][]string       `json:"splits,omitempty"`
	Rebases    []Rebase         `json:"rebases,omitempty"`
	Detaches   []Detach         `json:"detaches,omitempty"`
	// Scramble declares the Air Emergency Scramble (6.29); Cancel ends it
	// at the end of the turn (6.291).
	Scramble bool `json:"scramble,omitempty"`
	Cancel   bool `json:"cancel,omitempty"`
	// Escorts are the ships to escort in the first round of a battle
	// (8.27); Restrict declares restricted fire in every round (8.26).
	Escorts  []string `json:"escorts,omitempty"`
	Restrict bool     `json:"restrict,omitempty"`
	// TorpCaps cap the torpedo points a unit fires in a round (8.28: a
	// player may use some or all of his torpedo strength).
	TorpCaps []TorpCap `json:"torp_caps,omitempty"`
	// Targets are preferred target types by unit (8.12, 8.271, 8.521).
	Targets []Target `json:"targets,omitempty"`
	// Abandons: if a port's fortress defends (normal or halved), the
	// Germans give up the attempt on it (9.2).
	Abandons []Abandon `json:"abandons,omitempty"`
	// Exposes: the German ships a fortress without torpedoes fires at
	// when it defends at half (9.2, rules revision 2).
	Exposes []Expose `json:"exposes,omitempty"`
	// Disguise: the Germans report their CA as BB and BB as CA this turn
	// (6.46).
	Disguise bool `json:"disguise,omitempty"`
	// Schlesien: if Denmark resists, Schlesien fights the Danes (17.31).
	Schlesien bool `json:"schlesien,omitempty"`
	// EndGame: the German raider, victory in hand, ends the game (6.18).
	EndGame bool `json:"end_game,omitempty"`
	// Drops are airborne landings (6.28).
	Drops []Drop `json:"drops,omitempty"`
	// Strikes are standing air strike orders (8.5), flown if the side
	// finds enemy ships in the hex; Covers send fighters over a hex (8.522).
	Strikes []Strike `json:"strikes,omitempty"`
	Covers  []Strike `json:"covers,omitempty"`
	// CombatAsk: the side decides each round of its battles this turn in
	// person, in a short combat phase (8.24, 8.26-8.28).
	CombatAsk bool `json:"combat_ask,omitempty"`
	// Decision is the answer of a short decision phase; it is set only in
	// such a phase, and then it is all the orders hold.
	Decision *Decision `json:"decision,omitempty"`
}

// Strike sends an aircraft unit to a hex (8.5, 8.522).
type Strike struct {
	Unit string     `json:"unit"`
	Hex  engine.Hex `json:"hex"`
}

// Drop lands an airborne unit on an airfield (6.28).
type Drop struct {
	Unit     string `json:"unit"`
	Airfield string `json:"airfield"`
}

// Move moves one or more units along the same path (6.1). Enter marks an
// entry from the German area through an arrow hex (6.16): Arrow is the
// arrow, Spend the points spent off the map when the unit does not reach
// it this turn. Off moves the unit off the map from the path's last hex
// (6.18).
type Move struct {
	Units []string     `json:"units"`
	Enter bool         `json:"enter,omitempty"`
	Arrow engine.Hex   `json:"arrow"`
	Spend int          `json:"spend,omitempty"`
	Path  []engine.Hex `json:"path,omitempty"`
	Off   bool         `json:"off,omitempty"`
	Line  int          `json:"line,omitempty"`
}

// Search is one active search (6.3): "air" of Hex (6.32), or "surface" by
// Unit in the hex where it ends its move (6.33).
type Search struct {
	Kind string     `json:"kind"`
	Unit string     `json:"unit,omitempty"`
	Hex  engine.Hex `json:"hex"`
	Line int        `json:"line,omitempty"`
}

// EncounterOrder is a standing encounter choice (6.41) for the group a unit
// is in; Unit "" is the side's default.
type EncounterOrder struct {
	Unit   string `json:"unit,omitempty"`
	Choice string `json:"choice"`
}

// Target is a unit's preferred target type: its gunnery (8.271), its
// torpedoes as a submarine (8.12) or its bombs (8.521) go at a ship of
// that type when one is there.
type Target struct {
	Unit string `json:"unit"`
	Type string `json:"type"`
}

// TorpCap caps a unit's torpedo points a round (8.28).
type TorpCap struct {
	Unit   string `json:"unit"`
	Points int    `json:"points"`
}

// Abandon gives up a Norwegian port if its fortress defends: Lead takes
// the fire and every German ship there falls back (9.2).
type Abandon struct {
	Port string `json:"port"`
	Lead string `json:"lead,omitempty"`
}

// Expose names the German ships a fortress without torpedoes fires at on
// halved defence, in the German player's order (9.2: "the German player
// chooses which ships are fired upon").
type Expose struct {
	Port  string   `json:"port"`
	Units []string `json:"units"`
}

// Rebase transfers an aircraft unit to another base (6.21).
type Rebase struct {
	Unit string `json:"unit"`
	Base string `json:"base"`
}

// Detach detaches an independent destroyer from a destroyer task force
// (12.0).
type Detach struct {
	Destroyer string `json:"destroyer"`
	Flotilla  string `json:"flotilla"`
}

type parser struct {
	v     *View
	o     *Orders
	errs  []engine.LineError
	moved map[string]int // unit -> line of its move
	final map[string]engine.Hex
	air   int
	enc   map[string]int
	split map[string]int
	text  map[int]string
	// dropLines are airborne landings ordered before the invasion, valid
	// only if these orders' moves begin it (6.28).
	dropLines []engine.OrderLine
	// dry marks a parser trying out a hint: it makes no hints itself.
	dry bool
	// searches are read after every move: they use final hexes.
	searches []engine.OrderLine
}

func parseOrders(v *View, text string) (*Orders, []engine.LineError) {
	p := &parser{v: v, o: &Orders{}, moved: map[string]int{}, final: map[string]engine.Hex{}, enc: map[string]int{}, split: map[string]int{}}
	lines := engine.OrderLines(text)
	p.text = map[int]string{}
	for _, l := range lines {
		p.text[l.N] = l.Text
	}
	if len(lines) > engine.MaxOrderFileLines {
		l := lines[engine.MaxOrderFileLines]
		return nil, []engine.LineError{l.Errorf("", fmt.Sprintf("at most %d order lines", engine.MaxOrderFileLines), "too many order lines: this is line %d of orders", engine.MaxOrderFileLines+1)}
	}
	if v.Over {
		if len(lines) > 0 {
			return nil, []engine.LineError{lines[0].Errorf("16.0", "", "the game is over; no orders are owed")}
		}
		return p.o, nil
	}
	if v.Decision != nil {
		return p.decision(lines)
	}
	for _, l := range lines {
		turnDriver.Line(p, l)
	}
	for _, l := range p.searches {
		p.search(l)
	}
	p.invadingDrops()
	p.checkTrackedGroups()
	p.checkConvoy()
	p.checkWilfred()
	sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return p.o, nil
}

func (p *parser) fail(l engine.OrderLine, rule, valid, format string, args ...any) {
	p.errs = append(p.errs, l.Errorf(rule, valid, format, args...))
}

// onMapHex parses s as a hex of the map, or reports false.
func onMapHex(s string) (engine.Hex, bool) {
	h, err := engine.ParseHex(s)
	if err != nil || !TheMap().Grid().Contains(h) {
		return engine.Hex{}, false
	}
	return h, true
}

// units resolves a comma-separated list of unit names of the side.
func (p *parser) units(l engine.OrderLine, words []string) ([]string, bool) {
	if strings.TrimSpace(strings.Join(words, " ")) == "" {
		p.fail(l, "", "a unit name", "no unit named")
		return nil, false
	}
	out, bad := p.lookupUnits(words)
	if bad != "" {
		p.fail(l, "3.412", engine.Suggest(bad, p.ownNames()), "%q is not one of your units", bad)
		return nil, false
	}
	return out, true
}

// lookupUnits resolves a comma-separated list of unit names of the side;
// bad is the first name that is none of them.
func (p *parser) lookupUnits(words []string) (ids []string, bad string) {
	text := strings.Join(words, " ")
	for _, name := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == '+' }) {
		name = strings.TrimSpace(name)
		id, ok := lookupName(p.v.Side, name)
		if !ok || p.v.unit(id) == nil {
			return nil, name
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, text
	}
	return ids, ""
}

// offMapWord finds, in the words before a move's first hex of the map, a
// word written as a hex but off the map ("move Arethusa Z99"): the words
// before it name units of the side and it is where the path begins. It
// returns the word's index, or -1.
func (p *parser) offMapWord(words []string) int {
	if _, bad := p.lookupUnits(words); bad == "" {
		return -1
	}
	for j := len(words) - 1; j >= 1; j-- {
		if _, err := engine.ParseHex(words[j]); err != nil {
			continue
		}
		if _, bad := p.lookupUnits(words[:j]); bad == "" {
			return j
		}
	}
	return -1
}

// pathHint is a move line that would be accepted, for the error on a word
// of a move's path that is not a hex of the map: the line so far, one hex
// further, to the first neighbouring hex every unit of the line may enter
// (a hex name is letters then a number, rows A-FF, columns 1-20).
func (p *parser) pathHint(l engine.OrderLine, mv Move) string {
	fallback := "hex names such as Q16, on the map (rows A-FF, columns 1-20)"
	from, ok := engine.Hex{}, false
	switch {
	case len(mv.Path) > 0:
		from, ok = mv.Path[len(mv.Path)-1], true
	case mv.Enter:
		from, ok = mv.Arrow, true
	default:
		if u := p.v.unit(mv.Units[0]); u != nil && u.Where == AtMap {
			from, _ = engine.ParseHex(u.Hex)
			ok = true
		}
	}
	if !ok {
		return fallback
	}
	for _, n := range from.Neighbors() {
		try := mv
		try.Path = append(append([]engine.Hex(nil), mv.Path...), n)
		dry := &parser{v: p.v, o: &Orders{}, dry: true}
		good := TheMap().Grid().Contains(n)
		for _, id := range mv.Units {
			good = good && dry.checkMove(l, id, &try)
		}
		if good {
			return formatMove(try)
		}
	}
	return fallback
}

// cutHint is the longest start of a move's path that every unit of the
// move may steam this turn, as a move line that would be accepted, or ""
// (a hint is only ever something valid).
func (p *parser) cutHint(l engine.OrderLine, mv Move) string {
	if p.dry {
		return ""
	}
	for n := len(mv.Path); n >= 1; n-- {
		try := mv
		try.Path, try.Off = mv.Path[:n], false
		if n == len(mv.Path) && !mv.Off {
			continue
		}
		dry := &parser{v: p.v, o: &Orders{}, dry: true}
		good := true
		for _, id := range mv.Units {
			good = good && dry.checkMove(l, id, &try)
		}
		if good {
			return formatMove(try)
		}
	}
	return ""
}

// ownNames lists the side's units that may take orders, by name.
func (p *parser) ownNames() []string {
	var names []string
	for _, u := range p.v.Units {
		if u.Where == AtMap || u.Where == AtHeld || u.Where == AtBase {
			names = append(names, u.Name)
		}
	}
	return names
}

func (p *parser) trackerUnit(id string) bool {
	for _, t := range p.v.Tracking {
		if contains(t.Units, id) {
			return true
		}
	}
	return false
}

func (p *parser) move(l engine.OrderLine, enter bool) {
	f := l.Fields[1:]
	i := 0
	for i < len(f) {
		if _, ok := onMapHex(f[i]); ok || strings.EqualFold(f[i], "off") || strings.EqualFold(f[i], "exit") {
			break
		}
		i++
	}
	if j := p.offMapWord(f[:i]); j >= 0 {
		i = j // "move Arethusa Z99": Z99 is where the path goes wrong
	}
	ids, ok := p.units(l, f[:i])
	if !ok {
		return
	}
	rest := f[i:]
	mv := Move{Units: ids, Enter: enter, Line: l.N}
	if enter {
		if rest, ok = p.entry(l, &mv, rest); !ok {
			return
		}
	}
	if !p.movePath(l, &mv, rest) {
		return
	}
	if !enter && len(mv.Path) == 0 && !mv.Off {
		p.fail(l, "6.12", "move UNIT HEX HEX ... (a unit that stays needs no order)", "no path")
		return
	}
	for _, id := range ids {
		if prev, dup := p.moved[id]; dup {
			p.fail(l, "6.11", "one move order a unit", "%s already moves on line %d", def(id).Name, prev)
			return
		}
		if !p.checkMove(l, id, &mv) {
			return
		}
	}
	for _, id := range ids {
		p.moved[id] = l.N
		if mv.Off {
			delete(p.final, id)
		} else if len(mv.Path) > 0 {
			p.final[id] = mv.Path[len(mv.Path)-1]
		} else if mv.Enter && mv.Spend == 0 {
			p.final[id] = mv.Arrow
		}
	}
	p.o.Moves = append(p.o.Moves, mv)
}

// entry reads an entry's arrow hex and spend (6.16) into mv: the words
// after them, or false after an error.
func (p *parser) entry(l engine.OrderLine, mv *Move, rest []string) ([]string, bool) {
	if p.v.Side != German {
		p.fail(l, "6.16", "move UNIT HEX ...", "only German ships enter from the German area")
		return nil, false
	}
	if len(rest) == 0 {
		p.fail(l, "6.16", "enter UNIT ARROW [HEX ...] or enter UNIT ARROW spend N", "no arrow hex")
		return nil, false
	}
	arrow, _ := onMapHex(rest[0])
	if _, ok := TheMap().EntryCost(arrow); !ok {
		p.fail(l, "6.16", arrowList(), "%s is not an entry arrow", rest[0])
		return nil, false
	}
	mv.Arrow = arrow
	rest = rest[1:]
	if len(rest) >= 2 && strings.EqualFold(rest[0], "spend") {
		n, err := strconv.Atoi(rest[1])
		if err != nil || n < 1 {
			p.fail(l, "6.16", "spend N, N at least 1", "%q is not a number of movement points", rest[1])
			return nil, false
		}
		mv.Spend = n
		rest = rest[2:]
		if len(rest) > 0 {
			p.fail(l, "6.16", "enter UNIT ARROW spend N", "a unit that spends part of the way off the map moves no further this turn")
			return nil, false
		}
	}
	return rest, true
}

// movePath reads the hexes of mv's path, and off at its end (6.13, 6.18),
// or records why not.
func (p *parser) movePath(l engine.OrderLine, mv *Move, rest []string) bool {
	for j, w := range rest {
		if strings.EqualFold(w, "off") || strings.EqualFold(w, "exit") {
			if j != len(rest)-1 {
				p.fail(l, "6.18", "... HEX off", "off must end the path")
				return false
			}
			mv.Off = true
			break
		}
		h, ok := onMapHex(w)
		if !ok {
			p.fail(l, "6.13", p.pathHint(l, *mv), "%q is not a hex of the map (rows A-FF, columns 1-20)", w)
			return false
		}
		mv.Path = append(mv.Path, h)
	}
	return true
}

func arrowList() string {
	var out []string
	for _, h := range TheMap().Grid().All() {
		if c, ok := TheMap().EntryCost(h); ok {
			out = append(out, fmt.Sprintf("%s (%d)", h, c))
		}
	}
	return "entry arrows: " + strings.Join(out, ", ")
}

// checkMove validates one unit's part of a move line.
func (p *parser) checkMove(l engine.OrderLine, id string, mv *Move) bool {
	v := p.v
	u := v.unit(id)
	d := def(id)
	if !p.mayMove(l, id, u, d) {
		return false
	}
	var start engine.Hex
	var done, ok bool
	if mv.Enter {
		start, done, ok = p.entryStart(l, u, d, mv)
	} else {
		start, done, ok = p.mapStart(l, u, d, mv)
	}
	if done {
		return ok
	}
	prev := start
	for i, h := range mv.Path {
		rule, msg := enterable(v.Side, d.Nation, d.Sub(), h, v.Turn, v.Intervention)
		if rule == "" {
			rule, msg = crossableFrom(d.Sub(), prev, h)
		}
		if rule != "" {
			hint := ""
			if i > 0 {
				cut := *mv
				cut.Path = mv.Path[:i+1]
				hint = p.cutHint(l, cut)
			}
			p.fail(l, rule, hint, "%s", msg)
			return false
		}
		prev = h
	}
	if d.Type == "PT" && contains(v.Options, OptSupply) {
		for _, h := range mv.Path {
			if h.Row > RowS {
				p.fail(l, "13.0", "stay in row S or south of it", "S-boats may not go north of row S (%s)", h)
				return false
			}
		}
	}
	if mv.Off && !edge(prev) {
		p.fail(l, "6.18", "leave the map from an edge hex", "%s is not an edge hex", prev)
		return false
	}
	if mv.Off && (id == "hn25" || id == v.ConvoyEscort) && !convoyExit(prev) {
		p.fail(l, "14.1", "the west edge between G1 and K1", "the HN25 convoy and its escort leave the map between G1 and K1, not at %s", prev)
		return false
	}
	return true
}

// mayMove reports whether the unit takes move orders at all this turn
// (aircraft, trackers, disabled or returning ships and the neutral
// navies do not), or records why not.
func (p *parser) mayMove(l engine.OrderLine, id string, u *UnitView, d *UnitDef) bool {
	v := p.v
	if d.Air {
		p.fail(l, "6.21", "rebase AIRCRAFT to BASE", "%s is an aircraft unit: aircraft move in the combat phase, or transfer with rebase", d.Name)
		return false
	}
	if p.trackerUnit(id) {
		p.fail(l, "6.44", "no move order for a tracking unit", "%s is tracking: it follows the tracked group at the start of the movement phase", d.Name)
		return false
	}
	if u.Disabled {
		p.fail(l, "8.661", "no move order: it moves by itself", "%s has engine damage or was forced back to port (8.662): it goes home by itself", d.Name)
		return false
	}
	if u.Returning {
		p.fail(l, "14.0", "no move order: it moves by itself", "%s is short of fuel and returns to Scapa Flow with all its movement", d.Name)
		return false
	}
	danesFree := d.Nation == "DK" && v.DanesFrom > 0 && v.Turn >= v.DanesFrom
	if (d.Nation == "NO" || d.Nation == "DK") && !danesFree && (v.Intervention == 0 || v.Turn < v.Intervention) {
		p.fail(l, "6.15", "", "Norwegian and Danish units may move only from two turns after the German invasion")
		return false
	}
	return true
}

// entryStart checks an entry from the German area (6.16) and its
// allowance: the arrow the path starts from, or done with the verdict
// when nothing more is to check.
func (p *parser) entryStart(l engine.OrderLine, u *UnitView, d *UnitDef, mv *Move) (start engine.Hex, done, ok bool) {
	v := p.v
	switch {
	case u.Where == AtHeld:
	case u.Where == AtReserve && v.InvasionTurn > 0 && v.Turn > v.InvasionTurn:
	case u.Where == AtReserve:
		p.fail(l, "4.424", "", "%s is a reserve ship and enters only on a turn after the German invasion turn", d.Name)
		return start, true, false
	default:
		p.fail(l, "6.16", "move UNIT HEX ...", "%s is not in the German area off the map (it is %s)", d.Name, u.Where)
		return start, true, false
	}
	cost, _ := TheMap().EntryCost(mv.Arrow)
	remaining := cost
	if u.Arrow == mv.Arrow.String() {
		remaining -= u.Spent
	}
	allow := u.Allowance // from the German area: never a south move (15.2) nor a sheltered start (15.3)
	if mv.Spend > 0 {
		if mv.Spend >= remaining {
			p.fail(l, "6.16", fmt.Sprintf("spend 1-%d, or enter without spend", remaining-1), "spending %d reaches %s, which needs %d more: write the entry without spend", mv.Spend, mv.Arrow, remaining)
			return start, true, false
		}
		if mv.Spend > allow {
			p.fail(l, "6.12", fmt.Sprintf("spend 1-%d", allow), "%s has a movement allowance of %d this turn", d.Name, allow)
			return start, true, false
		}
		return start, true, true
	}
	need := remaining + len(mv.Path)
	if mv.Off {
		need++
	}
	if allow < remaining {
		if len(mv.Path) > 0 || mv.Off {
			p.fail(l, "6.16", fmt.Sprintf("enter %s %s (spends %d of the %d points it needs)", d.Name, mv.Arrow, allow, remaining), "%s needs %d points to reach %s and has %d this turn", d.Name, remaining, mv.Arrow, allow)
			return start, true, false
		}
		return start, true, true // spends its whole allowance (resolved per unit)
	}
	if need > allow {
		hint := p.cutHint(l, *mv)
		if hint == "" {
			hint = fmt.Sprintf("enter %s %s", d.Name, mv.Arrow)
		}
		p.fail(l, "6.12", hint, "%s needs %d points (%d to reach %s, then %d) and has %d", d.Name, need, remaining, mv.Arrow, need-remaining, allow)
		return start, true, false
	}
	return mv.Arrow, false, true
}

// mapStart checks a move of a unit on the map against its allowance
// (6.12, 15.2): the hex the path starts from, or done with the verdict.
func (p *parser) mapStart(l engine.OrderLine, u *UnitView, d *UnitDef, mv *Move) (start engine.Hex, done, ok bool) {
	v := p.v
	if u.Where != AtMap {
		valid := ""
		if u.Where == AtHeld {
			valid = "enter " + d.Name + " ARROW ..."
		}
		p.fail(l, "6.1", valid, "%s is not on the map (it is %s)", d.Name, u.Where)
		return start, true, false
	}
	start, _ = engine.ParseHex(u.Hex)
	allow := u.Allowance
	if u.AllowanceSouth > 0 && movesSouth(start, mv.Path) {
		allow = u.AllowanceSouth // 15.2
	}
	need := len(mv.Path)
	if mv.Off {
		need++
	}
	if need > allow {
		rule := "6.12"
		if v.WeatherOn && allow < u.fairAllowance(d, v.Turn) {
			rule = "15.0"
		}
		hint := p.cutHint(l, *mv)
		if hint == "" {
			hint = fmt.Sprintf("at most %d hexes", allow)
		}
		p.fail(l, rule, hint, "%s moves %d and has a movement allowance of %d this turn", d.Name, need, allow)
		return start, true, false
	}
	return start, false, true
}

func isArrow(h engine.Hex) bool {
	_, ok := TheMap().EntryCost(h)
	return ok
}

// crossableFrom is crossable, except that an entry arrow hex is an off-map
// approach whose own terrain does not block the way on (6.16).
func crossableFrom(sub bool, a, b engine.Hex) (string, string) {
	if isArrow(a) {
		if _, adj := a.DirectionTo(b); !adj {
			return "6.13", fmt.Sprintf("%s is not next to %s; a path names every hex entered", b, a)
		}
		if TheMap().LandHexside(a, b) {
			return "6.14", fmt.Sprintf("the hexside %s/%s is land", a, b)
		}
		return "", ""
	}
	return crossable(sub, a, b)
}

func (p *parser) search(l engine.OrderLine) {
	f := l.Fields[1:]
	kind := strings.ToLower(f[0])
	switch kind {
	case "air":
		p.airSearch(l, f)
	default:
		p.surfaceSearch(l, f, kind)
	}
}

// airSearch reads "search air [AIRCRAFT] HEX" (6.32): at most three a
// turn, by day.
func (p *parser) airSearch(l engine.OrderLine, f []string) {
	if !p.v.DayTurn {
		p.fail(l, "6.35", "surface searches only", "no air searches on night turns")
		return
	}
	if len(f) < 2 {
		p.fail(l, "6.32", "search air HEX", "no hex")
		return
	}
	h, ok := onMapHex(f[len(f)-1])
	if !ok {
		p.fail(l, "6.32", "search air HEX", "%q is not a hex of the map", f[len(f)-1])
		return
	}
	unit := ""
	if len(f) > 2 {
		ids, ok := p.units(l, f[1:len(f)-1])
		if !ok {
			return
		}
		if len(ids) != 1 || !def(ids[0]).Air {
			p.fail(l, "6.32", "search air [AIRCRAFT] HEX", "an air search names at most one aircraft unit")
			return
		}
		unit = ids[0]
	}
	p.air++
	if p.air > 3 {
		p.fail(l, "6.32", "at most 3 air searches a turn", "a fourth air search")
		return
	}
	p.o.Searches = append(p.o.Searches, Search{Kind: "air", Unit: unit, Hex: h, Line: l.N})
}

// surfaceSearch reads "search [surface] UNIT" (6.33): from the unit's hex
// at the end of its move, one a hex.
func (p *parser) surfaceSearch(l engine.OrderLine, f []string, kind string) {
	words := f
	if kind == "surface" {
		words = f[1:]
	}
	if len(words) == 1 {
		if h, ok := onMapHex(words[0]); ok {
			p.fail(l, "6.33", "search air "+h.String()+", or search surface UNIT", "a surface search names the searching unit, an air search the hex")
			return
		}
	}
	ids, ok := p.units(l, words)
	if !ok {
		return
	}
	if len(ids) != 1 {
		p.fail(l, "6.33", "search surface UNIT", "one unit a search line")
		return
	}
	id := ids[0]
	d := def(id)
	if d.Air {
		p.fail(l, "6.32", "search air HEX", "air searches are abstract and name a hex")
		return
	}
	if d.Sub() && !p.v.DayTurn {
		p.fail(l, "6.35", "", "submarines cannot search on night turns")
		return
	}
	h, ok := p.final[id]
	if !ok {
		u := p.v.unit(id)
		if u.Where != AtMap || p.moved[id] != 0 {
			p.fail(l, "6.33", "", "%s is not on the map at the end of its move", d.Name)
			return
		}
		h, _ = engine.ParseHex(u.Hex)
	}
	for _, s := range p.o.Searches {
		if s.Kind == "surface" && s.Hex == h {
			p.fail(l, "6.33", "one surface search a hex", "%s already searches %s (line %d)", def(s.Unit).Name, h, s.Line)
			return
		}
	}
	p.o.Searches = append(p.o.Searches, Search{Kind: "surface", Unit: id, Hex: h, Line: l.N})
}

func (p *parser) encounter(l engine.OrderLine) {
	f := l.Fields[1:]
	if len(f) < 2 {
		p.fail(l, "6.41", "encounter UNIT|all track|evade|fight|ask", "an encounter order names a group and a choice")
		return
	}
	choice := strings.ToLower(f[len(f)-1])
	if choice != ChoiceTrack && choice != ChoiceEvade && choice != ChoiceFight && choice != ChoiceAsk {
		p.fail(l, "6.41", "track, evade, fight, or ask to decide in person", "%q is not an encounter choice", f[len(f)-1])
		return
	}
	who := f[:len(f)-1]
	unit := ""
	if !(len(who) == 1 && (strings.EqualFold(who[0], "all") || strings.EqualFold(who[0], "default"))) {
		ids, ok := p.units(l, who)
		if !ok {
			return
		}
		if len(ids) != 1 {
			p.fail(l, "6.41", "encounter UNIT choice", "one unit a line")
			return
		}
		unit = ids[0]
		if !def(unit).Surface() {
			p.fail(l, "6.41", "", "submarines and aircraft take no part in encounters")
			return
		}
	}
	if prev, dup := p.enc[unit]; dup {
		p.fail(l, "6.41", "one choice a group", "a second choice for the same group (line %d)", prev)
		return
	}
	p.enc[unit] = l.N
	p.o.Encounters = append(p.o.Encounters, EncounterOrder{Unit: unit, Choice: choice})
}

func (p *parser) splitLine(l engine.OrderLine) {
	if !contains(p.v.Options, OptSplitting) {
		p.fail(l, "6.43", "", "splitting to escape is an optional rule not in this game")
		return
	}
	ids, ok := p.units(l, l.Fields[1:])
	if !ok {
		return
	}
	var group *TrackView
	for i := range p.v.Tracked {
		if contains(p.v.Tracked[i].Units, ids[0]) {
			group = &p.v.Tracked[i]
		}
	}
	if group == nil {
		p.fail(l, "6.43", "", "%s is not in a tracked group", def(ids[0]).Name)
		return
	}
	for _, id := range ids {
		if !contains(group.Units, id) {
			p.fail(l, "6.43", "", "%s is not in the tracked group at %s", def(id).Name, group.Hex)
			return
		}
		if prev, dup := p.split[id]; dup {
			p.fail(l, "6.43", "", "%s is already split off on line %d", def(id).Name, prev)
			return
		}
	}
	for _, id := range ids {
		p.split[id] = l.N
	}
	p.o.Splits = append(p.o.Splits, sortedIDs(ids))
}

// groupsOf returns the groups a tracked stack moves in this turn: each split
// line is a group, the rest one more (6.43).
func groupsOf(units []string, splits [][]string) [][]string {
	var out [][]string
	used := map[string]bool{}
	for _, sp := range splits {
		var g []string
		for _, id := range sp {
			if contains(units, id) {
				g = append(g, id)
				used[id] = true
			}
		}
		if len(g) > 0 {
			out = append(out, g)
		}
	}
	var rest []string
	for _, id := range units {
		if !used[id] {
			rest = append(rest, id)
		}
	}
	if len(rest) > 0 {
		out = append(out, rest)
	}
	return out
}

// checkTrackedGroups: a tracked group moves together unless split (6.43, 6.44).
func (p *parser) checkTrackedGroups() {
	for _, t := range p.v.Tracked {
		var free []string
		for _, id := range t.Units {
			if u := p.v.unit(id); u != nil && !u.Disabled && !u.Returning {
				free = append(free, id)
			}
		}
		if len(free) == 0 {
			continue
		}
		for _, g := range groupsOf(free, p.o.Splits) {
			key := func(id string) string {
				for _, m := range p.o.Moves {
					if contains(m.Units, id) {
						return fmt.Sprint(m.Enter, m.Arrow, m.Path, m.Off)
					}
				}
				return "stay"
			}
			first := key(g[0])
			for _, id := range g[1:] {
				if key(id) != first {
					line := p.moved[id]
					if line == 0 {
						line = p.moved[g[0]]
					}
					rule, valid := "6.44", "move the tracked group along one path"
					if contains(p.v.Options, OptSplitting) {
						rule, valid = "6.43", "split the group first: split UNIT, UNIT"
					}
					p.errs = append(p.errs, engine.LineError{Line: line, Text: p.text[line], Rule: rule, Valid: valid, Msg: fmt.Sprintf("%s and %s are tracked together at %s and must move together", def(g[0]).Name, def(id).Name, t.Hex)})
					return
				}
			}
		}
	}
}

// shipTypes are the ship types a target order may name (3.413).
var shipTypes = []string{"BB", "BC", "CV", "PD", "AS", "ACD", "CA", "CL", "DD", "TB", "ML", "AGP", "PT", "AO", "CONVOY"}

func (p *parser) target(l engine.OrderLine) {
	f := l.Fields[1:]
	typ := strings.ToUpper(f[len(f)-1])
	if !contains(shipTypes, typ) {
		p.fail(l, "3.413", strings.Join(shipTypes, ", "), "%q is not a ship type", f[len(f)-1])
		return
	}
	ids, ok := p.units(l, f[:len(f)-1])
	if !ok {
		return
	}
	for _, id := range ids {
		for _, t := range p.o.Targets {
			if t.Unit == id {
				p.fail(l, "8.271", "one target order a unit", "%s already has a target", def(id).Name)
				return
			}
		}
		p.o.Targets = append(p.o.Targets, Target{Unit: id, Type: typ})
	}
}

func (p *parser) torpLimit(l engine.OrderLine) {
	f := l.Fields[1:]
	n, err := strconv.Atoi(f[len(f)-1])
	if err != nil || n < 0 {
		p.fail(l, "8.28", "torpedoes UNIT N, N 0 or more", "%q is not a number of torpedo points", f[len(f)-1])
		return
	}
	ids, ok := p.units(l, f[:len(f)-1])
	if !ok {
		return
	}
	for _, id := range ids {
		// 8.0: "attacking is not compulsory": from rules revision 2 a
		// submarine's cap of 0 holds its attack (8.1) this turn.
		sub := def(id).Sub() && p.v.rev().Has(SubmarineHoldsAttack)
		if def(id).Torpedo == 0 || (def(id).Sub() && !sub) {
			p.fail(l, "3.417", "", "%s carries no torpedoes it fires in a surface battle", def(id).Name)
			return
		}
		p.o.TorpCaps = append(p.o.TorpCaps, TorpCap{Unit: id, Points: n})
	}
}

func (p *parser) abandon(l engine.OrderLine) {
	if p.v.Side != German {
		p.fail(l, "9.2", "", "only the Germans attempt ports and give them up")
		return
	}
	port, ok := p.norwegianPort(l)
	if !ok {
		return
	}
	a := Abandon{Port: port}
	if len(l.Fields) > 2 {
		ids, ok := p.units(l, l.Fields[2:])
		if !ok {
			return
		}
		a.Lead = ids[0]
	}
	p.o.Abandons = append(p.o.Abandons, a)
}

// norwegianPort reads the port named by the line's second word.
func (p *parser) norwegianPort(l engine.OrderLine) (string, bool) {
	for _, np := range norwegianPorts() {
		if strings.EqualFold(np.Port, l.Fields[1]) {
			return np.Port, true
		}
	}
	p.fail(l, "9.2", "Oslo, Kristiansand, Stavanger, Bergen, Trondheim or Narvik", "%q is not a Norwegian port city", l.Fields[1])
	return "", false
}

// expose reads "expose PORT SHIP[, SHIP ...]" (9.2, rules revision 2).
func (p *parser) expose(l engine.OrderLine) {
	if p.v.Side != German {
		p.fail(l, "9.2", "", "only the Germans choose which of their ships a fortress fires at")
		return
	}
	port, ok := p.norwegianPort(l)
	if !ok {
		return
	}
	ids, ok := p.units(l, l.Fields[2:])
	if !ok {
		return
	}
	for _, id := range ids {
		if !def(id).Surface() {
			p.fail(l, "9.2", "", "%s is no surface ship: fortresses fire at surface ships", def(id).Name)
			return
		}
	}
	for _, x := range p.o.Exposes {
		if x.Port == port {
			p.fail(l, "9.2", "one expose order a port", "a second expose order for %s", port)
			return
		}
	}
	p.o.Exposes = append(p.o.Exposes, Expose{Port: port, Units: ids})
}

// checkConvoy: the HN25 convoy and its escort move together (14.1).
func (p *parser) checkConvoy() {
	c, e := p.v.unit("hn25"), p.v.unit(p.v.ConvoyEscort)
	if c == nil || e == nil || c.Where != AtMap || e.Where != AtMap || c.Hex != e.Hex || c.Disabled || e.Disabled || e.Returning {
		return
	}
	key := func(id string) string {
		for _, m := range p.o.Moves {
			if contains(m.Units, id) {
				return fmt.Sprint(m.Path, m.Off)
			}
		}
		return "stay"
	}
	if key("hn25") != key(e.ID) {
		line := p.moved["hn25"]
		if line == 0 {
			line = p.moved[e.ID]
		}
		p.errs = append(p.errs, engine.LineError{Line: line, Text: p.text[line], Rule: "14.1", Valid: "move HN25 Convoy, " + e.Name + " HEX ...", Msg: "the HN25 convoy and its escort " + e.Name + " move together"})
	}
}

// checkWilfred: the 4th Echelon moves together while it carries the
// Wilfred Force (11.1).
func (p *parser) checkWilfred() {
	if p.v.Wilfred == nil || p.v.Wilfred.Status != "aboard" {
		return
	}
	var ids []string
	for _, id := range FourthEchelon {
		if u := p.v.unit(id); u != nil && u.Where == AtMap && !u.Disabled && !u.Returning {
			ids = append(ids, id)
		}
	}
	key := func(id string) string {
		for _, m := range p.o.Moves {
			if contains(m.Units, id) {
				return fmt.Sprint(m.Path, m.Off)
			}
		}
		return "stay"
	}
	for _, id := range ids[min(1, len(ids)):] {
		if key(id) != key(ids[0]) {
			line := p.moved[id]
			if line == 0 {
				line = p.moved[ids[0]]
			}
			p.errs = append(p.errs, engine.LineError{Line: line, Text: p.text[line], Rule: "11.1", Valid: "move York, Devonshire, Berwick, Glasgow HEX ...", Msg: "the 4th Echelon moves together while it carries the Wilfred Force"})
			return
		}
	}
}

func (p *parser) rebase(l engine.OrderLine) {
	f := l.Fields[1:]
	to := -1
	for i, w := range f {
		if strings.EqualFold(w, "to") {
			to = i
		}
	}
	if to < 1 || to == len(f)-1 {
		p.fail(l, "6.21", "rebase AIRCRAFT to BASE", "a transfer names the aircraft and its new base")
		return
	}
	ids, ok := p.units(l, f[:to])
	if !ok {
		return
	}
	base := strings.Join(f[to+1:], " ")
	if !p.v.DayTurn {
		p.fail(l, "5.2", "", "aircraft transfer only on day turns")
		return
	}
	for _, id := range ids {
		for _, x := range append(append([]Strike(nil), p.o.Strikes...), p.o.Covers...) {
			if x.Unit == id {
				p.fail(l, "3.421", "", "%s flies this turn and may not also transfer", def(id).Name)
				return
			}
		}
		for _, r := range p.o.Rebases {
			if r.Unit == id {
				p.fail(l, "6.21", "", "%s already transfers this turn", def(id).Name)
				return
			}
		}
		if msg, rule := p.checkRebase(id, base); msg != "" {
			p.fail(l, rule, "", "%s", msg)
			return
		}
		p.o.Rebases = append(p.o.Rebases, Rebase{Unit: id, Base: resolveBase(p.v.Side, base)})
	}
}

// resolveBase turns a base name into the stored form: an airfield's name or
// a carrier's unit id.
func resolveBase(side engine.Side, name string) string {
	if _, af, ok := airfieldHex(name); ok {
		return af.Name
	}
	if id, ok := lookupName(side, name); ok {
		return id
	}
	return name
}

// baseHex is where an aircraft base is; false for the German area.
func baseHexIn(units func(id string) (string, string), base string) (engine.Hex, bool) {
	if h, _, ok := airfieldHex(base); ok {
		return h, true
	}
	if where, hex := units(base); where == AtMap {
		h, err := engine.ParseHex(hex)
		return h, err == nil
	}
	return engine.Hex{}, false
}

func (p *parser) scramble(l engine.OrderLine) {
	f := l.Fields[1:]
	switch {
	case p.v.Side != German:
		p.fail(l, "6.29", "", "only the German player declares an Air Emergency Scramble")
	case len(f) == 0:
		if p.v.Scramble != "" {
			p.fail(l, "6.291", "", "the Air Emergency Scramble may be declared only once a game")
			return
		}
		p.o.Scramble = true
	case len(f) == 1 && strings.EqualFold(f[0], "cancel"):
		if p.v.Scramble != "active" {
			p.fail(l, "6.291", "", "no Air Emergency Scramble is in effect")
			return
		}
		p.o.Cancel = true
	default:
		p.fail(l, "6.29", "scramble, or scramble cancel", "scramble takes nothing or cancel")
	}
}

// airborneTargets are the airfields airborne troops may land on (6.28):
// the three snow-free ones, or every Norwegian airfield with 17.1.
func airborneTarget(v *View, name string) bool {
	if contains(v.Options, OptNorFighters) {
		_, af, ok := airfieldHex(name)
		return ok && af.Country == "NO"
	}
	return name == "Sola" || name == "Fornebu" || name == "Kjevik"
}

func (p *parser) airborne(l engine.OrderLine) {
	f := l.Fields[1:]
	if p.v.Side != German {
		p.fail(l, "6.28", "", "only the Germans have airborne troops")
		return
	}
	ids, ok := p.units(l, f[:len(f)-1])
	if !ok {
		return
	}
	id := ids[0]
	u := p.v.unit(id)
	if def(id).Type != "AB" || u.Where != AtBase {
		p.fail(l, "6.28", "", "%s is not an airborne unit waiting off the map (each lands once)", def(id).Name)
		return
	}
	switch {
	case !p.v.DayTurn:
		p.fail(l, "6.28", "", "airborne troops land on day turns only")
		return
	case p.v.InvasionTurn == 0 && !p.v.rev().Has(AirborneInvasionTurn):
		p.fail(l, "6.28", "", "airborne troops land on day turns from the turn the invasion of Norway begins")
		return
	case p.v.InvasionTurn == 0:
		// 6.28: "From the turn the German invasion of Norway begins":
		// this turn, if these orders begin it (checked once every move
		// is read, invadingDrops).
		p.dropLines = append(p.dropLines, l)
	}
	_, af, ok := airfieldHex(f[len(f)-1])
	if !ok || !airborneTarget(p.v, af.Name) {
		p.fail(l, "6.28", "Sola, Fornebu or Kjevik", "%q is not an airfield airborne troops may land on", f[len(f)-1])
		return
	}
	if contains(p.v.Options, OptNorFighters) && (af.Name == "Fornebu" || af.Name == "Kjeller") {
		// 17.13: not on a hex holding Norwegian fighters (17.11 places
		// them at Fornebu and Kjeller).
		p.fail(l, "17.13", "another airfield", "Norwegian fighters are based at %s", af.Name)
		return
	}
	for _, d := range p.o.Drops {
		if d.Unit == id {
			p.fail(l, "6.28", "", "%s lands only once", def(id).Name)
			return
		}
	}
	p.o.Drops = append(p.o.Drops, Drop{Unit: id, Airfield: af.Name})
}

// invadingDrops refuses the airborne landings ordered before the invasion
// unless a move of these orders begins it: a German surface ship other
// than an oiler or the Q-ships entering a Norwegian coastal, fjord or port
// hex (9.1), so that the invasion begins this turn (6.28).
func (p *parser) invadingDrops() {
	if len(p.dropLines) == 0 {
		return
	}
	for _, mv := range p.o.Moves {
		for _, id := range mv.Units {
			if d := def(id); !d.Surface() || d.Type == "AO" || d.Type == "UF" {
				continue
			}
			for _, h := range mv.Path {
				if norwegian(h) {
					return
				}
			}
		}
	}
	for _, l := range p.dropLines {
		p.fail(l, "6.28", "move a German warship into a Norwegian coastal hex this turn, or land the troops on a later day turn", "airborne troops land from the turn the invasion of Norway begins, and no move of these orders begins it")
	}
}

func (p *parser) strike(l engine.OrderLine, cover bool) {
	f := l.Fields[1:]
	verb := "strike AIRCRAFT HEX"
	if cover {
		verb = "cover FIGHTER HEX"
	}
	h, ok := onMapHex(f[len(f)-1])
	if !ok {
		p.fail(l, "8.5", verb, "%q is not a hex of the map", f[len(f)-1])
		return
	}
	ids, ok := p.units(l, f[:len(f)-1])
	if !ok {
		return
	}
	for _, id := range ids {
		d, u := def(id), p.v.unit(id)
		switch {
		case !d.Air || d.Type == "AB" || d.Type == "TR":
			p.fail(l, "8.5", "", "%s does not fly strikes", d.Name)
			return
		case !cover && d.Type == "F" && !(contains(p.v.Options, OptSkua) && strings.Contains(d.Name, "Skua")):
			p.fail(l, "8.522", "cover "+d.Name+" HEX", "%s is a fighter: fighters fly cover, not strikes", d.Name)
			return
		case cover && d.Type != "F" && !(contains(p.v.Options, OptSkua) && strings.Contains(d.Name, "Skua")):
			p.fail(l, "8.522", "", "only fighters fly cover; %s is %s", d.Name, d.Type)
			return
		case !p.v.DayTurn:
			p.fail(l, "8.51", "", "aircraft attack only on day turns")
			return
		case u.Where != AtBase || u.Used || (u.Struck != 0 && u.Struck >= p.v.Turn-1):
			p.fail(l, "8.51", "", "%s is not ready: it transferred this turn or flew last turn", d.Name)
			return
		}
		for _, r := range p.o.Rebases {
			if r.Unit == id {
				p.fail(l, "3.421", "", "%s transfers this turn and may not also attack", d.Name)
				return
			}
		}
		for _, x := range append(append([]Strike(nil), p.o.Strikes...), p.o.Covers...) {
			if x.Unit == id {
				p.fail(l, "8.521", "", "%s already flies this turn", d.Name)
				return
			}
		}
		if dist, ok := p.airDistance(id, h); ok && dist > d.Radius {
			p.fail(l, "6.23", fmt.Sprintf("within %d of its base", d.Radius), "%s is %d hexes from %s's base", h, dist, d.Name)
			return
		}
		if cover {
			p.o.Covers = append(p.o.Covers, Strike{Unit: id, Hex: h})
		} else {
			p.o.Strikes = append(p.o.Strikes, Strike{Unit: id, Hex: h})
		}
	}
}

// airDistance is how far an aircraft flies from its base to h (6.22, 6.23).
func (p *parser) airDistance(id string, h engine.Hex) (int, bool) {
	u := p.v.unit(id)
	lookup := func(x string) (string, string) {
		if uv := p.v.unit(x); uv != nil {
			return uv.Where, uv.Hex
		}
		return "", ""
	}
	if from, ok := baseHexIn(lookup, u.Base); ok {
		return from.Distance(h), true
	}
	if u.Base == "German area" {
		return 4 + engine.Hex{Row: 1, Col: 15}.Distance(h), true
	}
	return 0, false
}

// capacity is how many aircraft units a base holds (3.423, 6.26, 6.292).
func capacity(v *View, base string) int {
	if _, af, ok := airfieldHex(base); ok {
		c := af.Capacity
		if v.Side == German && af.Country == "NO" && v.Scramble == "active" {
			c++ // 6.292
		}
		return c
	}
	if d, ok := UnitByID(base); ok {
		if d.ID == "furious" && contains(v.Options, OptGladiators) {
			return d.Carrier + 1 // 17.14: the Gladiators come on top
		}
		return d.Carrier
	}
	return 99 // the German area off the map
}

func (p *parser) checkRebase(id, base string) (msg, rule string) {
	d := def(id)
	u := p.v.unit(id)
	if !d.Air {
		return d.Name + " is not an aircraft unit", "6.21"
	}
	if d.Type == "AB" {
		return d.Name + " is an airborne unit: it lands with an airborne order", "6.28"
	}
	if u.Where != AtBase || u.Used {
		return d.Name + " is not ready at a base (face down units wait for the next turn)", "6.27"
	}
	target := resolveBase(p.v.Side, base)
	to, msg, rule := p.rebaseTo(d, id, base, target)
	if msg != "" {
		return msg, rule
	}
	if p.baseLoad(target) >= capacity(p.v, target) {
		return fmt.Sprintf("%s is full: it holds %d aircraft units", base, capacity(p.v, target)), "3.423"
	}
	dist := rebaseDistance(p.v, u, to)
	if d.Nation == "NO" && dist > d.Radius {
		return fmt.Sprintf("%s is %d away; Norwegian fighters transfer only within their radius, %d", base, dist, d.Radius), "17.13"
	}
	if dist > 2*d.Radius {
		return fmt.Sprintf("%s is %d away; a transfer reaches twice the radius, %d", base, dist, 2*d.Radius), "6.21"
	}
	return "", ""
}

// rebaseTo is the hex of target, the airfield or carrier (named base in
// the order) that aircraft unit id would rebase to, or why it may not:
// whose airfields each side's aircraft use (3.4231, 6.14, 6.25, 9.5, 9.61),
// and which carriers take aircraft (6.24).
func (p *parser) rebaseTo(d *UnitDef, id, base, target string) (to engine.Hex, msg, rule string) {
	if h, af, ok := airfieldHex(target); ok {
		if _, _, land := airfieldHex(d.Base); land && d.Nation == "UK" && !strings.EqualFold(af.Name, d.Base) {
			return h, fmt.Sprintf("%s belongs to %s and flies only from there", d.Name, d.Base), "3.4231"
		}
		msg, rule := airfieldBarred(p.v, d, af)
		return h, msg, rule
	}
	cu := p.v.unit(target)
	if cu == nil || def(target).Carrier <= 0 {
		return engine.Hex{}, fmt.Sprintf("%q is not an airfield or one of your carriers", base), "6.21"
	}
	if cu.Where != AtMap || cu.Moderate {
		return engine.Hex{}, def(target).Name + " cannot take aircraft now", "6.24"
	}
	if def(id).Option == "" && def(id).Entry != "carrier" {
		return engine.Hex{}, "land-based aircraft may not embark on a carrier", "6.24"
	}
	to, _ = engine.ParseHex(cu.Hex)
	return to, "", ""
}

// airfieldBarred says why the side's aircraft unit d may not use airfield
// af, or "" (6.14, 6.25, 9.5, 9.61).
func airfieldBarred(v *View, d *UnitDef, af *Airfield) (msg, rule string) {
	switch {
	case v.Side == Allied && d.Nation == "NO" && af.Country != "NO":
		return "Norwegian aircraft may not use British airfields", "6.25"
	case v.Side == Allied && d.Nation == "NO" && usableByGermany(v, af.Name):
		return af.Name + " is in German hands", "9.5"
	case v.Side == Allied && d.Nation != "NO" && af.Country != "UK":
		return "British aircraft may not use Norwegian or other foreign airfields", "6.25"
	case v.Side == German && af.Country == "UK":
		return "German aircraft may enter but never use British airfields", "6.14"
	case v.Side == German && af.Country == "NO" && !usableByGermany(v, af.Name):
		return af.Name + " is not a German-held airfield ready for use", "9.61"
	}
	return "", ""
}

// baseLoad is how many aircraft units target will hold with the rebases
// ordered so far (3.423).
func (p *parser) baseLoad(target string) int {
	here := 0
	for _, x := range p.v.Units {
		if x.Air && x.Where == AtBase && x.Base == target {
			here++
		}
	}
	for _, r := range p.o.Rebases {
		if r.Base == target {
			here++
		}
		if cur := p.v.unit(r.Unit); cur != nil && cur.Base == target {
			here--
		}
	}
	return here
}

// rebaseDistance is how far an aircraft unit transfers to hex to: from its
// base, or from the German area through A15 (6.21, 6.22).
func rebaseDistance(v *View, u *UnitView, to engine.Hex) int {
	lookup := func(x string) (string, string) {
		if uv := v.unit(x); uv != nil {
			return uv.Where, uv.Hex
		}
		return "", ""
	}
	if from, ok := baseHexIn(lookup, u.Base); ok {
		return from.Distance(to)
	}
	a15 := engine.Hex{Row: 1, Col: 15}
	return 4 + a15.Distance(to) // 6.21, 6.22: from the German area through A15
}

// usableByGermany reports whether Germany may base aircraft at a Norwegian
// airfield this turn (9.51, 9.61, 9.62).
func usableByGermany(v *View, airfield string) bool {
	for _, o := range v.Occupied {
		if o.Kind == "airfield" && o.Place == airfield {
			return v.Turn >= o.Usable
		}
	}
	return false
}

func (p *parser) detach(l engine.OrderLine) {
	if !contains(p.v.Options, OptIndependent) {
		p.fail(l, "12.0", "", "independent destroyers are an optional rule not in this game")
		return
	}
	f := l.Fields[1:]
	from := -1
	for i, w := range f {
		if strings.EqualFold(w, "from") {
			from = i
		}
	}
	if from < 1 || from == len(f)-1 {
		p.fail(l, "12.0", "detach DESTROYER from FLOTILLA", "a detachment names the destroyer and its task force")
		return
	}
	dd, ok := p.units(l, f[:from])
	if !ok {
		return
	}
	fl, ok := p.units(l, f[from+1:])
	if !ok {
		return
	}
	du, fu := p.v.unit(dd[0]), p.v.unit(fl[0])
	if du.Where != AtDetach {
		p.fail(l, "12.0", "", "%s is not an independent destroyer waiting to be detached", du.Name)
		return
	}
	if fu.Where != AtMap || fu.Type != "DD" || fu.Ships-fu.HitsTaken < 2 {
		p.fail(l, "12.0", "", "%s is not a destroyer task force on the map with two ships or more", fu.Name)
		return
	}
	for _, x := range p.o.Detaches {
		if x.Destroyer == dd[0] {
			p.fail(l, "12.0", "", "%s is already detached", du.Name)
			return
		}
	}
	p.o.Detaches = append(p.o.Detaches, Detach{Destroyer: dd[0], Flotilla: fl[0]})
}

// formatMove writes a move back as its order line.
func formatMove(m Move) string {
	var b strings.Builder
	var names []string
	for _, id := range m.Units {
		names = append(names, def(id).Name)
	}
	verb := "move"
	if m.Enter {
		verb = "enter"
	}
	fmt.Fprintf(&b, "%s %s", verb, strings.Join(names, ", "))
	if m.Enter {
		fmt.Fprintf(&b, " %s", m.Arrow)
		if m.Spend > 0 && len(m.Path) == 0 {
			fmt.Fprintf(&b, " spend %d", m.Spend)
		}
	}
	for _, h := range m.Path {
		fmt.Fprintf(&b, " %s", h)
	}
	if m.Off {
		b.WriteString(" off")
	}
	return b.String()
}

// formatOrders writes orders back as order-file lines.
func formatOrders(o *Orders) string {
	if o.Decision != nil {
		return formatDecision(o.Decision)
	}
	var b strings.Builder
	writeShipOrders(&b, o)
	writeAirOrders(&b, o)
	writeSearchOrders(&b, o)
	return b.String()
}

// writeShipOrders writes the ships' orders of o, one a line.
func writeShipOrders(b *strings.Builder, o *Orders) {
	for _, x := range o.Detaches {
		fmt.Fprintf(b, "detach %s from %s\n", def(x.Destroyer).Name, def(x.Flotilla).Name)
	}
	for _, m := range o.Moves {
		b.WriteString(formatMove(m) + "\n")
	}
	if o.Scramble {
		b.WriteString("scramble\n")
	}
	if o.EndGame {
		b.WriteString("end game\n")
	}
	if o.Schlesien {
		b.WriteString("schlesien\n")
	}
	if len(o.Escorts) > 0 {
		var names []string
		for _, id := range o.Escorts {
			names = append(names, def(id).Name)
		}
		fmt.Fprintf(b, "escort %s\n", strings.Join(names, ", "))
	}
	if o.Restrict {
		b.WriteString("restrict\n")
	}
	if o.Disguise {
		b.WriteString("disguise\n")
	}
	for _, x := range o.TorpCaps {
		fmt.Fprintf(b, "torpedoes %s %d\n", def(x.Unit).Name, x.Points)
	}
	for _, x := range o.Targets {
		fmt.Fprintf(b, "target %s %s\n", def(x.Unit).Name, x.Type)
	}
	for _, x := range o.Exposes {
		var names []string
		for _, id := range x.Units {
			names = append(names, def(id).Name)
		}
		fmt.Fprintf(b, "expose %s %s\n", x.Port, strings.Join(names, ", "))
	}
	for _, a := range o.Abandons {
		if a.Lead != "" {
			fmt.Fprintf(b, "abandon %s %s\n", a.Port, def(a.Lead).Name)
		} else {
			fmt.Fprintf(b, "abandon %s\n", a.Port)
		}
	}
}

// writeAirOrders writes the aircraft's orders of o, one a line.
func writeAirOrders(b *strings.Builder, o *Orders) {
	for _, x := range o.Strikes {
		fmt.Fprintf(b, "strike %s %s\n", def(x.Unit).Name, x.Hex)
	}
	for _, x := range o.Covers {
		fmt.Fprintf(b, "cover %s %s\n", def(x.Unit).Name, x.Hex)
	}
	for _, d := range o.Drops {
		fmt.Fprintf(b, "airborne %s %s\n", def(d.Unit).Name, d.Airfield)
	}
	if o.Cancel {
		b.WriteString("scramble cancel\n")
	}
	for _, r := range o.Rebases {
		base := r.Base
		if d, ok := UnitByID(base); ok {
			base = d.Name
		}
		fmt.Fprintf(b, "rebase %s to %s\n", def(r.Unit).Name, base)
	}
}

// writeSearchOrders writes o's searches, splits and encounter and combat
// choices, one a line.
func writeSearchOrders(b *strings.Builder, o *Orders) {
	for _, s := range o.Searches {
		if s.Kind == "air" {
			if s.Unit != "" {
				fmt.Fprintf(b, "search air %s %s\n", def(s.Unit).Name, s.Hex)
			} else {
				fmt.Fprintf(b, "search air %s\n", s.Hex)
			}
		} else {
			fmt.Fprintf(b, "search surface %s\n", def(s.Unit).Name)
		}
	}
	for _, sp := range o.Splits {
		var names []string
		for _, id := range sp {
			names = append(names, def(id).Name)
		}
		fmt.Fprintf(b, "split %s\n", strings.Join(names, ", "))
	}
	for _, e := range o.Encounters {
		who := "all"
		if e.Unit != "" {
			who = def(e.Unit).Name
		}
		fmt.Fprintf(b, "encounter %s %s\n", who, e.Choice)
	}
	if o.CombatAsk {
		b.WriteString("combat ask\n")
	}
}
