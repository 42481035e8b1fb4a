package e2e

// The tests read and replay games of every ruleset in this process too.
import _ "skagerrak/engine/rulesets"
