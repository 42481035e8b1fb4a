package norway1940

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/engine"
)

func TestRulesListEverySectionHonestly(t *testing.T) {
	var _ engine.RuleLister = Ruleset{}
	rs := Ruleset{}.Rules()
	if len(rs) != 272 {
		t.Errorf("%d sections, want the rulebook's 272 numbered headings", len(rs))
	}
	tests := map[string]bool{}
	files, _ := filepath.Glob("*_test.go")
	fs := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fd.Name.Name, "Test") {
				tests[fd.Name.Name] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, r := range rs {
		if seen[r.Section] {
			t.Errorf("section %s twice", r.Section)
		}
		seen[r.Section] = true
		switch r.Status {
		case engine.StatusImplemented, engine.StatusReconstructed, engine.StatusPartial, engine.StatusNotYet, engine.StatusNotApplicable:
		default:
			t.Errorf("%s: status %q", r.Section, r.Status)
		}
		for _, name := range r.Tests {
			if !tests[name] {
				t.Errorf("%s: no test %s", r.Section, name)
			}
		}
		if r.Status == engine.StatusImplemented && r.Note == "" {
			t.Errorf("%s: no note", r.Section)
		}
	}
	for _, s := range []string{"5.2.1", "6.2", "9.14.5", "9.14.5 (again)", "10.5.8", "12.4.3", "16.6.3", "17.2", "18", "GTS-5.0"} {
		if !seen[s] {
			t.Errorf("section %s missing", s)
		}
	}
}
