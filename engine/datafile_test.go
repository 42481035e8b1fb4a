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
