package sweden43

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// Attack strength and odds of revision 2 (the Europa core; europa-core.md).
// Strengths are counted in sixteenths of a point, so that halvings compound
// exactly (a quarter across a major river, halved again in a city and out
// of supply, is a sixteenth); odds are attack to defence, rounded down to a
// column of the table (oddsOf).

// attack16 is unit u's attack strength from hex from against h in
// sixteenths, after every halving, and the halvings applied.
func (c *ctx) attack16(u Unit, from, h engine.Hex) (int, []string) {
	a, _ := u.Strength()
	v := a * 16
	var why []string
	halve := func(by int, reason string) {
		v /= by
		why = append(why, reason)
	}
	art := u.Type == "art"
	switch c.terrainOf(h).Halved {
	case "all-but-art": // intermittent lake (32B2)
		if !art {
			halve(2, "lake")
		}
	case "mot-but-art": // forest, option 32B (32B1)
		if u.CM() {
			halve(2, "forest")
		}
	case "all-but-mtn": // mountain, Europa, published; mountain units are not halved (reconstructed)
		if u.Type != "mtn" {
			halve(2, "mountain")
		}
	}
	// Cities, Europa, published; the full and partial hex cities of the map,
	// artillery not halved (reconstructed: the HexTools computer aid): a dot
	// city is No AEC and nothing more (Rule 2).
	if p, ok := data.PlaceAt(h); ok && (p.Kind == "full" || p.Kind == "partial") && !art {
		halve(2, "city")
	}
	// Across a river x1/2, a major river x1/4, Europa, published; artillery
	// not halved (reconstructed: the HexTools computer aid).
	if r := data.River(from, h); r != "" && !art {
		if data.MajorRiver(from, h) {
			halve(4, "major river")
		} else {
			halve(2, "river")
		}
	}
	// Units without attack supply, Europa, published: a unit out of supply
	// at the start of its movement phase (12) has none (reconstructed).
	if u.OOS {
		halve(2, "out of supply")
	}
	return v, why
}

// str16 writes a strength counted in sixteenths: "7", "3.5", "0.25".
func str16(v int) string {
	s := fmt.Sprint(v / 16)
	if f := v % 16; f != 0 {
		frac := strings.TrimRight(fmt.Sprintf("%.4f", float64(f)/16), "0")
		s += strings.TrimPrefix(frac, "0")
	}
	return s
}

// percentileFaces rolls the two ten-sided dice of Rule 2 as revision 2
// reads them: each die's face, its 0 face read 0 (the 00-90 die gives the
// tens). It returns 0 to 99; 0 is "00".
func percentileFaces(d engine.Dice, why string) int {
	tens := d.Roll(10, why+": the 00-90 die (its tens digit, 00 as 0)") % 10
	units := d.Roll(10, why+": the 0-9 die") % 10
	return tens*10 + units
}

// incrementalFaces applies Rule 34A as revision 2 reads it: dice are rolled
// only for odds with a fraction, and a roll of 00 never raises the odds
// ("a result of 0 on the ten-sided dice always results in the odds being
// rounded down", read for 34A1 and 34A2 alike: 00 is the hundredth face,
// above any fraction).
func incrementalFaces(col, hundredths int, d engine.Dice) (int, string) {
	raise := func(r, need int) bool { return r != 0 && r <= need }
	switch {
	case hundredths > 200 && hundredths < 900 && hundredths%100 != 0:
		frac := hundredths % 100
		r := percentileFaces(d, "incremental odds (34A1)")
		if raise(r, frac) {
			return col + 1, fmt.Sprintf("incremental odds %d.%02d:1, rolled %02d: raised to %s (34A1)", hundredths/100, frac, r, data.CRTCols[col+1])
		}
		return col, fmt.Sprintf("incremental odds %d.%02d:1, rolled %02d: %s (34A1)", hundredths/100, frac, r, data.CRTCols[col])
	case hundredths > 150 && hundredths < 200:
		inc := (hundredths - 150) * 2
		r := percentileFaces(d, "incremental odds (34A2)")
		if raise(r, inc) {
			return colIndex("2:1"), fmt.Sprintf("incremental odds %d.%02d:1, increment %02d, rolled %02d: raised to 2:1 (34A2)", hundredths/100, hundredths%100, inc, r)
		}
		return col, fmt.Sprintf("incremental odds %d.%02d:1, increment %02d, rolled %02d: stays 1.5:1 (34A2)", hundredths/100, hundredths%100, inc, r)
	}
	return col, ""
}

// crt2 is revision 2's result for a modified roll on a column: rolls below
// -1 read -1, above 8 read 8.
func crt2(roll, col int) string {
	return data.CRT2[min(max(roll, -1), 8)+1][col]
}
