package sweden43

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// Attack is one declared attack of a combat phase.
type Attack struct {
	Target  engine.Hex
	Units   []string
	Air     []string
	Close   []string
	Advance bool
}

// oddsOf returns the CRT column index for attack a2 against defense d2 (both
// in half points), the odds in hundredths, and false when the odds are
// below the table (automatic AE) (Rule 9A rounding, reconstructed).
func oddsOf(a2, d2 int) (col int, hundredths int, ok bool) {
	if d2 <= 0 {
		return len(data.CRTCols) - 1, 99900, true
	}
	hundredths = a2 * 100 / d2
	switch {
	case hundredths >= 200:
		n := hundredths / 100
		if n > 9 {
			n = 9
		}
		return colIndex(fmt.Sprintf("%d:1", n)), hundredths, true
	case hundredths >= 150:
		return colIndex("1.5:1"), hundredths, true
	case hundredths >= 100:
		return colIndex("1:1"), hundredths, true
	}
	k := (d2 + a2 - 1) / max(a2, 1)
	if a2 == 0 || k > 4 {
		return 0, hundredths, false
	}
	return colIndex(fmt.Sprintf("1:%d", k)), hundredths, true
}

func colIndex(name string) int {
	for i, c := range data.CRTCols {
		if c == name {
			return i
		}
	}
	panic("sweden43: no CRT column " + name)
}

// percentile rolls the two ten-sided dice of Rule 2 (0-9 and 00-90) as
// revision 1 reads them: 0..99, each die one less than its value, so that a
// manual value of 1 stands for the die's 0 face and 10 for its 9.
func percentile(d engine.Dice, why string) int {
	tens := d.Roll(10, why+" (00-90 die; revision 1 reads it one less than the value given: 1 for 00, 10 for 90)") - 1
	units := d.Roll(10, why+" (0-9 die; revision 1 reads it one less than the value given: 1 for 0, 10 for 9)") - 1
	return tens*10 + units
}

// incremental applies Rule 34A to a column, returning the final column.
func incremental(col, hundredths int, d engine.Dice) (int, string) {
	switch {
	case hundredths > 200 && hundredths < 900:
		frac := hundredths % 100
		r := percentile(d, "incremental odds (34A1)")
		if r != 0 && r <= frac {
			return col + 1, fmt.Sprintf("incremental odds %d.%02d:1, rolled %02d: raised to %s (34A1)", hundredths/100, frac, r, data.CRTCols[col+1])
		}
		return col, fmt.Sprintf("incremental odds %d.%02d:1, rolled %02d: %s (34A1)", hundredths/100, frac, r, data.CRTCols[col])
	case hundredths > 150 && hundredths < 200:
		inc := (hundredths - 150) * 2
		r := percentile(d, "incremental odds (34A2)")
		if r <= inc {
			return colIndex("2:1"), fmt.Sprintf("incremental odds %d.%02d:1, increment %02d, rolled %02d: raised to 2:1 (34A2)", hundredths/100, hundredths%100, inc, r)
		}
		return col, fmt.Sprintf("incremental odds %d.%02d:1, increment %02d, rolled %02d: stays 1.5:1 (34A2)", hundredths/100, hundredths%100, inc, r)
	}
	return col, ""
}

// aaStrength is the intrinsic light AA of hex h against side's enemy's
// air units (22A1).
func (c *ctx) aaStrength(h engine.Hex) int {
	own := c.owner(h)
	aa := 0
	p, isPlace := data.PlaceAt(h)
	cc := data.CountryAt(h)
	if own == Allied && cc == 'S' && isPlace {
		if ck, ok := data.Cities[p.Kind]; ok && p.IsCity() {
			aa += ck.AA
		}
		if p.Airbase {
			aa++
		}
	}
	if own == German && isPlace && p.Airbase && (cc == 'N' || cc == 'D') {
		aa += 3
	}
	for _, i := range c.unitsAt(h) {
		u := c.b.Units[i]
		if u.Side == German && !u.Reduced && ((u.CM() && u.Size == "div") || u.Type == "hq") {
			aa++
		}
	}
	return aa
}

