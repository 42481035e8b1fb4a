package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// refNormName is normName as first written: the reference the fast path
// must agree with.
func refNormName(s string) string {
	s = strings.ToLower(s)
	r := strings.NewReplacer("ü", "u", "ö", "o", "ä", "a", "æ", "ae", "ø", "o", "å", "a", "ß", "ss", "é", "e", "è", "e")
	s = r.Replace(s)
	var b strings.Builder
	for _, c := range s {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// refAirfieldHex is airfieldHex as first written: a walk over the map.
func refAirfieldHex(name string) (engine.Hex, *Airfield, bool) {
	for _, hi := range TheMap().Airfields() {
		if strings.EqualFold(hi.Airfield.Name, name) || refNormName(hi.Airfield.Name) == refNormName(name) {
			return hi.Hex, hi.Airfield, true
		}
	}
	return engine.Hex{}, nil, false
}

// TestNameIndexesChangeNothing: the fast normName and the indexed
// airfieldHex give what the first versions gave, for every unit name and
// alias, every airfield and base name, written in many ways.
func TestNameIndexesChangeNothing(t *testing.T) {
	var names []string
	for _, d := range mustUnits().byID {
		names = append(names, d.ID, d.Name)
		names = append(names, d.Aliases...)
	}
	for _, hi := range TheMap().Airfields() {
		names = append(names, hi.Airfield.Name)
	}
	names = append(names, "", " ", "German area", "LÜTZOW", "Luetzow", "Kjevik!", "ſola", "SOLA", "sola ", "Værnes", "VAERNES", "Ark-Royal", "İ", "K", "ärk", "x y z", "Hatston", "no such place", "12", "Fornebu,")
	var cases []string
	for _, n := range names {
		cases = append(cases, n, strings.ToUpper(n), strings.ToLower(n), " "+n+".", strings.ReplaceAll(n, " ", "-"))
	}
	for _, c := range cases {
		if got, want := normName(c), refNormName(c); got != want {
			t.Errorf("normName(%q) = %q, want %q", c, got, want)
		}
		h1, a1, ok1 := airfieldHex(c)
		h2, a2, ok2 := refAirfieldHex(c)
		if h1 != h2 || ok1 != ok2 || (a1 == nil) != (a2 == nil) || (a1 != nil && *a1 != *a2) {
			t.Errorf("airfieldHex(%q) = %v %v %v, want %v %v %v", c, h1, a1, ok1, h2, a2, ok2)
		}
	}
	if _, a, _ := airfieldHex("Sola"); a != nil {
		a.Name = "changed"
		if _, b, _ := airfieldHex("Sola"); b.Name != "Sola" {
			t.Fatal("airfieldHex hands out the index's own airfield")
		}
	}
}
