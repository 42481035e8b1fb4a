package norge

import (
	"fmt"
	"os"
	"testing"
)

func TestDebugLog(t *testing.T) {
	if os.Getenv("NORGE_DEBUG") == "" {
		t.Skip()
	}
	s, _ := playGame(t, "alpha")
	for _, e := range s.Log {
		fmt.Printf("T%d %s [%s] %s\n", e.Turn, stepNames[e.Step], e.To, e.Text)
	}
	fmt.Println(Ruleset{}.Report(Ruleset{}.View(s, German), German))
}
