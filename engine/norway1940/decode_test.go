package norway1940

import (
	"encoding/json"
	"testing"

	"skagerrak/engine"
)

// TestDecodeViewRoundTrip: a View read back from its JSON is the same View,
// and the scripted player plays the same orders from it.
func TestDecodeViewRoundTrip(t *testing.T) {
	rs := Ruleset{}
	st, err := rs.New(engine.Setup{}, engine.NewSeededDice([]byte("d"), "g", "setup", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range rs.Sides() {
		v := rs.View(st, side)
		b, _ := json.Marshal(v)
		back, err := rs.DecodeView(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := json.Marshal(back)
		if string(b) != string(b2) {
			t.Fatalf("%s: the decoded view differs", side)
		}
		p := rs.Phase(st)
		d1 := engine.NewSeededDice([]byte("p"), string(side), p.ID, [32]byte{})
		d2 := engine.NewSeededDice([]byte("p"), string(side), p.ID, [32]byte{})
		if rs.Play(v, side, d1) != rs.Play(back, side, d2) {
			t.Errorf("%s: the scripted player plays differently from the decoded view", side)
		}
	}
}
