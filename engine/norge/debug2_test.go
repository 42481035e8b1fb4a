package norge

import (
	"fmt"
	"os"
	"testing"
)

func TestDebugReport(t *testing.T) {
	if os.Getenv("NORGE_DEBUG") == "" {
		t.Skip()
	}
	r := Ruleset{}
	done := false
	eachPhase(t, "rep", func(s *State) {
		if done || s.Turn != 3 || s.Step != StepLandAllied {
			return
		}
		done = true
		v := r.View(s, Allied)
		fmt.Println(r.Report(v, Allied))
		fmt.Println(r.OrderForm(v, Allied))
		fmt.Println(r.Play(v, Allied, nil))
	})
}
