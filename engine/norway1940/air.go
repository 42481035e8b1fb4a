package norway1940

import (
	"fmt"
	"sort"

	"skagerrak/engine"
)

// Flight template radii in areas (8.5, reconstructed: the template is not
// printed; fighters reach 3 areas and bombers 4 from their base, round trip
// included).
const (
	fighterRadius = 3
	bomberRadius  = 4
	// stjordalLat is the 8.5.1 limit of recon and transport planes based in
	// Denmark or southern Norway (the airfield of the Stjordal area).
	stjordalLat = 635
)

// danishCoast are the areas one area from the Danish airfields' effective
// range (8.10, 8.10.5; reconstructed).
var danishCoast = []string{"Arendal", "Drammen", "Fredrikstad", "Kristiansand", "Larvik", "Oslo"}

var distances = allDistances()

func allDistances() map[string]map[string]int {
	g := data.Graph
	out := map[string]map[string]int{}
	for _, a := range g.Areas() {
		if a == "Sweden" {
			continue
		}
		out[a] = g.Reachable(a, 99, func(e engine.Edge) (int, bool) { return 1, e.To != "Sweden" })
	}
	return out
}

func dist(a, b string) int {
	if d, ok := distances[a][b]; ok {
		return d
	}
	return 99
}

// zoneSea pairs weather zones with sea areas.
func zoneSea(zone string) string {
	return map[string]string{"S": "South", "C": "Centre", "N": "North"}[zone]
}

func (c *turnCtx) air(nation, typ string) *AirPoints {
	for i := range c.s.side(c.x).Air {
		a := &c.s.side(c.x).Air[i]
		if a.Type == typ && (nation == "" || a.Nation == nation) {
			return a
		}
	}
	return nil
}

// airLeft is the markers of a type the side has left this turn.
func (c *turnCtx) airLeft(typ string) int {
	n := 0
	for _, a := range c.s.side(c.x).Air {
		if a.Type == typ {
			n += a.Markers - a.Used
		}
	}
	return n
}

func (c *turnCtx) useAir(typ string, n int) {
	ss := c.s.side(c.x)
	for i := range ss.Air {
		a := &ss.Air[i]
		if a.Type != typ {
			continue
		}
		take := a.Markers - a.Used
		if take > n {
			take = n
		}
		a.Used += take
		n -= take
	}
}

// nationFor picks the nation whose markers of a type can reach a place,
// with a base that has room for them (8.4, 8.10.1).
func (c *turnCtx) nationFor(typ, where string, n int) string {
	nation, _ := c.pick(typ, where, n)
	return nation
}

// pick chooses the nation and the base of a mission: "" for the bases
// off the map (Germany, Denmark, the UK), an airfield area, or a fleet
// with aircraft carriers (9.12).
func (c *turnCtx) pick(typ, where string, n int) (nation, base string) {
	for _, a := range c.s.side(c.x).Air {
		if a.Type != typ || a.Markers-a.Used < n {
			continue
		}
		pts := n * a.Strength
		if a.Strength == 0 {
			pts = n
		}
		for _, b := range c.bases(a.Nation, typ, where) {
			r := c.room(b)
			if af := c.s.airfield(b); af != nil && a.Nation == "british" {
				if bb := basedAt(c.s, b) - af.Used; bb < r {
					r = bb // 8.12: no more than the planes ferried there
				}
			}
			if r >= pts {
				return a.Nation, b
			}
		}
	}
	return "", ""
}

// basedAt is the British air points ferried to an airfield (8.12).
func basedAt(s *State, area string) int {
	for _, c := range s.side(Allied).Based {
		if c.Nation == area {
			return c.N
		}
	}
	return 0
}

// room is the air points a base can still launch this turn: 6 an
// airfield of the area (Oslo has two) less 2 a hit (8.10.1, 8.10.3), 2 a
// carrier less its damage (9.12), unlimited off the map.
func (c *turnCtx) room(base string) int {
	if base == "" {
		return 1 << 20
	}
	if af := c.s.airfield(base); af != nil {
		n := data.Area(base).Airfields
		if n < 1 {
			n = 1
		}
		return 6*n - 2*af.Hits - af.Used
	}
	if f := c.s.fleet(base); f != nil {
		return 2*f.Carriers - f.CarrierDamage - f.CarrierUsed
	}
	return 0
}

