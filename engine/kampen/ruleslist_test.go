package kampen

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"skagerrak/engine"
)

func TestRulesListEverySectionWithRealTests(t *testing.T) {
	files, _ := filepath.Glob("*_test.go")
	defined := map[string]bool{}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			defined[m[1]] = true
		}
	}
	valid := map[string]bool{engine.StatusImplemented: true, engine.StatusReconstructed: true,
		engine.StatusNotApplicable: true, engine.StatusPartial: true, engine.StatusNotYet: true}
	seen := map[string]bool{}
	for _, r := range (Ruleset{}).Rules() {
		if seen[r.Section] {
			t.Errorf("section %s twice", r.Section)
		}
		seen[r.Section] = true
		if !valid[r.Status] {
			t.Errorf("%s: status %q", r.Section, r.Status)
		}
		for _, name := range r.Tests {
			if !defined[name] {
				t.Errorf("%s names test %s, which does not exist", r.Section, name)
			}
		}
		if r.Status != engine.StatusNotApplicable && len(r.Tests) == 0 {
			t.Errorf("%s (%s) has no test", r.Section, r.Title)
		}
	}
	for _, s := range []string{"1", "1.1", "1.2", "1.3", "1.4", "1.5", "2", "2.1", "2.2", "2.3", "2.4", "2.5",
		"2.6", "2.7", "2.8", "2.9", "3", "3.1", "3.2", "4", "4.1", "4.2", "4.3", "4.4", "5", "5.1", "5.2",
		"5.3", "5.3.1", "5.3.2", "5.3.3", "5.3.4", "5.3.5", "5.3.6", "5.3.7", "5.3.8", "6", "6.1", "6.2", "6.3", "7", "7.1"} {
		if !seen[s] {
			t.Errorf("section %s missing from Rules()", s)
		}
	}
}

func TestDataPackMarksEveryReconstruction(t *testing.T) {
	for _, a := range data.Areas {
		if a.Source == "" {
			t.Errorf("area %s has no source", a.ID)
		}
	}
	for _, c := range data.Cards {
		if c.Source == "" || c.Gloss == "" {
			t.Errorf("card %s/%s lacks a source or gloss", c.Side, c.ID)
		}
	}
	for _, l := range data.Links {
		if !regexp.MustCompile(`^(text|reconstructed)`).MatchString(l.Source) {
			t.Errorf("link %s-%s: source %q is neither text nor reconstructed", l.A, l.B, l.Source)
		}
	}
}
