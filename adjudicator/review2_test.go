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
// The outage says nothing about the game; yet openGame sets it aside like
// a damaged log, and a set-aside game is never opened again by this
// process: it is not played, and its players' mail stays in the mailbox.
func TestReview2GameOpenedDuringAnOutageIsNotSetAside(t *testing.T) {
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

// A message is recognised as one its game recorded after the referee gave
// its signer's side another key, when that key plays no other game (the
// usual case: a player lost a key and got a new one registered). The
// accepted orders, seen again (their move failed, the mailbox state was
// lost), must be a duplicate of g1's record and go to the processed
// folder; instead the old key is no longer in the key set, the signature
// does not verify, and the message is moved to the rejected folder as
// mail of an unknown key.
func TestReview2MessageOfAReplacedKeyInItsOnlyGameIsADuplicate(t *testing.T) {
	dir := t.TempDir()
	clk := &testClock{t: time.Date(1940, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(dir, Options{Clock: clk, Verifier: keyVerifier{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	raw := []byte("key-a|FPA|m1\n" + orders("g1", "T01", "allied", "advance 1"))
	r, err := h.Receive(raw)
	if err != nil || r.Status != StatusAccepted || r.Game != "g1" {
		t.Fatalf("first: %+v %v", r, err)
	}
	moved := Player{Side: "allied", Address: "a@example.org", Key: "key-x", Fingerprint: "FPX"}
	if err := h.Referee("g1", Command{Name: "key", Player: &moved, Why: "a new key"}); err != nil {
		t.Fatal(err)
	}
	r, err = h.Receive(raw)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusDuplicate || r.Game != "g1" || r.Moved != "processed" {
		t.Fatalf("the accepted message seen again after its key was replaced: %+v, want a duplicate of g1's record, moved to processed", r)
	}
}

// A command about one game opens only that game (Options.Select), and
// must still count a message once: orders already accepted in g1, entered
// again with submit on g2 (whose side the same key plays), are a
// duplicate, as the daemon holding every game says; the host that opened
// only g2 records them in g2 as well (a rejection, answered).
func TestReview2SubmitOnOneSelectedGameCountsAMessageOnce(t *testing.T) {
	h, clk, dir := newHost(t)
	for _, id := range []string{"g1", "g2"} {
		if _, err := h.Create(raceSpec(id)); err != nil {
			t.Fatal(err)
		}
	}
	text := orders("g1", "T01", "allied", "advance 1")
	sub := Submission{Text: text, Source: "file", Fingerprint: "FPA", Key: "k-once", SigTime: clk.Now()}
	h.mu.Lock()
	r, err := h.route(sub, clk.Now())
	h.mu.Unlock()
	if err != nil || r.Status != StatusAccepted || r.Game != "g1" {
		t.Fatalf("first: %+v %v", r, err)
	}
	h.mu.Lock()
	full, err := h.route(sub, clk.Now())
	h.mu.Unlock()
	if err != nil || full.Status != StatusDuplicate {
		t.Fatalf("the host of every game: %+v %v", full, err)
	}
	h.Close()
	one, err := OpenHost(dir, Options{Clock: clk, Select: func(id string) bool { return id == "g2" }})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	g2, _ := one.Game("g2")
	before := g2.Seq
	one.mu.Lock()
	r, err = one.route(sub, clk.Now())
	one.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusDuplicate || g2.Seq != before {
		t.Fatalf("the same message on a host of g2 alone: %+v, g2 grew from %d to %d records; want a duplicate, nothing recorded", r, before, g2.Seq)
	}
}

// Paper orders the referee enters (submit --unsigned) keep no mail: the
// limit of MaxOrdersPerPhase accepted files, there to bound the whole
// mails a key's flood adds to the log, should not lock the referee out of
// entering a side's orders once that side's key used up the phase's
// files; the referee's entry is refused, and the side is mailed a
// rejection of orders it never mailed.
func TestReview2PaperOrdersAfterASidesMailFloodAreTaken(t *testing.T) {
	h, clk, _ := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	for i := range MaxOrdersPerPhase {
		clk.Add(time.Second)
		text := orders("g1", "T01", "allied", fmt.Sprintf("advance %d # %d", 1+i%3, i))
		if r := routeSigned(t, h, "allied", text, fmt.Sprintf("sig1:acc-%d", i), clk.Now(), nil); r.Status != StatusAccepted {
			t.Fatalf("order file %d: %+v", i, r)
		}
	}
	clk.Add(time.Second)
	g, _ := h.Game("g1")
	queued := len(g.Outbox)
	paper := orders("g1", "T01", "allied", "advance 2 # on paper")
	r, err := h.SubmitFile("g1", "allied", []byte(paper), "", true, "the referee")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusAccepted {
		t.Errorf("paper orders entered by the referee after the side's 20 mailed files: %+v (%d mails queued for the side)", r, len(g.Outbox)-queued)
	}
}

// flakyListing is the file store whose listing of the data directory
// fails while fail is set (EMFILE, EIO, a NFS hiccup).
type flakyListing struct {
	*FileStore
	fail bool
}

func (s *flakyListing) Games() ([]string, error) {
	if s.fail {
		return nil, errors.New("open data: too many open files")
	}
	return s.FileStore.Games()
}

// A game made beside a running host is taken up even when the pass that
// first noticed the data directory change could not list it: Appeared
// has already taken in the new modification time and openAppeared has
// cleared reopen before Games fails, so no later pass looks again until
// something else changes the directory.
func TestReview2GameMadeBesideIsTakenUpAfterAFailedListing(t *testing.T) {
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
