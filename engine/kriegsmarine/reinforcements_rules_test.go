package kriegsmarine

import (
	"strings"
	"testing"
)

// Rules tests of chapter 14, Reinforcements and Withdrawal, of the rulebook
// (seeds 000): each outcome worked out by hand from the rule it cites.

func TestRule14_0_RShipsReturnToScapaFlow(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "birmingham", "K8")
	s.Turn = WithdrawalTurn
	rejects(t, s, Allied, "move Birmingham K9", 1, "14.0")
	if !s.view(Allied).unit("birmingham").Returning {
		t.Fatal("the view does not say Birmingham returns")
	}
	start := s.unit("birmingham").Hex
	s = resolve(t, s, "", "")
	scapa, _ := portHex("Scapa Flow")
	moved := start.Distance(s.unit("birmingham").Hex)
	if moved != 5 || s.unit("birmingham").Hex.Distance(scapa) >= start.Distance(scapa) {
		t.Fatalf("Birmingham went from %s to %s: want all 5 points towards Scapa Flow", start, s.unit("birmingham").Hex)
	}
	for i := 0; i < 6 && !s.unit("birmingham").Returned; i++ {
		s = resolve(t, s, "", "", 6)
	}
	if !s.unit("birmingham").Returned || s.unit("birmingham").Hex != scapa {
		t.Fatalf("Birmingham never reached Scapa Flow: %+v", s.unit("birmingham"))
	}
	parse(t, s, Allied, "move Birmingham "+shortestPath(scapa, hex(t, "K8"), moveOK(Allied, "UK", false, s.Turn, 0))[0].String())
}

func TestRule14_2_QShipsArriveOnTurn4NearBergenUnseen(t *testing.T) {
	s := newGame(t, []string{OptQShips})
	if u := s.unit("qships"); u.Where != AtWaiting || u.Arrive != 4 {
		t.Fatalf("Q-ships %+v", u)
	}
	for s.Turn < 4 {
		s = resolve(t, s, "", "")
	}
	u := s.unit("qships")
	bergen, _ := portHex("Bergen")
	if u.Where != AtMap || !norwegian(u.Hex) || u.Hex.Distance(bergen) > 2 {
		t.Fatalf("Q-ships %+v: want on the Norwegian coast within 2 of Bergen", u)
	}
	// Searches never see them (6.34, 17.7).
	if got := s.visibleAt(German, u.Hex); len(got) != 0 {
		t.Errorf("search sees %v", got)
	}
}

func TestRule14_1_HN25ConvoyAndItsEscort(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "ddflot4", "J9")
	s.Turn = ConvoyTurn - 1
	s = resolve(t, s, "", "")
	c := s.unit("hn25")
	if c.Where != AtMap || c.Hex != hex(t, "J9") || s.ConvoyEscort != "ddflot4" {
		t.Fatalf("convoy %+v escort %q, want with DD Flot 4 at J9", c, s.ConvoyEscort)
	}
	if s.view(German).ConvoyEscort != "" {
		t.Error("the German view names the escort")
	}
	rejects(t, s, Allied, "move HN25 Convoy J8", 1, "14.1")
	parse(t, s, Allied, "move HN25 Convoy, DD Flot 4 J8 J7")
	// The escort annihilated, the convoy is destroyed: 10 VP to Germany.
	s.unit("ddflot4").Where = AtSunk
	s.convoyCheck()
	if s.unit("hn25").Where != AtSunk {
		t.Fatal("the convoy survived its escort")
	}
	pts := 0
	for _, l := range s.score() {
		if l.Side == German && strings.Contains(l.Why, "HN25") {
			pts += l.Points
		}
	}
	if pts != 10 {
		t.Errorf("HN25 sunk scores %d, want 10", pts)
	}
	// Alone when no escort is near Bergen (14.11).
	s2 := newGame(t, nil)
	clearMap(s2)
	s2.Turn = ConvoyTurn - 1
	s2 = resolve(t, s2, "", "")
	bergen, _ := portHex("Bergen")
	if c := s2.unit("hn25"); c.Where != AtMap || c.Hex.Distance(bergen) > 2 || s2.ConvoyEscort != "" {
		t.Fatalf("lone convoy %+v", c)
	}
	// Leaving elsewhere than between G1 and K1 is refused.
	s2.unit("hn25").Hex = hex(t, "A5")
	rejects(t, s2, Allied, "move HN25 off", 1, "14.1")
}