// charge books air points against a base; a carrier used as an airfield
// is revealed (9.12).
func (c *turnCtx) charge(base string, pts int) {
	if af := c.s.airfield(base); af != nil {
		af.Used += pts
		return
	}
	if f := c.s.fleet(base); f != nil {
		f.CarrierUsed += pts
		if !c.dry() && !f.Detected {
			c.s.log("9.12", "the aircraft carriers of fleet %s launch planes and are revealed", f.ID)
			detect(c.s, f)
		} else {
			f.Detected = true
		}
	}
}

func (c *turnCtx) strength(nation, typ string) int {
	if a := c.air(nation, typ); a != nil && a.Strength > 0 {
		return a.Strength
	}
	return 1
}

// ownAirfields are the usable airfield areas side x controls (8.10); the
// German uses captured Norwegian airfields from turn 5 (8.10.5).
func ownAirfields(s *State, x engine.Side) []string {
	var out []string
	for _, f := range s.Fields {
		a := data.Area(f.Area)
		if s.controller(f.Area) == x && f.Hits < 3 && !a.Runway && (x != German || s.Turn >= 5) {
			out = append(out, f.Area)
		}
	}
	return out
}

// bases lists where a nation's planes of a type may fly from to reach a
// place this turn, off-map bases first (8.5, 8.5.1, 8.10.5, 8.10.6, 8.12,
// 9.12).
func (c *turnCtx) bases(nation, typ, where string) []string {
	s := c.s
	var out []string
	if nation == "stuka" {
		nation = "german" // 16.6: Stukas fly from the German bases
	}
	radius := bomberRadius
	if typ == "fighter" {
		radius = fighterRadius
	}
	if s.whereWeather(where) == "bad" {
		radius /= 2
	}
	b, isSea := data.Box(where)
	a, isLand := data.AreaByName(where)
	if !isSea && (!isLand || a.Name == "Sweden") {
		return nil
	}
	r := airReach{nation: nation, typ: typ, radius: radius, box: b, area: a, isSea: isSea, isLand: isLand}
	if c.offmapReaches(r) {
		out = append(out, "")
	}
	out = append(out, c.airfieldBases(r)...)
	if nation == "british" {
		out = append(out, c.carrierBases(r)...)
	}
	return out
}

// airReach is what bases looks for: planes of a nation and type, their
// radius this turn, and the box or area they fly to.
type airReach struct {
	nation, typ   string
	radius        int
	box           *BoxInfo
	area          *AreaInfo
	isSea, isLand bool
}

// offmapReaches tells whether the planes reach the place from off the map:
// German and British bases for naval boxes; from the invasion on, German
// recon and transports as far north as Stjordal, other German planes
// within their radius of the Danish coast (8.5, 8.5.1).
func (c *turnCtx) offmapReaches(r airReach) bool {
	b, a := r.box, r.area
	switch {
	case r.isSea && r.nation == "german":
		return (r.typ == "recon" && b.GRecon) || (r.typ != "recon" && b.GBomb)
	case r.isSea && r.nation == "british":
		return (r.typ == "recon" && b.BRecon) || (r.typ == "bomber" && b.BBomb)
	case r.isLand && r.nation == "german" && c.s.Turn >= 4:
		if r.typ == "recon" || r.typ == "transport" {
			return a.Lat <= stjordalLat
		}
		offmap := false
		for _, d := range danishCoast {
			if 1+dist(d, a.Name) <= r.radius {
				offmap = true
			}
		}
		return offmap
	}
	return false
}

// airfieldBases lists the side's Norwegian airfields the planes reach the
// place from (8.10.5, 8.10.6); British planes only where carriers have
// ferried some (8.12).
func (c *turnCtx) airfieldBases(r airReach) []string {
	s := c.s
	var out []string
	for _, f := range ownAirfields(s, c.x) {
		fa := data.Area(f)
		if r.nation == "british" && basedAt(s, f) == 0 {
			continue // 8.12: only where a carrier has ferried planes
		}
		ok := false
		switch {
		case r.isSea:
			ok = zoneSea(fa.Zone) == r.box.Area
		case r.typ == "recon" || r.typ == "transport":
			ok = r.area.Lat <= stjordalLat || fa.Lat >= 630
		default:
			ok = dist(f, r.area.Name) <= r.radius
		}
		if ok {
			out = append(out, f)
		}
	}
	return out
}

