// Package rulesets registers every ruleset skagerrak plays: each package
// under engine/<name> registers itself with the engine when imported, and
// this one imports them all. The command and the tests that play every
// ruleset import this package, so a new ruleset is one line here (see
// "Adding a ruleset" in the engine package's doc).
package rulesets

import (
	_ "skagerrak/engine/kampen"
	_ "skagerrak/engine/kriegsmarine"
	_ "skagerrak/engine/norge"
	_ "skagerrak/engine/norway1940"
	_ "skagerrak/engine/sweden43"
)
