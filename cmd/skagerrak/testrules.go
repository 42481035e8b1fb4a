//go:build skagerrak_testrules

package main

import "skagerrak/engine/enginetest"

// Built with -tags skagerrak_testrules (as the end-to-end tests build it,
// internal/binarytest.MainTestRules), the binary also knows the test
// rulesets: the games those tests make play racetest, whose dice and
// orders they work out by hand. A binary built without the tag does not
// have them.
func init() { enginetest.Register() }