// carrierBases lists the side's fleets with aircraft carriers at sea that
// reach the place (9.12).
func (c *turnCtx) carrierBases(r airReach) []string {
	var out []string
	for _, f := range c.s.Fleets {
		if f.Side != c.x || f.Carriers == 0 || !isBox(f.Where) {
			continue
		}
		sea := seaOf(f.Where)
		ok := false
		if r.isSea {
			ok = r.box.Area == sea
		} else {
			for _, p := range data.PortsOf(sea) {
				if 1+dist(p, r.area.Name) <= r.radius {
					ok = true
				}
			}
		}
		if ok {
			out = append(out, f.ID)
		}
	}
	return out
}

// checkAir validates an air mission: the weather over the target (6.3.3,
// 6.3.4), nothing but recon before the invasion (18), then the mission's
// own rules.
func (c *turnCtx) checkAir(o Order) (string, string, string) {
	s := c.s
	w := s.whereWeather(o.To)
	if w == "thunder" {
		return "6.3.4", "clearer weather", fmt.Sprintf("no air unit flies in the thunderstorm over %s", o.To)
	}
	if w == "storm" && o.Kind != "transport" && o.Kind != "emergency" {
		return "6.3.3", "air transport only", fmt.Sprintf("only transports fly in the storm over %s", o.To)
	}
	if s.Turn < 4 && o.Kind != "recon" {
		return "18", "recon only before the invasion", "no air mission over neutral Norway before turn 4"
	}
	if check, ok := airChecks[o.Kind]; ok {
		return check(c, o)
	}
	return "8.9", "para, recon, transport, patrol, bomb, interdict, support, emergency", "unknown mission"
}

// airChecks validates each kind of air mission.
var airChecks = map[string]func(*turnCtx, Order) (string, string, string){
	"para":      (*turnCtx).checkPara,
	"recon":     (*turnCtx).checkAirRecon,
	"transport": (*turnCtx).checkAirTransport,
	"emergency": (*turnCtx).checkAirTransport,
	"ferry":     (*turnCtx).checkFerry,
	"patrol":    (*turnCtx).checkPatrol,
	"bomb":      (*turnCtx).checkBombing,
	"interdict": (*turnCtx).checkBombing,
	"support":   (*turnCtx).checkBombing,
}

// checkPara validates a parachute drop (8.11, 8.8, 8.9.2).
func (c *turnCtx) checkPara(o Order) (string, string, string) {
	s := c.s
	u := s.unit(o.ID)
	if c.x != German || u == nil || u.Type != "para" || u.Loc != ParaBox || u.Entry > s.Turn {
		return "8.11", "a German parachute unit available this turn", fmt.Sprintf("%s cannot drop this turn", o.ID)
	}
	if !data.Area(o.To).Para {
		return "8.8", "a parachute symbol: Oslo, Stavanger, Dombas", fmt.Sprintf("%s has no parachute symbol", o.To)
	}
	if c.airLeft("transport") < 1 {
		return "8.9.2", "a transport marker", "no transport marker left"
	}
	return "", "", ""
}

// checkAirRecon validates air recon of an enemy fleet (8.9.1, 9.13.6,
// 8.5.1).
func (c *turnCtx) checkAirRecon(o Order) (string, string, string) {
	if c.airLeft("recon") < o.N {
		return "8.9.1", fmt.Sprintf("at most %d recon points", c.airLeft("recon")), "not enough recon points"
	}
	e := c.s.fleet(o.Target)
	if e == nil || e.Side == c.x || e.Where != o.To {
		return "9.13.6", "an enemy fleet marker in that box", fmt.Sprintf("no enemy fleet %s in %s", o.Target, o.To)
	}
	if c.nationFor("recon", o.To, o.N) == "" {
		return "8.5.1", "a box your recon planes reach from a base with room left", fmt.Sprintf("%s is out of recon range, or no base in range has room left (8.10.1)", o.To)
	}
	return "", "", ""
}

// checkAirTransport validates a German air transport or emergency air
// supply (8.9.2, 16.5): the unit, its base, the destination and the
// room at the base.
func (c *turnCtx) checkAirTransport(o Order) (string, string, string) {
	s, x := c.s, c.x
	if x != German {
		return "8.9.2", "recon, patrol, bomb, interdict or support", "only the German player conducts air transport"
	}
	u := s.unit(o.ID)
	if u == nil || u.Side != x || u.Dead || u.Fleet != "" || u.Entry > s.Turn || c.moved[u.ID] {
		return "8.9.2", "an available unit", fmt.Sprintf("%s is not available", o.ID)
	}
	if rule, valid, msg := c.checkAirLoad(o, u); rule != "" {
		return rule, valid, msg
	}
	base := u.Loc
	if base == Germany {
		base = Denmark
	} else {
		af := s.airfield(base)
		if af == nil || data.Area(base).Runway || s.controller(base) != German || af.Hits >= 3 {
			return "8.9.2.1", "a unit at a German-held airfield, or in Germany", fmt.Sprintf("%s is not at a German airfield", u.ID)
		}
	}
	if o.From != "" && o.From != base && !(o.From == Germany && base == Denmark) {
		return "8.9.2.1", "the unit's own airfield", fmt.Sprintf("%s is not at %s", u.ID, o.From)
	}
	if rule, valid, msg := c.checkAirLanding(o, u, base); rule != "" {
		return rule, valid, msg
	}
	if base != Denmark && c.room(base) < 4 {
		return "8.10.1", "an airfield with 4 air points of room left", fmt.Sprintf("the airfield at %s has no room left this turn", base)
	}
	return "", "", ""
}

