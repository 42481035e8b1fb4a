package sweden43

import (
	"fmt"

	"skagerrak/engine"
)

// Armour effects of revision 2 (Europa, published; data/tables.txt "aec"):
// the attacker gains AECA by the proportion of its REs with armour
// effects, the defender subtracts AECD by the proportion of its own, or
// ATEC by the proportion of its anti-tank capable REs when that is more and
// the attack's AECA is full or half. None of them applies in No AEC
// terrain (rough, mountain, forest, cities; Rule 2: a dot city).

// proportion is the armour level reached when have of all half-REs have
// the capability, or nil.
func proportion(have, all int) *AECLevel {
	if have == 0 || all == 0 {
		return nil
	}
	for i := range data.AEC {
		l := &data.AEC[i]
		if have*l.Den >= all*l.Num {
			return l
		}
	}
	return nil
}

// armourDRM is the armour effects' die modifier of an attack on h, and
// notes for the record.
func (c *ctx) armourDRM(h engine.Hex, att, def []int) (int, []string) {
	if c.noAEC(h) {
		return 0, nil
	}
	count := func(units []int, has func(Unit) bool) *AECLevel {
		n, all := 0, 0
		for _, i := range units {
			u := c.b.Units[i]
			all += u.RE2s()
			if has(u) {
				n += u.RE2s()
			}
		}
		return proportion(n, all)
	}
	aec := func(u Unit) bool { return u.AEC && !u.Reduced }
	aeca := count(att, aec)
	aecd := count(def, aec)
	atec := count(def, func(u Unit) bool { return u.ATEC || aec(u) })
	drm := 0
	var notes []string
	if aeca != nil {
		drm += aeca.AECA
		notes = append(notes, fmt.Sprintf("AECA %+d (%s)", aeca.AECA, aeca.Name))
	}
	switch {
	case atec != nil && aeca != nil && aeca.Name != "partial" && (aecd == nil || atec.ATEC > aecd.AECD):
		drm -= atec.ATEC
		notes = append(notes, fmt.Sprintf("ATEC %+d (%s)", -atec.ATEC, atec.Name))
	case aecd != nil:
		drm -= aecd.AECD
		notes = append(notes, fmt.Sprintf("AECD %+d (%s)", -aecd.AECD, aecd.Name))
	}
	return drm, notes
}

// noAEC reports whether armour effects are cancelled in h: the terrain is
// No AEC, or h is a city (Rule 2: a dot city is No AEC).
func (c *ctx) noAEC(h engine.Hex) bool {
	if c.terrainOf(h).NoAEC {
		return true
	}
	if p, ok := data.PlaceAt(h); ok && p.IsCity() {
		return data.Cities[p.Kind].NoAEC
	}
	return false
}

// terrainDRM is the combat die modifier of the terrain of h and its city
// (the lower of the two), with a note.
func (c *ctx) terrainDRM(h engine.Hex) (int, []string) {
	drm := c.terrainOf(h).DRM
	if p, ok := data.PlaceAt(h); ok && p.IsCity() {
		drm = min(drm, data.Cities[p.Kind].DRM)
	}
	if drm != 0 {
		return drm, []string{fmt.Sprintf("terrain %+d", drm)}
	}
	return 0, nil
}
