package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// TestEveryRulesetRunsTheConformanceSuite: every registered ruleset (the
// games this command serves, and the test ruleset) has a test in its own
// package that runs enginetest.Conformance on it, so a new ruleset that
// skips the suite fails here.
func TestEveryRulesetRunsTheConformanceSuite(t *testing.T) {
	enginetest.Register()
	rulesets := engine.Rulesets()
	if len(rulesets) < 6 {
		t.Fatalf("only %d rulesets registered", len(rulesets))
	}
	for _, r := range rulesets {
		if r.Name() == "looptest" {
			continue // made never to end, for the step budget's tests
		}
		pkg := reflect.TypeOf(r).PkgPath()
		dir, ok := strings.CutPrefix(pkg, "skagerrak/")
		if !ok {
			t.Errorf("%s: ruleset of package %s, outside this module", r.Name(), pkg)
			continue
		}
		if !callsConformance(t, filepath.Join("..", "..", filepath.FromSlash(dir))) {
			t.Errorf("%s: no test in %s runs enginetest.Conformance", r.Name(), dir)
		}
	}
}

// callsConformance reports whether a test file of the package directory
// calls enginetest.Conformance (or Conformance, inside enginetest).
func callsConformance(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "enginetest" && fn.Sel.Name == "Conformance" {
					found = true
				}
			case *ast.Ident:
				if fn.Name == "Conformance" && file.Name.Name == "enginetest" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}