// checkAirLoad validates what unit u a transport carries: supplies, or
// infantry from turn 6 (8.9.2, 18); emergency supply only to Narvik, with
// Trondheim and Stjordal held (16.5, 16.5.1).
func (c *turnCtx) checkAirLoad(o Order, u *Unit) (string, string, string) {
	s := c.s
	if u.Type != "supply" {
		if u.Type != "inf" && u.Type != "mtn" {
			return "8.9.2", "infantry", "only infantry can be transported by air"
		}
		if s.Turn < 6 {
			return "18", "supplies, or troops from turn 6", "no troops by air before the April 11th turn"
		}
	}
	if o.Kind == "emergency" {
		if !s.has(OptNarvikAirSupply) || u.Type != "supply" || o.To != "Narvik" {
			return "16.5", "air emergency SUPPLY to Narvik (option 16.5)", "emergency air supply takes a supply unit to Narvik"
		}
		if s.controller("Trondheim") != German || s.controller("Stjordal") != German {
			return "16.5.1", "German control of Trondheim and Stjordal", "emergency air supply needs Trondheim and the Stjordal airfield"
		}
	}
	return "", "", ""
}

// checkAirLanding validates the transport's flight from base to a usable
// German airfield: the Narvik runway's limit (8.10.2), the range (8.5.1),
// a transport marker and the second supply unit aboard (8.9.2).
func (c *turnCtx) checkAirLanding(o Order, u *Unit, base string) (string, string, string) {
	s := c.s
	dest := data.Area(o.To)
	af := s.airfield(o.To)
	if af == nil || s.controller(o.To) != German || af.Hits >= 3 {
		return "8.9.2", "a German-held airfield", fmt.Sprintf("%s has no usable German airfield", o.To)
	}
	if dest.Runway && o.Kind != "emergency" && !(u.Type == "supply" && u.Steps <= 1) && u.Size != "bn" {
		return "8.10.2", "half a supply unit or a battalion", "the Narvik runway takes only half a supply unit or a battalion"
	}
	baseLat := 0
	if base != Denmark {
		baseLat = data.Area(base).Lat
	}
	if dest.Lat > stjordalLat && baseLat < 630 && o.Kind != "emergency" {
		return "8.5.1", "an airfield up to Stjordal, or from Trondheim's airfields", fmt.Sprintf("%s is beyond transport range from %s", o.To, base)
	}
	if c.airLeft("transport") < 1 {
		return "8.9.2", "a transport marker", "no transport marker left"
	}
	for _, id := range o.Units {
		v := s.unit(id)
		if u.Type != "supply" || v == nil || v.Type != "supply" || v.Side != c.x || v.Dead || v.Loc != u.Loc || v.Fleet != "" || id == u.ID || c.moved[id] {
			return "8.9.2", "two supply units at the same base", "a transport marker carries one regiment or two supply units"
		}
		if dest.Runway {
			return "8.10.2", "half a supply unit", "the Narvik runway takes only half a supply unit"
		}
	}
	return "", "", ""
}

// checkFerry validates British planes flown by carrier to an Allied
// airfield from Dombas north (8.12, 9.12).
func (c *turnCtx) checkFerry(o Order) (string, string, string) {
	s := c.s
	if c.x != Allied || s.Turn < 13 {
		return "8.12", "turn 13 or later", "British planes reach Norwegian airfields from 27 April (turn 13)"
	}
	a := data.Area(o.To)
	if s.airfield(o.To) == nil || a.Runway || s.controller(o.To) != Allied || a.Lat < data.Area("Dombas").Lat {
		return "8.12", "an Allied airfield from Dombas north", fmt.Sprintf("%s is not an Allied airfield north of Dombas", o.To)
	}
	cap := 0
	for _, f := range s.Fleets {
		if f.Side == Allied && f.Carriers > 0 && isBox(f.Where) && seaOf(f.Where) == zoneSea(a.Zone) {
			cap += 2*f.Carriers - f.CarrierDamage
		}
	}
	if o.N > cap {
		return "9.12", fmt.Sprintf("at most %d points from carriers in the %s sea area", cap, zoneSea(a.Zone)), "not enough carrier room to ferry the planes"
	}
	return "", "", ""
}

