package hosttest

import (
	"strings"
	"testing"

	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/binarytest"
)

// MigratedStore points the binary's configuration (SKAGERRAK_STORE) at a
// fresh database, which skagerrak store migrate migrates (and, run again,
// says it has nothing to do), and returns its URL.
func MigratedStore(t *testing.T) string {
	t.Helper()
	url := pgtest.URL(t)
	t.Setenv("SKAGERRAK_STORE", url)
	if code, out, errs := binarytest.RunBuilt(t, "store", "migrate"); code != 0 || !strings.Contains(out, "migrated from version 0") {
		t.Fatalf("store migrate: %d %s %s", code, out, errs)
	}
	if code, out, _ := binarytest.RunBuilt(t, "store", "migrate"); code != 0 || !strings.Contains(out, "nothing to do") {
		t.Fatalf("second store migrate: %d %s", code, out)
	}
	return url
}
