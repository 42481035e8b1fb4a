package norway1940

import (
	"strings"
	"testing"
)

// errOn returns the error of an order file on a line, failing when there
// is none there; no error may name line 0.
func errOn(t *testing.T, s *State, text string, line int) string {
	t.Helper()
	_, errs := parseOrders(s, s.Phasing, text)
	for _, e := range errs {
		if e.Line == 0 {
			t.Errorf("an error names line 0: %v", e)
		}
	}
	for _, e := range errs {
		if e.Line == line {
			return e.Error()
		}
	}
	t.Fatalf("no error on line %d: %v\n%s", line, errs, text)
	return ""
}

// 11.1.3: "no more than 4 friendly fleets (detected or not) may occupy the
// same sea box". Five fleets ordered into South-2: the fifth (line 5, G24)
// breaks the limit. From Germany a fleet sails into the South sea area
// (10.4.1), whose other boxes are empty: South-1, South-3, South-4 have
// room; G24 could also merge with any of the four (2+2 combat points).
func TestRule11_1_3_FifthFleetNamesItsLineAndWhatFits(t *testing.T) {
	s := bare(t, 8, German)
	s.pool(German, "german", Germany).Combat = 20
	var b strings.Builder
	for _, id := range []string{"G20", "G21", "G22", "G23", "G24"} {
		b.WriteString("fleet " + id + " from Germany combat 2 to South-2\n")
	}
	msg := errOn(t, s, b.String(), 5)
	for _, want := range []string{"11.1.3", "G24", "5th", "G20 G21 G22 G23", "South-1, South-3, South-4", "fleet G20 merge G24"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "South-2,") || strings.Contains(msg, "Centre") {
		t.Errorf("the hint names a box that is full or out of reach: %q", msg)
	}
	// Either hint is accepted.
	parseOK(t, s, strings.Replace(b.String(), "G24 from Germany combat 2 to South-2", "G24 from Germany combat 2 to South-3", 1))
	parseOK(t, s, b.String()+"fleet G20 merge G24\n")
}

// 9.13.4: "The Allied player cannot occupy all naval boxes within a sea
// area with naval combat points": the fourth North box, line 4.
func TestRule9_13_4_EveryBoxOfASeaAreaNamesTheLastLine(t *testing.T) {
	a := bare(t, 8, Allied)
	a.pool(Allied, "british", UK).Combat = 40
	msg := errOn(t, a, "fleet A20 from UK combat 2 to North-1\nfleet A21 from UK combat 2 to North-2\nfleet A22 from UK combat 2 to North-3\nfleet A23 from UK combat 2 to North-4\n", 4)
	if !strings.Contains(msg, "9.13.4") || !strings.Contains(msg, "A23") || !strings.Contains(msg, "North-1, North-2, North-3") {
		t.Errorf("error %q", msg)
	}
	parseOK(t, a, "fleet A20 from UK combat 2 to North-1\nfleet A21 from UK combat 2 to North-2\nfleet A22 from UK combat 2 to North-3\nfleet A23 from UK combat 2 to North-1\n")
}

// 11.1.2: seven battalion equivalents an area; the third regiment into
// Hamar (line 3) makes 9 and names its line. 8.9.4.1: support over an area
// without an attack names the support line.
func TestRule11_1_2_OverstackAndSupportNameTheirLines(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "340", "Oslo")
	put(s, "345", "Oslo")
	put(s, "362", "Oslo")
	msg := errOn(t, s, "move 340 Hamar\nmove 345 Hamar\nmove 362 Hamar\n", 3)
	if !strings.Contains(msg, "11.1.2") || !strings.Contains(msg, "9 battalion equivalents") {
		t.Errorf("error %q", msg)
	}
	s.setControl("Oslo", German)
	put(s, "IR4", "Hamar")
	msg = errOn(t, s, "move 340 Hamar\nair support Elverum 1\n", 2)
	if !strings.Contains(msg, "8.9.4.1") || !strings.Contains(msg, "valid: land support only over an area where your units attack this turn: Hamar") {
		t.Errorf("error %q", msg)
	}
	parseOK(t, s, "move 340 Hamar\nair support Hamar 1\n")
}