// checkPatrol validates a fighter patrol (8.9.3).
func (c *turnCtx) checkPatrol(o Order) (string, string, string) {
	if c.airLeft("fighter") < o.N {
		return "8.9.3", fmt.Sprintf("at most %d fighter markers", c.airLeft("fighter")), "not enough fighter markers"
	}
	if c.nationFor("fighter", o.To, o.N) == "" {
		return "8.9.3", "a place within the fighters' template from a base with room left", fmt.Sprintf("%s is out of fighter range, or no base in range has room left (8.10.1)", o.To)
	}
	return "", "", ""
}

// checkBombing validates a bomb, interdict or support mission (8.9.4):
// markers and range, then the target at sea or on land.
func (c *turnCtx) checkBombing(o Order) (string, string, string) {
	if c.airLeft("bomber") < o.N {
		return "8.9.4", fmt.Sprintf("at most %d bomber markers", c.airLeft("bomber")), "not enough bomber markers"
	}
	nation := c.nationFor("bomber", o.To, o.N)
	if nation == "" {
		return "8.9.4", "a place within the bombers' template from a base with room left", fmt.Sprintf("%s is out of bomber range, or no base in range has room left (8.10.1)", o.To)
	}
	if isBox(o.To) {
		return c.checkBombingAtSea(o, nation)
	}
	return c.checkBombingOnLand(o)
}

// checkBombingAtSea validates bombing over a naval box: deployed enemy
// submarines (9.11) or a detected enemy fleet (9.13.8), at most 3 bomber
// points a target (8.9.4.2).
func (c *turnCtx) checkBombingAtSea(o Order, nation string) (string, string, string) {
	s, x := c.s, c.x
	if o.Target == "sub" {
		for _, m := range s.SubsOut {
			if m.Side != x && m.Box == o.To {
				if o.N*c.strength(nation, "bomber") > 3 {
					return "8.9.4.2", "at most 3 bomber points a target", "more than 3 bomber points on the submarines"
				}
				return "", "", ""
			}
		}
		return "9.11", "deployed enemy submarines", fmt.Sprintf("no enemy submarines deployed in %s", o.To)
	}
	if o.Kind != "bomb" {
		return "8.9.4", "bomb at sea", "only bombardment is flown over a naval box"
	}
	e := s.fleet(o.Target)
	if e == nil || e.Side == x || e.Where != o.To || !e.Detected {
		return "9.13.8", "a detected enemy fleet in that box", fmt.Sprintf("no detected enemy fleet %s in %s", o.Target, o.To)
	}
	if c.bombFleet[e.ID]+o.N*c.strength(nation, "bomber") > 3 {
		return "8.9.4.2", "at most 3 bomber points a target", fmt.Sprintf("%s would be attacked by more than 3 bomber points", e.ID)
	}
	return "", "", ""
}

// checkBombingOnLand validates bombers over an area: markers an area
// (8.9.4.1.1, 8.9.4.1.2), one German marker in support (10.5.4), and a
// bombing's target.
func (c *turnCtx) checkBombingOnLand(o Order) (string, string, string) {
	x := c.x
	limit := 3
	if x == German {
		limit = 2
	}
	if c.bombAt[o.To]+o.N > limit {
		return map[engine.Side]string{German: "8.9.4.1.2", Allied: "8.9.4.1.1"}[x], fmt.Sprintf("at most %d bomber markers an area", limit), "too many bomber markers over " + o.To
	}
	if o.Kind == "support" && x == German && (o.N > 1 || c.support[o.To] > 0) {
		return "10.5.4", "one German bomber marker in support", "only one German bomber marker may support a combat"
	}
	if o.Kind == "bomb" {
		return c.checkBombTarget(o)
	}
	return "", "", ""
}

