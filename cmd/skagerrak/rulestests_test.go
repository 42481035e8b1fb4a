package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"skagerrak/engine"
)

// TestEverySectionNamesARealTest: every rule section that `skagerrak rules`
// lists as implemented, partly implemented or reconstructed names at least
// one test, and every test it names exists in its ruleset's package.
func TestEverySectionNamesARealTest(t *testing.T) {
	for _, r := range engine.Rulesets() {
		rl, ok := r.(engine.RuleLister)
		if !ok || r.Name() == "racetest" {
			continue
		}
		defined := testsIn(t, filepath.Join("..", "..", "engine", r.Name()))
		var untested []string
		for _, s := range rl.Rules() {
			switch s.Status {
			case engine.StatusNotApplicable, engine.StatusNotYet:
				continue
			}
			if len(s.Tests) == 0 {
				untested = append(untested, s.Section)
			}
			for _, name := range s.Tests {
				if !defined[name] {
					t.Errorf("%s %s names test %s, which does not exist", r.Name(), s.Section, name)
				}
			}
		}
		sort.Strings(untested)
		if len(untested) > 0 {
			t.Errorf("%s: %d sections listed as %s, %s or %s name no test: %s", r.Name(), len(untested),
				engine.StatusImplemented, engine.StatusPartial, engine.StatusReconstructed, strings.Join(untested, " "))
		}
	}
}

// testsIn returns the names of the test functions of a package directory.
func testsIn(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tests in %s: %v", dir, err)
	}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	out := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
	}
	return out
}
