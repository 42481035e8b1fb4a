package replaypage

// The tests replay games of every ruleset in this process too.
import _ "skagerrak/engine/rulesets"