// checkBombTarget validates what a bombing over an area aims at: an enemy
// airfield (8.10.3), submarines (9.11), an operative coastal battery
// (15.3.1) or an enemy land unit (8.9.4.3).
func (c *turnCtx) checkBombTarget(o Order) (string, string, string) {
	s, x := c.s, c.x
	switch o.Target {
	case "airfield":
		if s.airfield(o.To) == nil || s.controller(o.To) == x {
			return "8.10.3", "an enemy airfield", fmt.Sprintf("no enemy airfield in %s", o.To)
		}
	case "sub":
		ok := false
		for _, m := range s.SubsOut {
			if m.Side != x && m.Box == o.To {
				ok = true
			}
		}
		if !ok {
			return "9.11", "deployed enemy submarines", fmt.Sprintf("no enemy submarines deployed in %s", o.To)
		}
	case "battery":
		ok := false
		for _, b := range s.Bats {
			if b.Area == o.To && b.Owner != x && b.Status == "active" {
				ok = true
			}
		}
		if !ok {
			return "15.3.1", "an operative enemy coastal battery", fmt.Sprintf("no operative enemy battery in %s", o.To)
		}
	default:
		u := s.unit(o.Target)
		if u == nil || u.Side == x || u.Loc != o.To || u.Dead {
			return "8.9.4.3", "an enemy land unit in that area", fmt.Sprintf("no enemy unit %s in %s", o.Target, o.To)
		}
	}
	return "", "", ""
}

// execAir flies a checked air mission (8.9).
func (c *turnCtx) execAir(o Order) {
	if do, ok := airExecs[o.Kind]; ok {
		do(c, o)
	}
}

// airExecs flies each kind of air mission.
var airExecs = map[string]func(*turnCtx, Order){
	"para":      (*turnCtx).execPara,
	"recon":     (*turnCtx).execAirRecon,
	"transport": (*turnCtx).execAirTransport,
	"emergency": (*turnCtx).execAirTransport,
	"ferry":     (*turnCtx).execFerry,
	"patrol":    (*turnCtx).execPatrol,
	"bomb":      (*turnCtx).execBombing,
	"interdict": (*turnCtx).execBombing,
	"support":   (*turnCtx).execBombing,
}

// execPara drops a parachute unit, taking the area if no Allied combat
// unit holds it (8.11).
func (c *turnCtx) execPara(o Order) {
	s := c.s
	c.useAir("transport", 1)
	u := s.unit(o.ID)
	u.Loc, u.Landed = o.To, s.Turn
	if len(s.combatIn(o.To, Allied)) == 0 {
		captureBy(s, o.To, German, u.ID)
	}
	if !c.dry() {
		s.log("8.11", "German parachute unit %s drops on %s", u.ID, o.To)
	}
}

// execAirRecon flies air recon and rolls to detect the fleet (8.9.1): 6,
// or 5 with more than one point.
func (c *turnCtx) execAirRecon(o Order) {
	s, x := c.s, c.x
	nation, base := c.pick("recon", o.To, o.N)
	c.useAirNation(nation, "recon", o.N)
	c.charge(base, o.N)
	if c.dry() {
		return
	}
	e := s.fleet(o.Target)
	if e == nil {
		return
	}
	need := 6
	if o.N > 1 {
		need = 5
	}
	r := c.roll(6, fmt.Sprintf("8.9.1 air recon of %s in %s", e.ID, o.To))
	if r >= need {
		s.log("8.9.1", "%s air recon over %s detects fleet %s (rolled %d)", x, o.To, e.ID, r)
		detect(s, e)
	} else {
		s.logTo(x, "8.9.1", "air recon over %s does not find %s (rolled %d, needed %d)", o.To, e.ID, r, need)
	}
}

// execAirTransport flies a German air transport (8.9.2, 8.7): turned back
// by interception, lost in a storm (6.3.3) or, for emergency supply to
// Narvik, on 1-3 (16.5.3); else the unit lands.
func (c *turnCtx) execAirTransport(o Order) {
	s := c.s
	c.useAir("transport", 1)
	u := s.unit(o.ID)
	c.moved[u.ID] = true
	if u.Loc != Germany {
		c.charge(u.Loc, 4) // 8.7: a transport spends 4 air points at its airfield
	}
	if c.turnedBack[o.Line] {
		s.log("8.9.2", "a German air transport to %s is intercepted and turns back", o.To)
		return
	}
	if !c.dry() && s.areaWeather(o.To) == "storm" {
		if c.roll(6, "6.3.3 transport in the storm") == 6 {
			s.log("6.3.3", "a German air transport to %s is lost in the storm with %s", o.To, u.ID)
			u.Dead = true
			return
		}
	}
	if o.Kind == "emergency" && !c.dry() {
		if c.roll(6, "16.5.3 Narvik emergency air supply") <= 3 {
			s.log("16.5.3", "the emergency air supply to Narvik is lost")
			u.Dead = true
			return
		}
		if u.Steps > 1 {
			u.Steps = 1
		}
	}
	u.Loc, u.Landed, u.Half = o.To, s.Turn, true
	if s.rev().Has(ArrivalsSupplied) {
		u.OOS = false // 7.4.3, 8.9.2: supplied the turn they arrive
	}
	c.enter(o.To)
	for _, id := range o.Units {
		v := s.unit(id)
		v.Loc, v.Landed = o.To, s.Turn
		c.moved[id] = true
	}
	if !c.dry() {
		s.log("8.9.2", "German air transport lands %s at %s", u.ID, o.To)
	}
}