// airDistance is the distance from an air unit's base to h (UK box: 3F).
func airDistance(a AirUnit, h engine.Hex) int {
	if a.Base == "UK" {
		return data.Params["uk-distance"] + h.Col
	}
	b, err := engine.ParseHex(a.Base)
	if err != nil {
		return 1 << 20
	}
	return b.Distance(h)
}

// patrolRoll is one patrol attack: die + attack - defense (reconstructed).
func patrolRoll(d engine.Dice, att, def int, why string) (string, int) {
	r := d.Roll(6, why)
	v := r + att - def
	switch {
	case v >= data.Params["patrol-e"]:
		return "E", r
	case v >= data.Params["patrol-r"]:
		return "R", r
	}
	return "-", r
}

// airMissions flies the air units of an attack: patrol attacks by enemy
// fighters (19, 20C1), then AA (22A1). It returns the bombing strength that
// reaches the target.
func (c *ctx) airMissions(side engine.Side, target engine.Hex, air, closeEsc []string, d engine.Dice) int {
	turn := c.st.Turn
	var force []*airMission
	for _, id := range air {
		i := c.findAir(id)
		force = append(force, &airMission{i: i})
		c.b.Air[i].Flown = turn
	}
	for _, id := range closeEsc {
		for _, f := range force {
			if c.b.Air[f.i].ID == id {
				f.close = true
			}
		}
	}
	if len(force) == 0 {
		return 0
	}
	// interceptors: ready enemy fighters whose patrol zone covers the target
	var ints []int
	for i, a := range c.b.Air {
		if a.Side != side && a.Status == OnMap && a.Type == "F" && a.Flown != turn && airDistance(a, target) <= min(a.Range, data.Params["patrol-zone"]) {
			ints = append(ints, i)
		}
	}
	for _, ii := range ints {
		c.intercept(ii, force, target, d)
	}
	return c.aaFire(force, target, d)
}

// airMission is an air unit flying a mission: its index in the board's air
// units, whether it flies close escort (20C1), whether it is out of the
// mission.
type airMission struct {
	i     int
	close bool
	out   bool
}

// intercept is the patrol attack of interceptor ii on force: on a close
// escort first (20C1); else the regular escorts engage it, and if none
// drives it off it attacks the strongest bomber (19).
func (c *ctx) intercept(ii int, force []*airMission, target engine.Hex, d engine.Dice) {
	in := &c.b.Air[ii]
	in.Flown = c.st.Turn
	var tgt *airMission
	for _, f := range force {
		if !f.out && f.close {
			tgt = f
			break
		}
	}
	if tgt != nil {
		tgt.close = false
		res, r := patrolRoll(d, in.Att, c.b.Air[tgt.i].Def, "patrol attack on close escort")
		c.log("", fmt.Sprintf("%s patrol attacks close escort %s over %s: rolled %d, %s (20C1)", in.ID, c.b.Air[tgt.i].ID, data.HexName(target), r, airResult(res)))
		c.airLoss(tgt.i, res)
		tgt.out = res != "-"
		return
	}
	// regular escorts engage the interceptor first
	for _, f := range force {
		if f.out || c.b.Air[f.i].Type != "F" {
			continue
		}
		res, r := patrolRoll(d, c.b.Air[f.i].Att, in.Def, "escort engages interceptor")
		c.log("", fmt.Sprintf("escort %s engages %s over %s: rolled %d, %s", c.b.Air[f.i].ID, in.ID, data.HexName(target), r, airResult(res)))
		if res != "-" {
			c.airLoss(ii, res)
			return
		}
		break
	}
	var bomber *airMission
	for _, f := range force {
		if f.out || c.b.Air[f.i].Type != "B" {
			continue
		}
		if bomber == nil || c.b.Air[f.i].Bomb > c.b.Air[bomber.i].Bomb {
			bomber = f
		}
	}
	if bomber == nil {
		return
	}
	res, r := patrolRoll(d, in.Att, c.b.Air[bomber.i].Def, "patrol attack")
	c.log("", fmt.Sprintf("%s patrol attacks %s over %s: rolled %d, %s (19)", in.ID, c.b.Air[bomber.i].ID, data.HexName(target), r, airResult(res)))
	c.airLoss(bomber.i, res)
	bomber.out = res != "-"
}

