package adjudicator

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"skagerrak/events"
)

// outageStore is a store other processes add games to (a HeadLister, as
// the database is) whose calls fail as a database that cannot be reached
// does while down is set.
type outageStore struct {
	fs     *FileStore
	hidden map[string]bool
	down   bool
}

var errDown = fmt.Errorf("connection refused: %w", events.ErrUnavailable)

func (s *outageStore) Games() ([]string, error) {
	ids, err := s.fs.Games()
	var out []string
	for _, id := range ids {
		if !s.hidden[id] {
			out = append(out, id)
		}
	}
	return out, err
}

func (s *outageStore) Heads() (map[string]uint64, error) {
	ids, err := s.Games()
	if err != nil {
		return nil, err
	}
	out := map[string]uint64{}
	for _, id := range ids {
		out[id] = 1
	}
	return out, nil
}

func (s *outageStore) Create(id string, secret []byte) (events.Log, func(bool) error, error) {
	return s.fs.Create(id, secret)
}

func (s *outageStore) Open(id string) (events.Log, error) {
	if s.down {
		return nil, errDown
	}
	return s.fs.Open(id)
}

func (s *outageStore) Secret(id string) ([]byte, error) {
	if s.down {
		return nil, errDown
	}
	return s.fs.Secret(id)
}

func (s *outageStore) Snapshot(id string) ([]byte, error) { return s.fs.Snapshot(id) }
func (s *outageStore) SaveSnapshot(id string, seq uint64, b []byte) error {
	return s.fs.SaveSnapshot(id, seq, b)
}
func (s *outageStore) Where() string { return "outage store" }
func (s *outageStore) Close() error  { return nil }

// A game another daemon made, which this host first tries to open while
// the database cannot be reached, is taken up once the database is back.
// The outage says nothing about the game: it is not set aside as a
// damaged log is (a set-aside game is never opened again by the process).
func TestGameOpenedDuringAnOutageIsNotSetAside(t *testing.T) {
	maker, clk, dir := newHost(t)
	for _, id := range []string{"g1", "g2"} {
		if _, err := maker.Create(raceSpec(id)); err != nil {
			t.Fatal(err)
		}
	}
	maker.Close()
	fs, err := NewFileStore(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	st := &outageStore{fs: fs, hidden: map[string]bool{"g2": true}}
	h, err := OpenStore(st, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// g2 appears (another daemon made it) while the database goes down.
	st.hidden["g2"], st.down = false, true
	p, err := h.PollOnce(context.Background(), emptyInbox{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !p.StoreDown {
		t.Fatalf("pass during the outage: %+v, want StoreDown", p)
	}
	// The database is back.
	st.down = false
	if _, err := h.PollOnce(context.Background(), emptyInbox{}, nil); err != nil {
		t.Fatal(err)
	}
	if aside := h.SetAside(); len(aside) != 0 {
		t.Errorf("set aside after the outage: %v", aside)
	}
	if _, err := h.Game("g2"); err != nil {
		t.Fatalf("g2 once the database is back: %v", err)
	}
}

// keyVerifier is a Verifier over fake mail: "KEY|FINGERPRINT|ID\n" and
// the order file. A key that is not in the key set does not verify, as
// with OpenPGP.
type keyVerifier struct{}

func (keyVerifier) Keys(armored []string) (KeySet, error) {
	ks := map[string]bool{}
	for _, a := range armored {
		ks[a] = true
	}
	return ks, nil
}

func (keyVerifier) VerifyMail(raw []byte, keys KeySet, at time.Time) (Verified, error) {
	head, text, _ := strings.Cut(string(raw), "\n")
	f := strings.Split(head, "|")
	if len(f) != 3 {
		return Verified{}, errors.New("not signed")
	}
	if !keys.(map[string]bool)[f[0]] {
		return Verified{}, fmt.Errorf("signed by unknown key %s", f[1])
	}
	return Verified{Signed: []byte(text), Fingerprint: f[1], Key: "k-" + f[2], SigTime: at}, nil
}

func (keyVerifier) VerifyFile(data []byte, sig string, keys KeySet, at time.Time) (Verified, error) {
	return Verified{}, errors.New("no files here")
}

// A game made beside a running host is taken up even when the pass that
// first noticed the data directory change could not list it (Appeared
// has taken in the new modification time by then): the next pass looks
// again.
func TestGameMadeBesideIsTakenUpAfterAFailedListing(t *testing.T) {
	dir := t.TempDir()
	clk := &testClock{t: time.Date(1940, 4, 8, 6, 0, 0, 0, time.UTC)}
	fs, err := NewFileStore(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	st := &flakyListing{FileStore: fs}
	daemon, err := OpenStore(st, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer daemon.Close()
	if _, err := daemon.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	if _, err := daemon.PollOnce(context.Background(), emptyInbox{}, nil); err != nil {
		t.Fatal(err)
	}
	maker, err := OpenHost(dir, Options{Clock: clk, Select: func(string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := maker.Create(raceSpec("g2")); err != nil {
		t.Fatal(err)
	}
	maker.Close()
	st.fail = true
	if p, err := daemon.PollOnce(context.Background(), emptyInbox{}, nil); err != nil || p.Failures == 0 {
		t.Fatalf("pass with a failing listing: %+v %v", p, err)
	}
	st.fail = false
	for range 3 {
		if _, err := daemon.PollOnce(context.Background(), emptyInbox{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := daemon.Game("g2"); err != nil {
		t.Fatalf("g2, three passes after the listing works again: %v", err)
	}
}
