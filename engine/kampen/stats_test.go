package kampen

import (
	"fmt"
	"testing"

	"skagerrak/engine"
)

// TestScriptedPlayersBothCampsCanWin plays thirty games with the scripted
// players: each camp wins some, so both ends of the victory rule (1.5) are
// reached in full games.
func TestScriptedPlayersBothCampsCanWin(t *testing.T) {
	wins := map[engine.Side]int{}
	for i := 0; i < 30; i++ {
		s, _ := playGame(t, fmt.Sprint("seed", i))
		wins[s.Winner]++
	}
	if wins[German] == 0 || wins[Norwegian] == 0 {
		t.Errorf("wins %v: one camp never wins", wins)
	}
	t.Logf("wins %v", wins)
}