// aaFire is the AA fire at the bombers of force still in the mission
// (22A1); it returns the bombing strength of those that get through.
func (c *ctx) aaFire(force []*airMission, target engine.Hex, d engine.Dice) int {
	aa := c.aaStrength(target)
	bomb := 0
	for _, f := range force {
		a := &c.b.Air[f.i]
		if f.out || a.Type != "B" {
			continue
		}
		if aa > 0 {
			r := engine.TwoD6(d, "AA fire at "+a.ID)
			v := r + aa
			res := "-"
			switch {
			case v >= data.Params["aa-e"]:
				res = "E"
			case v >= data.Params["aa-r"]:
				res = "R"
			}
			c.log("", fmt.Sprintf("AA %d over %s fires at %s: rolled %d, %s (22A1)", aa, data.HexName(target), a.ID, r, airResult(res)))
			c.airLoss(f.i, res)
			if res != "-" {
				continue
			}
		}
		bomb += a.Bomb
	}
	return bomb
}

func airResult(r string) string {
	switch r {
	case "E":
		return "eliminated"
	case "R":
		return "returned to base"
	}
	return "no effect"
}

func (c *ctx) airLoss(i int, res string) {
	if res == "E" {
		c.b.Air[i].Status = Eliminated
	}
}

// combatMods returns the DRM of an attack on h under revision 1: terrain,
// a river every attacker attacks across, and AEC +1 / -1 (reconstructed).
func (c *ctx) combatMods(h engine.Hex, att []int, def []int) (drm int, notes []string) {
	drm, notes = c.terrainDRM(h)
	across := len(att) > 0
	for _, i := range att {
		uh, _ := engine.ParseHex(c.b.Units[i].Hex)
		if data.River(uh, h) == "" {
			across = false
		}
	}
	if across {
		drm += data.RiverDRM
		notes = append(notes, fmt.Sprintf("river %+d", data.RiverDRM))
	}
	if !c.noAEC(h) {
		aAEC, aATEC, dAEC, dATEC := false, false, false, false
		for _, i := range att {
			u := c.b.Units[i]
			aAEC = aAEC || (u.AEC && !u.Reduced)
			aATEC = aATEC || u.ATEC || (u.AEC && !u.Reduced)
		}
		for _, i := range def {
			u := c.b.Units[i]
			dAEC = dAEC || (u.AEC && !u.Reduced)
			dATEC = dATEC || u.ATEC || (u.AEC && !u.Reduced)
		}
		if aAEC && !dATEC {
			drm++
			notes = append(notes, "AEC +1")
		}
		if dAEC && !aATEC {
			drm--
			notes = append(notes, "AEC -1")
		}
	}
	return drm, notes
}

// attackHalves returns the attack strength of unit u against h in half points.
func (c *ctx) attackHalves(u Unit, h engine.Hex) int {
	a, _ := u.Strength()
	v := a * 2
	if u.OOS {
		v /= 2
	}
	switch c.terrainOf(h).Halved {
	case "all-but-art":
		if u.Type != "art" {
			v /= 2
		}
	case "mot-but-art":
		if u.CM() {
			v /= 2
		}
	case "all-but-mtn":
		if u.Type != "mtn" {
			v /= 2
		}
	}
	return v
}

