package engine

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestDataRows(t *testing.T) {
	fsys := fstest.MapFS{
		"ok.txt":       {Data: []byte("# comment\n\n Oslo | 15 | 16.2 \nNarvik|15|16.2\n")},
		"short.txt":    {Data: []byte("Oslo|15|16.2\nBergen|6\n")},
		"nosource.txt": {Data: []byte("Oslo|15| \n")},
	}
	rows, err := DataRows(fsys, "ok.txt", 3)
	if err != nil || len(rows) != 2 || rows[0][0] != "Oslo" || rows[0][2] != "16.2" {
		t.Fatalf("ok.txt: %q %v", rows, err)
	}
	if _, err := DataRows(fsys, "short.txt", 3); err == nil || !strings.Contains(err.Error(), "short.txt:2: 2 fields, want 3") {
		t.Errorf("short.txt: %v", err)
	}
	if _, err := DataRows(fsys, "nosource.txt", 0); err == nil || !strings.Contains(err.Error(), "nosource.txt:1: no source") {
		t.Errorf("nosource.txt: %v", err)
	}
}

// TestDataRowsEscapes: "\|" is a bar inside a field and "\\" a backslash;
// a lone backslash stays as written.
func TestDataRowsEscapes(t *testing.T) {
	fsys := fstest.MapFS{"esc.txt": {Data: []byte(`6.4 | encounter UNIT\|all ask | a\\b | c\d | 6.4` + "\n")}}
	rows, err := DataRows(fsys, "esc.txt", 5)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"6.4", "encounter UNIT|all ask", `a\b`, `c\d`, "6.4"}
	if strings.Join(rows[0], "¦") != strings.Join(want, "¦") {
		t.Errorf("got %q, want %q", rows[0], want)
	}
}

// TestPackRules: a rules listing's "-" is no note and no tests; tests are
// comma-separated; a row of the wrong width names the file and line.
func TestPackRules(t *testing.T) {
	p := Pack{Game: "g", FS: fstest.MapFS{
		"data/rules.txt": {Data: []byte("# section|title|status|note|tests\n1|Intro|" + StatusNotApplicable + "|-|-\n2.1|Move|" + StatusImplemented + "|two steps|TestA,TestB\n")},
	}}
	rs, err := p.Rules()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Note != "" || rs[0].Tests != nil || rs[1].Note != "two steps" || strings.Join(rs[1].Tests, " ") != "TestA TestB" {
		t.Errorf("got %+v", rs)
	}
	bad := Pack{Game: "g", FS: fstest.MapFS{"data/rules.txt": {Data: []byte("1|Intro|-|-\n")}}}
	if _, err := bad.Rules(); err == nil || !strings.Contains(err.Error(), "data/rules.txt:1: 4 fields, want 5") {
		t.Errorf("bad rules: %v", err)
	}
}
