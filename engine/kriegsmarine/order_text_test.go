package kriegsmarine

import (
	"encoding/json"
	"strings"
	"testing"

	"skagerrak/engine"
)

func TestResolveLeavesItsInputAlone(t *testing.T) {
	s := newGame(t, nil)
	before, _ := json.Marshal(s)
	resolve(t, s, "search surface Renown", "enter Scharnhorst A12")
	after, _ := json.Marshal(s)
	if string(before) != string(after) {
		t.Fatal("Resolve modified its input state")
	}
}

func TestOrderSyntaxAliasesCommentsAndFormat(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "lutzow", "K8")
	o := parse(t, s, German, "  MOVE luetzow K9   # north\n# a comment\nencounter LÜTZOW fight\nsearch surface lutzow\n")
	if len(o.Moves) != 1 || o.Moves[0].Units[0] != "lutzow" || o.Moves[0].Path[0] != hex(t, "K9") {
		t.Fatalf("orders %+v", o)
	}
	text := Ruleset{}.FormatOrders(s, German, o)
	want := "move Lützow K9\nsearch surface Lützow\nencounter Lützow fight\n"
	if text != want {
		t.Fatalf("formatted %q, want %q", text, want)
	}
	o2 := parse(t, s, German, text)
	if (Ruleset{}).FormatOrders(s, German, o2) != text {
		t.Fatal("format does not round-trip")
	}
}

// TestMoveToAHexOffTheMapBlamesTheHex: "move Arethusa Z99": Z99 is not a
// hex of the map (columns 1-20), Arethusa is a unit. The error names the
// line and Z99, and its hint is a move that would be accepted.
func TestMoveToAHexOffTheMapBlamesTheHex(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "arethusa", "G6")
	for _, line := range []string{"move Arethusa Z99", "move Arethusa G7 Z99", "move Arethusa, Galatea Z99", "move Arethusa Z99 off"} {
		if strings.Contains(line, "Galatea") {
			put(t, s, "galatea", "G6")
		}
		e := rejects(t, s, Allied, "# orders\n"+line, 2, "6.13")
		if !strings.Contains(e.Msg, `"Z99"`) || strings.Contains(e.Msg, "not one of your units") {
			t.Errorf("%s: %q should blame Z99", line, e.Msg)
		}
		if _, errs := (Ruleset{}).ParseOrders(s, Allied, e.Valid); len(errs) > 0 || !strings.HasPrefix(e.Valid, "move Arethusa") {
			t.Errorf("%s: the hint %q is not accepted: %v", line, e.Valid, errs)
		}
	}
	// A unit whose name looks like a hex (U-47's alias "u47") still names it.
	s = newGame(t, nil)
	clearMap(s)
	put(t, s, "u47", "K8")
	e := rejects(t, s, German, "move u47 Z99", 1, "6.13")
	if !strings.Contains(e.Msg, `"Z99"`) {
		t.Errorf("%q should blame Z99", e.Msg)
	}
}

// TestTooManyOrderLinesNamesTheLine: a line at fault is named, never line 0.
func TestTooManyOrderLinesNamesTheLine(t *testing.T) {
	s := newGame(t, nil)
	text := strings.Repeat("pass\n", engine.MaxOrderFileLines+1)
	_, errs := Ruleset{}.ParseOrders(s, Allied, text)
	if len(errs) != 1 || errs[0].Line != engine.MaxOrderFileLines+1 || errs[0].Valid == "" {
		t.Fatalf("errors %+v: want line %d named", errs, engine.MaxOrderFileLines+1)
	}
}

// TestMoveHintsAreOrdersThatWouldBeAccepted: a refused move's "valid"
// hint is a line the same orders would accept (6.12, 6.15, 6.16): the
// path cut where the unit must stop. Arethusa (B12, allowance 5 on turn
// 2) asked for 7 open-sea hexes is offered her first 5; Glowworm (S10), whose path
// runs into Norwegian waters before the invasion (6.15), is offered the
// hexes before R14; Scharnhorst entering at A12 (4 points) with 3 hexes
// beyond on a 5-point turn is offered A12 and one hex.
func TestMoveHintsAreOrdersThatWouldBeAccepted(t *testing.T) {
	s := newGameRev(t, 2, nil)
	clearMap(s)
	s.Turn = 2
	put(t, s, "arethusa", "B12")
	put(t, s, "glowworm", "S10")
	s.unit("scharnhorst").Where = AtHeld
	for _, c := range []struct {
		side       engine.Side
		line, want string
	}{
		{Allied, "move Arethusa C12 D12 D11 C11 B11 B10 B9", "move Arethusa C12 D12 D11 C11 B11"},
		{Allied, "move Glowworm R10 R11 R12 R13 R14", "move Glowworm R10 R11 R12 R13"},
		{German, "enter Scharnhorst A12 B12 C12 D12", "enter Scharnhorst A12 B12"},
	} {
		_, errs := Ruleset{}.ParseOrders(s, c.side, c.line)
		if len(errs) != 1 || errs[0].Line != 1 || errs[0].Valid != c.want {
			t.Errorf("%q: %+v, want the hint %q", c.line, errs, c.want)
			continue
		}
		if _, errs := (Ruleset{}).ParseOrders(s, c.side, errs[0].Valid); len(errs) > 0 {
			t.Errorf("the hint %q is refused: %v", c.want, errs)
		}
	}
}
