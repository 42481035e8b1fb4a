package norway1940

import (
	"strings"

	"skagerrak/engine"
)

// Rules implements engine.RuleLister: every numbered section of the
// rulebook with its status and tests (data/rules.txt).
func (rules) Rules() []engine.RuleStatus {
	rs, err := rows("rules.txt", 5)
	if err != nil {
		panic("norway1940: data pack: " + err.Error())
	}
	out := make([]engine.RuleStatus, 0, len(rs))
	for _, f := range rs {
		r := engine.RuleStatus{Section: f[0], Title: f[1], Status: f[2]}
		if f[3] != "-" {
			r.Note = f[3]
		}
		if f[4] != "-" {
			r.Tests = strings.Split(f[4], ",")
		}
		out = append(out, r)
	}
	return out
}
