package kampen

import (
	"fmt"
	"os"
	"testing"

	"skagerrak/engine"
)

func TestStatsDebug(t *testing.T) {
	if os.Getenv("KAMPEN_STATS") == "" {
		t.Skip()
	}
	wins := map[engine.Side]int{}
	rounds := 0
	for i := 0; i < 60; i++ {
		s, _ := playGame(t, fmt.Sprint("seed", i))
		wins[s.Winner]++
		rounds += s.Round
	}
	t.Logf("wins %v, mean rounds %.1f", wins, float64(rounds)/60)
}

func TestStatsLog(t *testing.T) {
	if os.Getenv("KAMPEN_LOG") == "" {
		t.Skip()
	}
	s, _ := playGame(t, os.Getenv("KAMPEN_LOG"))
	for _, e := range s.Events {
		if e.To == "" {
			t.Logf("R%d %s: %s", e.Round, e.Turn, e.Text)
		}
	}
	t.Logf("%v", s.Stacks)
}
