package rulesets

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"skagerrak/engine"
)

// TestEveryRulesetFolderIsImported: every package under engine/ that
// registers a ruleset when imported (engine.Register in an init function)
// is imported here, so that the command plays it and every test that
// walks the registered rulesets covers it.
func TestEveryRulesetFolderIsImported(t *testing.T) {
	imported := importsOf(t, "rulesets.go")
	dirs, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	registering := map[string]bool{}
	for _, d := range dirs {
		if d.IsDir() && registersInInit(t, filepath.Join("..", d.Name())) {
			registering["skagerrak/engine/"+d.Name()] = true
		}
	}
	for _, pkg := range engine.SortedKeys(registering) {
		if !imported[pkg] {
			t.Errorf("%s registers a ruleset, but engine/rulesets/rulesets.go does not import it: add _ %q", strings.TrimPrefix(pkg, "skagerrak/"), pkg)
		}
	}
	for _, pkg := range engine.SortedKeys(imported) {
		if !registering[pkg] {
			t.Errorf("rulesets.go imports %s, which registers no ruleset in an init function", pkg)
		}
	}
}

// importsOf is the set of import paths of a Go file.
func importsOf(t *testing.T, file string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		out[p] = true
	}
	return out
}

// registersInInit reports whether a non-test file of the package directory
// calls engine.Register from an init function, as a ruleset does (the test
// rulesets of enginetest register from a function their tests call).
func registersInInit(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Name.Name == "init" && fn.Recv == nil && callsRegister(fn.Body) {
				return true
			}
		}
	}
	return false
}

// callsRegister reports whether a function body calls engine.Register.
func callsRegister(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Register" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "engine" {
				found = true
			}
		}
		return !found
	})
	return found
}
