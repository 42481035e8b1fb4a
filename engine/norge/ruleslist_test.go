package norge

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"skagerrak/engine"
)

// TestRulesListsEveryRuleAndTest checks Rules against the test files: every
// test it names exists, every TestRuleN_M test is listed under a section,
// and its name's number is that of a section that lists it.
func TestRulesListsEveryRuleAndTest(t *testing.T) {
	files, _ := filepath.Glob("*_test.go")
	defined := map[string]bool{}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			defined[m[1]] = true
		}
	}
	rules := Ruleset{}.Rules()
	listed := map[string][]string{}
	seen := map[string]bool{}
	statuses := map[string]bool{engine.StatusImplemented: true, engine.StatusReconstructed: true, engine.StatusNotApplicable: true, engine.StatusPartial: true, engine.StatusNotYet: true}
	for _, r := range rules {
		if seen[r.Section] {
			t.Fatalf("section %s twice", r.Section)
		}
		seen[r.Section] = true
		if !statuses[r.Status] {
			t.Fatalf("section %s: status %q", r.Section, r.Status)
		}
		if r.Status != engine.StatusImplemented && r.Note == "" {
			t.Errorf("section %s (%s) says nothing about why", r.Section, r.Status)
		}
		for _, name := range r.Tests {
			if !defined[name] {
				t.Errorf("section %s lists %s, which does not exist", r.Section, name)
			}
			listed[name] = append(listed[name], r.Section)
		}
	}
	num := regexp.MustCompile(`^TestRule(\d+)_(\d+)_`)
	for name := range defined {
		m := num.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		sec := m[1] + "." + m[2]
		if !seen[sec] {
			t.Errorf("%s cites section %s, which Rules does not list", name, sec)
		}
		ok := false
		for _, s := range listed[name] {
			ok = ok || s == sec
		}
		if !ok {
			t.Errorf("%s is not listed under section %s", name, sec)
		}
	}
	// every heading of the rulebook has its paragraphs
	counts := map[string]int{}
	for _, r := range rules {
		counts[strings.Split(r.Section, ".")[0]]++
	}
	want := map[string]int{"1": 4, "2": 5, "3": 4, "4": 8, "5": 3, "6": 6, "7": 6, "8": 7, "9": 5, "10": 9, "11": 4, "12": 8, "13": 7, "14": 8, "15": 3, "16": 15, "17": 2}
	for h, n := range want {
		if counts[h] != n {
			t.Errorf("heading %s has %d paragraphs listed, want %d", h, counts[h], n)
		}
	}
}
