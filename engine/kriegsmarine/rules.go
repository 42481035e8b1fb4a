package kriegsmarine

import "skagerrak/engine"

// Rules implements engine.RuleLister: every numbered section of the
// rulebook with its status and the tests that cover it (data/rules.txt).
func (rules) Rules() []engine.RuleStatus { return files.MustRules() }