// execFerry adds British air points to an airfield (8.12).
func (c *turnCtx) execFerry(o Order) {
	s := c.s
	ss := s.side(Allied)
	for i := range ss.Based {
		if ss.Based[i].Nation == o.To {
			ss.Based[i].N += o.N
			if !c.dry() {
				s.log("8.12", "carriers fly %d British air point(s) to %s", o.N, o.To)
			}
			return
		}
	}
	ss.Based = append(ss.Based, Count{Nation: o.To, N: o.N})
	sort.Slice(ss.Based, func(i, j int) bool { return ss.Based[i].Nation < ss.Based[j].Nation })
	if !c.dry() {
		s.log("8.12", "carriers fly %d British air point(s) to %s", o.N, o.To)
	}
}

// execPatrol puts fighters on patrol over a place (8.9.3).
func (c *turnCtx) execPatrol(o Order) {
	nation, base := c.pick("fighter", o.To, o.N)
	c.useAirNation(nation, "fighter", o.N)
	c.charge(base, o.N)
	c.escorts[o.To] += o.N
	if !c.dry() {
		c.s.logTo(c.x, "8.9.3", "%d fighter marker(s) patrol over %s", o.N, o.To)
	}
}

// execBombing flies bombers: turned back by fighters (8.9.3), in land
// support (8.9.4.1), or bombing with one die a point, hitting on 6 (5 for
// Stukas and British bombers at sea with option 16.6) (8.9.4).
func (c *turnCtx) execBombing(o Order) {
	s, x := c.s, c.x
	nation, base := c.pick("bomber", o.To, o.N)
	str := c.strength(nation, "bomber")
	c.useAirNation(nation, "bomber", o.N)
	c.charge(base, o.N*str)
	if isBox(o.To) && o.Target != "sub" {
		c.bombFleet[o.Target] += o.N * str
	} else if !isBox(o.To) {
		c.bombAt[o.To] += o.N
	}
	if c.turnedBack[o.Line] {
		if !c.dry() {
			s.log("8.9.3", "%s bombers over %s are turned back by fighters", x, o.To)
		}
		return
	}
	if o.Kind == "support" {
		if c.support[o.To] == 0 && c.line > 0 {
			c.lineOf["support:"+o.To] = c.line
		}
		c.support[o.To] += o.N
		c.supportStr[o.To] += o.N * str
		if !c.dry() {
			s.log("8.9.4.1", "%s bombers fly land support over %s", x, o.To)
		}
		return
	}
	if c.dry() {
		return
	}
	need := 6
	if s.has(OptSpecialAir) && (nation == "stuka" || (nation == "british" && isBox(o.To))) {
		need = 5
	}
	hits := 0
	for i := 0; i < o.N*str; i++ {
		if c.roll(6, fmt.Sprintf("8.9.4 %s over %s", o.Kind, o.To)) >= need {
			hits++
		}
	}
	c.bombResult(o, hits)
}

func (c *turnCtx) useAirNation(nation, typ string, n int) {
	if a := c.air(nation, typ); a != nil {
		a.Used += n
		return
	}
	c.useAir(typ, n)
}

