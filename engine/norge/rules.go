package norge

import (
	"strings"

	"skagerrak/engine"
)

// Rules implements engine.RuleLister: every rule of the rulebook, numbered
// as the package documentation explains, with its status and its tests
// (data/rules.txt).
func (rules) Rules() []engine.RuleStatus {
	rs, err := rows("rules.txt", 5)
	if err != nil {
		panic("norge: data pack: " + err.Error())
	}
	out := make([]engine.RuleStatus, 0, len(rs))
	for _, f := range rs {
		r := engine.RuleStatus{Section: f[0], Title: f[1], Status: f[2], Note: f[3]}
		if f[4] != "" {
			r.Tests = strings.Split(f[4], ",")
		}
		out = append(out, r)
	}
	return out
}