// takeLoss removes at least pts strength from the units (weakest first;
// a division with a cadre is reduced to it first). useDef picks defense
// strength for the count.
func (c *ctx) takeLoss(units []int, pts int, useDef bool) int {
	lost := 0
	order := append([]int(nil), units...)
	sort.SliceStable(order, func(i, j int) bool {
		a, b := c.b.Units[order[i]], c.b.Units[order[j]]
		sa, da := a.Strength()
		sb, db := b.Strength()
		if useDef {
			sa, sb = da, db
		}
		if sa != sb {
			return sa < sb
		}
		return a.ID < b.ID
	})
	for _, i := range order {
		if lost >= pts {
			break
		}
		u := &c.b.Units[i]
		if u.Status != OnMap {
			continue
		}
		a, d := u.Strength()
		s := a
		if useDef {
			s = d
		}
		if u.Cadre > 0 && !u.Reduced {
			full := u.Att
			if useDef {
				full = u.Def
			}
			if lost+full-u.Cadre >= pts {
				u.Reduced = true
				lost += full - u.Cadre
				c.log("", u.ID+" is reduced to its cadre")
				continue
			}
		}
		u.Status = Eliminated
		u.Hex = ""
		u.Reduced = false
		lost += max(s, 1)
		c.log("", u.ID+" is eliminated")
	}
	c.index()
	return lost
}

// retreat moves each unit one hex away, or eliminates it (reconstructed:
// one hex, not into enemy units or zones of control).
func (c *ctx) retreat(units []int, from engine.Hex) {
	for _, i := range units {
		u := &c.b.Units[i]
		if u.Status != OnMap {
			continue
		}
		best, found := engine.Hex{}, false
		bestScore := 0
		for _, n := range from.Neighbors() {
			if !allowed(u.Side, n) || c.enemyIn(u.Side, n) || c.ezoc(u.Side, n) || !c.stackOK(n, u.RE2s()) {
				continue
			}
			score := 0
			if c.owner(n) == u.Side {
				score += 2
			}
			if _, ok := data.PlaceAt(n); ok {
				score++
			}
			if !found || score > bestScore {
				best, bestScore, found = n, score, true
			}
		}
		if !found {
			u.Status = Eliminated
			u.Hex = ""
			c.log("", u.ID+" cannot retreat and is eliminated")
			c.index()
			continue
		}
		u.Hex = best.String()
		c.setOwner(best, u.Side)
		c.log("", u.ID+" retreats to "+data.HexName(best))
		c.index()
	}
}

// resolveAttack resolves one attack (9, 28B1, 34A, the CRT of the game's
// revision).
func (c *ctx) resolveAttack(side engine.Side, a Attack, d engine.Dice) {
	att, def := c.attackForces(side, a)
	if len(att) == 0 || len(def) == 0 {
		c.log("", fmt.Sprintf("attack on %s called off: no attackers or no defenders left", data.HexName(a.Target)))
		return
	}
	rev := c.st.rev()
	bomb := c.airMissions(side, a.Target, a.Air, a.Close, d)
	col, hund, ok, head := c.odds(side, a.Target, att, def, bomb)
	if side == German && a.Target == data.placeHex("Stockholm") && hund >= 150 && !c.b.NoMoreSurrender && !c.b.Surrendered {
		var surrendered bool
		if head, surrendered = c.surrenderRoll(head, d); surrendered {
			return
		}
	}
	if !ok {
		c.log("", head+": odds below 1:4, attackers eliminated")
		c.takeLoss(att, 1<<20, false)
		return
	}
	if c.st.has("incremental") {
		var note string
		if rev.Has(IncrementalFaces) {
			col, note = incrementalFaces(col, hund, d)
		} else {
			col, note = incremental(col, hund, d)
		}
		if note != "" {
			head += "; " + note
		}
	}
	res := c.combatResult(a.Target, att, def, col, head, d)
	c.applyResult(res, att, def, a.Target)
	if a.Advance && !c.enemyIn(side, a.Target) {
		if _, held := c.occ[a.Target]; !held {
			c.advance(side, a.Target, att, d)
		}
	}
}

