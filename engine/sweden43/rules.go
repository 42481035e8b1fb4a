package sweden43

import "skagerrak/engine"

// Rules implements engine.RuleLister: every numbered section of the
// rulebook with its status and the tests that cover it (data/rules.txt).
func (rules) Rules() []engine.RuleStatus { return files.MustRules() }

// recon is the mark the brief asks for on standard Europa mechanics.
const recon = "reconstructed: standard Europa mechanics, the Balkan Front rules are not included"
