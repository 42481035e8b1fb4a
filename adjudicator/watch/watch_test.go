package watch

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"skagerrak/adjudicator"
)

type fakeHost struct{ s adjudicator.Summary }

func (f *fakeHost) Summary() adjudicator.Summary   { return f.s }
func (f *fakeHost) Observe(o adjudicator.Observer) {}

func health(t *testing.T, w *Watch) (int, string) {
	t.Helper()
	r, err := http.Get("http://" + w.Addr() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// /healthz answers 503 before any pass succeeded and after passes stop
// succeeding for longer than the bound, naming the last failure; 200 while
// they succeed. A port alone listens on the loopback address.
func TestHealthSaysWhy(t *testing.T) {
	w, err := Start(&fakeHost{}, Options{Addr: "0", HealthyWithin: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !strings.HasPrefix(w.Addr(), "127.0.0.1:") {
		t.Errorf("a port alone listens on %s", w.Addr())
	}
	if code, body := health(t, w); code != 503 || !strings.Contains(body, "no pass has succeeded yet") {
		t.Errorf("before a pass: %d %s", code, body)
	}
	w.Pass(adjudicator.Pass{}, time.Millisecond, nil)
	if code, body := health(t, w); code != 200 || !strings.HasPrefix(body, "ok:") {
		t.Errorf("after a good pass: %d %s", code, body)
	}
	w.Pass(adjudicator.Pass{Failures: 1, LastFailure: errors.New("sending mail: connection refused")}, time.Millisecond, nil)
	time.Sleep(300 * time.Millisecond)
	if code, body := health(t, w); code != 503 || !strings.Contains(body, "connection refused") || !strings.Contains(body, "healthy within 200ms") {
		t.Errorf("after failing passes: %d %s", code, body)
	}
}