// attackForces are the attack's units still on the map next to its target,
// and the enemy units in the target.
func (c *ctx) attackForces(side engine.Side, a Attack) (att, def []int) {
	for _, id := range a.Units {
		i := c.find(id)
		if i >= 0 && c.b.Units[i].Status == OnMap {
			uh, _ := engine.ParseHex(c.b.Units[i].Hex)
			if uh.Distance(a.Target) == 1 {
				att = append(att, i)
			}
		}
	}
	for _, i := range c.unitsAt(a.Target) {
		if c.b.Units[i].Side != side {
			def = append(def, i)
		}
	}
	return att, def
}

// surrenderRoll is Rule 28B1: the surrender roll before an attack on
// Stockholm at 1.5:1 or more. It returns the attack's record head and
// whether Sweden surrendered.
func (c *ctx) surrenderRoll(head string, d engine.Dice) (string, bool) {
	r := d.Roll(6, "Swedish surrender roll (28B1, attack on Stockholm)")
	if r == 1 {
		c.log("", head+fmt.Sprintf("; Swedish surrender roll %d: Sweden surrenders (28B1)", r))
		c.surrender()
		return head, true
	}
	return head + fmt.Sprintf("; Swedish surrender roll %d: Sweden fights on (28B1)", r), false
}

// combatResult rolls on the CRT of the game's revision in column col, with
// the terrain, armour and other modifiers, and records the attack.
func (c *ctx) combatResult(target engine.Hex, att, def []int, col int, head string, d engine.Dice) string {
	rev := c.st.rev()
	var (
		drm   int
		notes []string
		res   string
	)
	if rev.Has(ArmourEffects) {
		drm, notes = c.terrainDRM(target)
		ad, an := c.armourDRM(target, att, def)
		drm, notes = drm+ad, append(notes, an...)
	} else {
		drm, notes = c.combatMods(target, att, def)
	}
	r := d.Roll(6, "combat at "+target.String())
	if rev.Has(CRTEuropaCore) {
		res = crt2(r+drm, col)
	} else {
		res = data.CRT[min(max(r+drm, 0), 7)][col]
	}
	c.log("", fmt.Sprintf("%s; odds %s, roll %d %s -> %s", head, data.CRTCols[col], r, strings.Join(notes, " "), res))
	return res
}

// advance moves the attackers that may into the emptied target, and takes
// it if any did.
func (c *ctx) advance(side engine.Side, target engine.Hex, att []int, d engine.Dice) {
	moved := false
	for _, i := range att {
		u := &c.b.Units[i]
		if u.Status != OnMap || u.Type == "art" || !c.stackOK(target, u.RE2s()) {
			continue
		}
		u.Hex = target.String()
		c.index()
		moved = true
		c.log("", u.ID+" advances into "+data.HexName(target))
	}
	if moved {
		c.capture(target, side, d)
	}
}

// odds returns the column, the odds in hundredths and whether they are on
// the table, of an attack with bomb air points, and the head of its record.
func (c *ctx) odds(side engine.Side, target engine.Hex, att, def []int, bomb int) (col, hund int, ok bool, head string) {
	ids := make([]string, len(att))
	for k, i := range att {
		ids[k] = c.b.Units[i].ID
	}
	if !c.st.rev().Has(AttackHalvings) {
		a2 := bomb * 2
		for _, i := range att {
			a2 += c.attackHalves(c.b.Units[i], target)
		}
		d2 := 0
		for _, i := range def {
			_, dv := c.b.Units[i].Strength()
			d2 += dv * 2
		}
		col, hund, ok = oddsOf(a2, d2)
		head = fmt.Sprintf("%s attacks %s with %s: %s against %s", side, data.HexName(target), strings.Join(ids, " "), halfStr(a2), halfStr(d2))
	} else {
		a16 := bomb * 16
		var halved []string
		for _, i := range att {
			u := c.b.Units[i]
			from, _ := engine.ParseHex(u.Hex)
			v, why := c.attack16(u, from, target)
			a16 += v
			if len(why) > 0 {
				halved = append(halved, u.ID+" ("+strings.Join(why, ", ")+")")
			}
		}
		d16 := 0
		for _, i := range def {
			_, dv := c.b.Units[i].Strength()
			d16 += dv * 16
		}
		col, hund, ok = oddsOf(a16, d16)
		head = fmt.Sprintf("%s attacks %s with %s: %s against %s", side, data.HexName(target), strings.Join(ids, " "), str16(a16), str16(d16))
		if len(halved) > 0 {
			head += ", halved: " + strings.Join(halved, " ")
		}
	}
	if bomb > 0 {
		head += fmt.Sprintf(" (incl. %d air)", bomb)
	}
	return col, hund, ok, head
}

