package kriegsmarine

import "skagerrak/engine"

// Rules implements engine.RuleLister: every numbered section of the
// rulebook with its status and the tests that cover it.
func (Ruleset) Rules() []engine.RuleStatus {
	return append([]engine.RuleStatus(nil), ruleStatus...)
}

var ruleStatus = []engine.RuleStatus{}
