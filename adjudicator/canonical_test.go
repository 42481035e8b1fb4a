package adjudicator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEveryEventTypeHasItsStruct: verify holds every record to its event
// type's struct (checkCanonical), so each Ev constant of the package must
// be in eventValue, or verify refuses logs holding it; and Apply folds it
// with its applier (fold.go).
func TestEveryEventTypeHasItsStruct(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			vs, ok := node.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Ev") {
				return true
			}
			lit, ok := vs.Values[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			typ, _ := strconv.Unquote(lit.Value)
			n++
			if _, ok := eventValue(typ); !ok {
				t.Errorf("%s (%s, %s) has no struct in eventValue", vs.Names[0].Name, typ, name)
			}
			if _, ok := appliers[typ]; !ok {
				t.Errorf("%s (%s, %s) has no applier: Apply refuses it", vs.Names[0].Name, typ, name)
			}
			return true
		})
	}
	if n < 20 {
		t.Errorf("found %d event types, expected every Ev constant", n)
	}
}