// applyResult carries out a combat result (reconstructed where noted):
// AE all attackers eliminated; AH the attackers lose at least half their
// attack strength; AR the attackers retreat a hex; AS (revision 2) the
// attack stalls, nothing else; EX (revision 2) the defenders are eliminated
// and the attackers lose at least the defence strength (europa-core.md);
// HX the defenders lose at least half their defence strength and the
// attackers at least half the defence strength (revision 2, europa-core.md:
// "the same with half"; revision 1: at least what the defenders lost); DR
// the defenders retreat a hex; DH they lose at least half and retreat; DE
// they are eliminated. Strengths are the units' own, unhalved.
func (c *ctx) applyResult(res string, att, def []int, target engine.Hex) {
	attStr, defStr := 0, 0
	for _, i := range att {
		av, _ := c.b.Units[i].Strength()
		attStr += av
	}
	for _, i := range def {
		_, dv := c.b.Units[i].Strength()
		defStr += dv
	}
	switch res {
	case "AE":
		c.takeLoss(att, 1<<20, false)
	case "AH":
		c.takeLoss(att, (attStr+1)/2, false)
	case "AR":
		for _, i := range att {
			uh, _ := engine.ParseHex(c.b.Units[i].Hex)
			c.retreat([]int{i}, uh)
		}
	case "AS":
	case "EX":
		c.takeLoss(def, 1<<20, true)
		c.takeLoss(att, defStr, false)
	case "HX":
		lost := c.takeLoss(def, (defStr+1)/2, true)
		if c.st.rev().Has(CRTEuropaCore) {
			lost = (defStr + 1) / 2
		}
		c.takeLoss(att, lost, false)
	case "DR":
		c.retreat(def, target)
	case "DH":
		c.takeLoss(def, (defStr+1)/2, true)
		c.retreat(def, target)
	case "DE":
		c.takeLoss(def, 1<<20, true)
	}
}

func halfStr(h int) string {
	if h%2 == 0 {
		return fmt.Sprint(h / 2)
	}
	return fmt.Sprintf("%d.5", h/2)
}

// capture takes ownership of h for side; capturing Stockholm makes the
// Swedish player roll for surrender (28B1).
func (c *ctx) capture(h engine.Hex, side engine.Side, d engine.Dice) {
	was := c.owner(h)
	c.setOwner(h, side)
	if side == German && was == Allied && h == data.placeHex("Stockholm") && !c.b.NoMoreSurrender && !c.b.Surrendered {
		r := d.Roll(6, "Swedish surrender roll (28B1, Stockholm captured)")
		if r >= 3 {
			c.log("", fmt.Sprintf("Stockholm captured; Swedish surrender roll %d: Sweden surrenders (28B1)", r))
			c.surrender()
			return
		}
		c.log("", fmt.Sprintf("Stockholm captured; Swedish surrender roll %d: Sweden fights on, no further surrender rolls (28B1)", r))
		c.b.NoMoreSurrender = true
	}
}

// surrender removes all Allied forces from play (28B1): under revision 1
// those on the map, under revision 2 those still to come as well.
func (c *ctx) surrender() {
	c.b.Surrendered = true
	for i := range c.b.Units {
		u := &c.b.Units[i]
		if u.Side == Allied && (u.Status == OnMap || c.st.rev().Has(SurrenderToCome) && stillToCome(*u)) {
			u.Status = Eliminated
			u.Hex = ""
		}
	}
	for i := range c.b.Air {
		if c.b.Air[i].Side == Allied {
			c.b.Air[i].Status = Eliminated
		}
	}
	c.index()
}