func (c *turnCtx) bombResult(o Order, hits int) {
	s, x := c.s, c.x
	if o.Kind == "interdict" {
		for i := 0; i < hits; i++ {
			s.addMark(o.To)
		}
		s.log("10.3.6", "%s interdiction over %s: %d marker(s) placed", x, o.To, hits)
		return
	}
	if isBox(o.To) && o.Target == "sub" {
		for _, m := range s.SubsOut {
			for m.Side != x && m.Box == o.To && hits > 0 && m.N > 0 {
				m.N--
				hits--
				s.side(m.Side).Subs--
				s.log("9.11", "a %s submarine in %s is sunk by bombing", m.Side, o.To)
			}
		}
		return
	}
	if isBox(o.To) {
		e := s.fleet(o.Target)
		if e == nil {
			return
		}
		s.log("9.13.8", "%s bombers attack fleet %s in %s: %d hit(s)", x, e.ID, o.To, hits)
		// 9.12: hits strike the revealed carriers first; two hits sink one.
		for hits > 0 && e.Carriers > 0 {
			hits--
			e.CarrierDamage++
			if e.CarrierDamage >= 2 {
				e.Carriers--
				e.CarrierDamage -= 2
				s.log("9.12", "an aircraft carrier of fleet %s is sunk", e.ID)
			}
		}
		takeNavalLosses(s, e, hits)
		return
	}
	switch o.Target {
	case "airfield":
		af := s.airfield(o.To)
		if hits > 0 {
			af.Hits += hits
			if af.Hits > 3 {
				af.Hits = 3
			}
			af.HitTurn = s.Turn
		}
		s.log("8.10.3", "%s bombers hit the airfield at %s %d time(s)", x, o.To, hits)
	case "battery":
		if hits > 0 {
			for _, b := range s.Bats {
				if b.Area == o.To && b.Owner != x && b.Status == "active" {
					b.Status = "inoperative"
					break
				}
			}
		}
		s.log("15.3.1", "%s bombers attack a coastal battery at %s: %d hit(s)", x, o.To, hits)
	default:
		u := s.unit(o.Target)
		if hits > 0 && u != nil {
			u.Blast += hits
			u.BlastTurn = s.Turn
		}
		s.log("8.9.4.3", "%s bombers attack %s in %s: %d blast marker(s)", x, o.Target, o.To, hits)
	}
}

// interceptions decides which of the phasing side's bomber and transport
// missions the other side's kept fighters turn back (8.9.3, 8.9.3.1;
// reconstructed procedure: each kept fighter point first neutralises one
// escorting fighter point over the place, and each further one turns back
// one bomber or transport marker; by standing order the defender spends
// his kept fighters on the places in the order the missions were written,
// transports first; with "ask interception" he commits them himself, in a
// short phase that opens whenever such missions fly, kept fighters or
// not, so that it tells the phasing side nothing).
func (c *turnCtx) interceptions(lines []Order) {
	s, x := c.s, c.x
	enemy := s.side(other(x))
	asks := contains(enemy.Standing.Ask, AskInterception)
	if (enemy.Standing.Keep == 0 && !asks) || c.dry() {
		return
	}
	ec := &turnCtx{s: s, x: other(x)}
	type mission struct {
		o       Order
		markers int
	}
	byPlace := map[string][]mission{}
	var places []string
	for _, o := range lines {
		if o.Verb != "air" || (o.Kind != "transport" && o.Kind != "bomb" && o.Kind != "interdict" && o.Kind != "support") {
			continue
		}
		if byPlace[o.To] == nil {
			places = append(places, o.To)
		}
		byPlace[o.To] = append(byPlace[o.To], mission{o, o.N})
	}
	escorts := map[string]int{}
	for _, o := range lines {
		if o.Verb == "air" && o.Kind == "patrol" {
			escorts[o.To] += o.N
		}
	}
	if len(places) == 0 {
		return
	}
	var raids []Raid
	for _, p := range places {
		if enemy.Standing.Keep == 0 || !ec.inRangeAny("fighter", p) {
			continue
		}
		raids = append(raids, Raid{Place: p, Missions: len(byPlace[p]), Escorts: escorts[p]})
	}
	alloc := askInterception(s, other(x), enemy.Standing.Keep, raids)
	for _, r := range raids {
		n := alloc[r.Place]
		if n == 0 {
			continue
		}
		ms := byPlace[r.Place]
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].o.Kind == "transport" && ms[j].o.Kind != "transport" })
		turned := n - r.Escorts
		for _, m := range ms {
			if turned <= 0 {
				break
			}
			c.turnedBack[m.o.Line] = true
			turned--
		}
		enemy.Standing.Keep -= n
		s.log("8.9.3.1", "%s fighters kept back intercept over %s (%d fighter marker(s))", other(x), r.Place, n)
	}
}

func (c *turnCtx) inRangeAny(typ, where string) bool {
	for _, a := range c.s.side(c.x).Air {
		if a.Type == typ && len(c.bases(a.Nation, typ, where)) > 0 {
			return true
		}
	}
	return false
}
