package imapbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"skagerrak/mail/internal/netutil"
	"skagerrak/mail/loopback"
)

const (
	testUser = "umpire"
	testPass = "s3cret"
)

func startServer(t testing.TB, opts loopback.IMAPOptions) *loopback.IMAPServer {
	t.Helper()
	opts.Users = append(opts.Users, loopback.IMAPUser{Username: testUser, Password: testPass})
	srv, err := loopback.StartIMAP(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// testConfig is a config for srv with short, test-sized timings.
func testConfig(t testing.TB, srv *loopback.IMAPServer, stateDir string) Config {
	return Config{
		Addr:           srv.Addr(),
		Username:       testUser,
		Password:       testPass,
		TLS:            TLSNone,
		StateDir:       stateDir,
		Processed:      "Processed",
		Rejected:       "Rejected",
		CommandTimeout: 5 * time.Second,
		IdleRestart:    time.Minute,
		BackoffInitial: time.Millisecond,
		BackoffMax:     20 * time.Millisecond,
		MaxAttempts:    20,
		Jitter:         rand.NewPCG(1, 2),
	}
}

func open(t testing.TB, cfg Config) *Box {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

func msg(n int, body string) []byte {
	return []byte(fmt.Sprintf("From: player%d@example.org\r\nTo: umpire@example.org\r\nSubject: orders %d\r\nMessage-ID: <%d@example.org>\r\n\r\n%s\r\n", n, n, n, body))
}

func appendN(t testing.TB, srv *loopback.IMAPServer, from, n int, flags ...imap.Flag) [][]byte {
	t.Helper()
	var raws [][]byte
	for i := from; i < from+n; i++ {
		raw := msg(i, strings.Repeat("order line\r\n", 3))
		if _, err := srv.Append(testUser, "INBOX", raw, flags...); err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
	}
	return raws
}

func messages(t testing.TB, srv *loopback.IMAPServer, folder string) []loopback.StoredMessage {
	t.Helper()
	m, err := srv.Messages(testUser, folder)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func fetch(t testing.TB, b *Box) []Message {
	t.Helper()
	got, err := b.Fetch(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestFetchPeeksAndMoveUsesMove(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	raws := appendN(t, srv, 1, 3)
	b := open(t, testConfig(t, srv, t.TempDir()))

	got := fetch(t, b)
	if len(got) != 3 {
		t.Fatalf("Fetch returned %d messages, want 3", len(got))
	}
	for i, m := range got {
		if !bytes.Equal(m.Raw, raws[i]) {
			t.Errorf("message %d: raw bytes differ:\n%q\nwant\n%q", i, m.Raw, raws[i])
		}
		if m.UIDValidity == 0 || m.UID == 0 || m.Size != int64(len(raws[i])) {
			t.Errorf("message %d: UID %d, UIDVALIDITY %d, size %d", i, m.UID, m.UIDValidity, m.Size)
		}
	}
	for _, m := range messages(t, srv, "INBOX") {
		if slices.Contains(m.Flags, imap.FlagSeen) {
			t.Errorf("uid %d got \\Seen from Fetch", m.UID)
		}
	}
	folders, _ := srv.Folders(testUser)
	if !slices.Contains(folders, "Processed") || !slices.Contains(folders, "Rejected") {
		t.Fatalf("folders %v: Processed and Rejected not created", folders)
	}

	if err := b.MoveProcessed(ctx(t), got[0].UIDValidity, got[0].UID); err != nil {
		t.Fatal(err)
	}
	if err := b.MoveRejected(ctx(t), got[1].UIDValidity, got[1].UID); err != nil {
		t.Fatal(err)
	}
	if err := b.Move(ctx(t), got[2].UIDValidity, got[2].UID, "Archive/1940"); err != nil {
		t.Fatal(err)
	}
	if n := len(messages(t, srv, "INBOX")); n != 0 {
		t.Errorf("INBOX still has %d messages", n)
	}
	for folder, raw := range map[string][]byte{"Processed": raws[0], "Rejected": raws[1], "Archive/1940": raws[2]} {
		ms := messages(t, srv, folder)
		if len(ms) != 1 || !bytes.Equal(ms[0].Raw, raw) {
			t.Errorf("%s holds %d messages, want the one moved there", folder, len(ms))
		}
	}
	if again := fetch(t, b); len(again) != 0 {
		t.Errorf("second Fetch returned %d messages, want none", len(again))
	}
	err := b.MoveProcessed(ctx(t), got[0].UIDValidity, got[0].UID)
	if !errors.Is(err, ErrNoMessage) {
		t.Errorf("moving a message twice: %v, want ErrNoMessage", err)
	}
}

// Case 26: killed after Fetch, before the caller's append: on restart the
// message comes again. Case 25: after the append and before the move: it
// comes again, and once moved it is gone for good.
func TestUnmovedMessageComesBackAfterRestart(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	appendN(t, srv, 1, 2)
	dir := t.TempDir()
	b1 := open(t, testConfig(t, srv, dir))
	first := fetch(t, b1)
	if len(first) != 2 {
		t.Fatalf("got %d messages, want 2", len(first))
	}
	b1.Close() // "crash": nothing moved
	if _, err := b1.Fetch(ctx(t)); !errors.Is(err, ErrClosed) {
		t.Errorf("Fetch on a closed box: %v, want ErrClosed", err)
	}

	b2 := open(t, testConfig(t, srv, dir))
	second := fetch(t, b2)
	if len(second) != 2 || second[0].UID != first[0].UID || second[1].UID != first[1].UID {
		t.Fatalf("after restart got %+v, want the same two messages", second)
	}
	for _, m := range second {
		if err := b2.MoveProcessed(ctx(t), m.UIDValidity, m.UID); err != nil {
			t.Fatal(err)
		}
	}
	b2.Close()
	b3 := open(t, testConfig(t, srv, dir))
	if third := fetch(t, b3); len(third) != 0 {
		t.Fatalf("after moving, a restart still returns %d messages", len(third))
	}
}

// Case 23 with UIDPLUS but no MOVE: copy, then UID EXPUNGE of that UID only;
// a message another client flagged \Deleted survives.
func TestFallbackWithUIDPlusExpungesOnlyThatUID(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{DisableMove: true})
	appendN(t, srv, 1, 1, imap.FlagDeleted) // someone else's, waiting for their EXPUNGE
	raws := appendN(t, srv, 2, 1)
	b := open(t, testConfig(t, srv, t.TempDir()))
	if b.sess.caps.Has(imap.CapMove) || !b.sess.caps.Has(imap.CapUIDPlus) {
		t.Fatalf("server capabilities %v: want UIDPLUS without MOVE", b.sess.caps)
	}
	got := fetch(t, b)
	var mine Message
	for _, m := range got {
		if bytes.Equal(m.Raw, raws[0]) {
			mine = m
		}
	}
	if err := b.MoveProcessed(ctx(t), mine.UIDValidity, mine.UID); err != nil {
		t.Fatal(err)
	}
	inbox := messages(t, srv, "INBOX")
	if len(inbox) != 1 || !slices.Contains(inbox[0].Flags, imap.FlagDeleted) {
		t.Fatalf("INBOX after fallback move: %+v, want only the other client's \\Deleted message", inbox)
	}
	proc := messages(t, srv, "Processed")
	if len(proc) != 1 || !bytes.Equal(proc[0].Raw, raws[0]) {
		t.Fatalf("Processed holds %d messages, want the moved one", len(proc))
	}
}

// Case 23 without MOVE and UIDPLUS: nothing is expunged; the original stays
// flagged and is never fetched again, not even after a restart, a lost
// state file, or a retried Move.
func TestFallbackWithoutUIDPlusLeavesOriginal(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{DisableMove: true, DisableUIDPlus: true})
	appendN(t, srv, 1, 1, imap.FlagDeleted)
	raws := appendN(t, srv, 2, 2)
	dir := t.TempDir()
	b := open(t, testConfig(t, srv, dir))
	if b.sess.caps.Has(imap.CapMove) || b.sess.caps.Has(imap.CapUIDPlus) {
		t.Fatalf("server capabilities %v: want neither MOVE nor UIDPLUS", b.sess.caps)
	}
	got := fetch(t, b)
	if len(got) != 3 {
		t.Fatalf("got %d messages, want 3", len(got))
	}
	target := got[1] // raws[0]
	if err := b.MoveProcessed(ctx(t), target.UIDValidity, target.UID); err != nil {
		t.Fatal(err)
	}
	inbox := messages(t, srv, "INBOX")
	if len(inbox) != 3 {
		t.Fatalf("INBOX has %d messages, want 3 (nothing expunged)", len(inbox))
	}
	if !slices.Contains(inbox[0].Flags, imap.FlagDeleted) {
		t.Errorf("the other client's message lost its \\Deleted flag: %v", inbox[0].Flags)
	}
	if !slices.Contains(inbox[1].Flags, imap.FlagSeen) || !hasFlag(inbox[1].Flags, MovedKeyword) {
		t.Errorf("left-in-place original has flags %v, want \\Seen and %s", inbox[1].Flags, MovedKeyword)
	}
	if proc := messages(t, srv, "Processed"); len(proc) != 1 || !bytes.Equal(proc[0].Raw, raws[0]) {
		t.Fatalf("Processed holds %d messages, want the copied one", len(proc))
	}

	// A retried Move (say after a lost connection) does not copy twice.
	if err := b.MoveProcessed(ctx(t), target.UIDValidity, target.UID); err != nil {
		t.Fatal(err)
	}
	if proc := messages(t, srv, "Processed"); len(proc) != 1 {
		t.Errorf("a repeated Move made %d copies", len(proc))
	}

	uids := func(ms []Message) []uint32 {
		var u []uint32
		for _, m := range ms {
			u = append(u, m.UID)
		}
		return u
	}
	if again := fetch(t, b); slices.Contains(uids(again), target.UID) || len(again) != 2 {
		t.Errorf("Fetch after the fallback returned %v", uids(again))
	}
	b.Close()
	b2 := open(t, testConfig(t, srv, dir))
	if again := fetch(t, b2); slices.Contains(uids(again), target.UID) {
		t.Errorf("after restart the left-in-place message came back")
	}
	b2.Close()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(dir, 0o700)
	b3 := open(t, testConfig(t, srv, dir))
	if again := fetch(t, b3); slices.Contains(uids(again), target.UID) {
		t.Errorf("with the state file lost the left-in-place message came back")
	}
}

// Without keywords the state file alone keeps a left-in-place message out,
// which also covers case 22: "UID n:*" above the highest UID.
func TestLeftInPlaceWithoutKeywordsAndSearchAboveHighest(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{DisableMove: true, DisableUIDPlus: true})
	appendN(t, srv, 1, 1)
	dir := t.TempDir()
	b := open(t, testConfig(t, srv, dir))
	b.sess.keywords = false
	got := fetch(t, b)
	if len(got) != 1 {
		t.Fatalf("got %d messages, want 1", len(got))
	}
	if err := b.MoveProcessed(ctx(t), got[0].UIDValidity, got[0].UID); err != nil {
		t.Fatal(err)
	}
	if b.st.LeftInPlace[0] != got[0].UID {
		t.Fatalf("state %+v does not list the left-in-place UID", b.st)
	}
	if again := fetch(t, b); len(again) != 0 {
		t.Fatalf("left-in-place message fetched again")
	}
	if b.st.LastUID != got[0].UID || len(b.st.LeftInPlace) != 0 {
		t.Fatalf("state %+v: want LastUID %d and the list folded into it", b.st, got[0].UID)
	}

	// The premise of case 22: this server answers "UID n:*" with n above the
	// highest UID with the highest message.
	c, err := imapclient.DialInsecure(srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(testUser, testPass).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	var set imap.UIDSet
	set.AddRange(imap.UID(b.st.LastUID+1), 0)
	data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if uids := data.AllUIDs(); len(uids) != 1 || uint32(uids[0]) != got[0].UID {
		t.Fatalf("server answered %v to UID %d:*; the case-22 premise does not hold", uids, b.st.LastUID+1)
	}
	b.Close()
	b2 := open(t, testConfig(t, srv, dir))
	b2.sess.keywords = false
	if again := fetch(t, b2); len(again) != 0 {
		t.Fatalf("after restart, UID n:* brought back the highest message")
	}
	appendN(t, srv, 2, 1)
	if again := fetch(t, b2); len(again) != 1 || again[0].UID <= got[0].UID {
		t.Fatalf("a new message after the left-in-place one: got %+v", again)
	}
}

func TestMissingFolderCreatedOrSourceSurvives(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{RefuseCreate: []string{"Forbidden"}})
	raws := appendN(t, srv, 1, 1)
	b := open(t, testConfig(t, srv, t.TempDir()))
	got := fetch(t, b)
	err := b.Move(ctx(t), got[0].UIDValidity, got[0].UID, "Forbidden")
	if err == nil {
		t.Fatal("Move into a folder that cannot be created succeeded")
	}
	inbox := messages(t, srv, "INBOX")
	if len(inbox) != 1 || !bytes.Equal(inbox[0].Raw, raws[0]) {
		t.Fatalf("source message did not survive a failed move: INBOX %+v", inbox)
	}
	if err := b.Move(ctx(t), got[0].UIDValidity, got[0].UID, "Later"); err != nil {
		t.Fatal(err)
	}
	if m := messages(t, srv, "Later"); len(m) != 1 {
		t.Fatalf("missing folder not created and filled: %d messages", len(m))
	}
}

func TestMissingFolderWithoutMoveSourceSurvives(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{DisableMove: true, DisableUIDPlus: true, RefuseCreate: []string{"Forbidden"}})
	appendN(t, srv, 1, 1)
	b := open(t, testConfig(t, srv, t.TempDir()))
	got := fetch(t, b)
	if err := b.Move(ctx(t), got[0].UIDValidity, got[0].UID, "Forbidden"); err == nil {
		t.Fatal("Move into a folder that cannot be created succeeded")
	}
	inbox := messages(t, srv, "INBOX")
	if len(inbox) != 1 || hasFlag(inbox[0].Flags, MovedKeyword) {
		t.Fatalf("source after a failed fallback move: %+v", inbox)
	}
	if again := fetch(t, b); len(again) != 1 {
		t.Fatalf("message not fetched again after a failed move")
	}
}

// Case 21: a new UIDVALIDITY. Messages already moved stay gone, copies left
// in place stay skipped, the one not yet dealt with is a candidate again,
// and a Move under the old UIDVALIDITY is refused.
func TestUIDValidityChange(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{DisableMove: true, DisableUIDPlus: true})
	raws := appendN(t, srv, 1, 3)
	dir := t.TempDir()
	b := open(t, testConfig(t, srv, dir))
	got := fetch(t, b)
	if len(got) != 3 {
		t.Fatalf("got %d, want 3", len(got))
	}
	if err := b.MoveProcessed(ctx(t), got[0].UIDValidity, got[0].UID); err != nil {
		t.Fatal(err)
	}
	if err := b.MoveProcessed(ctx(t), got[1].UIDValidity, got[1].UID); err != nil {
		t.Fatal(err)
	}
	old := got[0].UIDValidity
	if err := srv.ResetUIDValidity(testUser, "INBOX"); err != nil {
		t.Fatal(err)
	}
	now, _ := srv.UIDValidity(testUser, "INBOX")
	if now == old {
		t.Fatalf("UIDVALIDITY did not change")
	}
	after := fetch(t, b) // the old connection was dropped: this reconnects
	if len(after) != 1 || !bytes.Equal(after[0].Raw, raws[2]) || after[0].UIDValidity != now {
		t.Fatalf("after the UIDVALIDITY change got %d messages, want only the unprocessed one under %d", len(after), now)
	}
	if b.st.UIDValidity != now {
		t.Errorf("state keeps UIDVALIDITY %d, want %d", b.st.UIDValidity, now)
	}
	err := b.MoveProcessed(ctx(t), old, got[2].UID)
	if !errors.Is(err, ErrUIDValidityChanged) {
		t.Errorf("Move under the old UIDVALIDITY: %v, want ErrUIDValidityChanged", err)
	}
	b.Close()
	b2 := open(t, testConfig(t, srv, dir))
	if again := fetch(t, b2); len(again) != 1 {
		t.Fatalf("after restart got %d messages, want the one unprocessed", len(again))
	}
}

// Case 24: the connection dies in the middle of a FETCH response; the box
// reconnects and returns every message intact.
func TestReconnectAfterDropMidFetch(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	var raws [][]byte
	for i := range 20 {
		raw := msg(i, strings.Repeat("a fairly long order line for the cut\r\n", 30))
		if _, err := srv.Append(testUser, "INBOX", raw); err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
	}
	cfg := testConfig(t, srv, t.TempDir())
	var retries atomic.Int32
	cfg.Sleep = func(ctx context.Context, d time.Duration) error {
		retries.Add(1)
		return netutil.Sleep(ctx, d)
	}
	b := open(t, cfg)
	if n := srv.CutConnectionsAfter(5000); n != 1 {
		t.Fatalf("%d connections armed, want the box's one", n)
	}
	got := fetch(t, b)
	if retries.Load() == 0 {
		t.Fatal("no reconnection happened: the cut did not hit the FETCH")
	}
	if len(got) != len(raws) {
		t.Fatalf("got %d messages after reconnect, want %d", len(got), len(raws))
	}
	for i := range got {
		if !bytes.Equal(got[i].Raw, raws[i]) {
			t.Errorf("message %d damaged by the reconnect", i)
		}
	}
}

// Case 24 during IDLE: the connection drops, the box reconnects, and mail
// that arrived meanwhile is not missed.
func TestWaitSurvivesDropDuringIdle(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	b := open(t, testConfig(t, srv, t.TempDir()))
	done := make(chan error, 1)
	go func() { done <- b.Wait(ctx(t)) }()
	waitFor(t, func() bool { return idling(b) })
	srv.DropConnections()
	appendN(t, srv, 1, 1)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not return after drop and new mail")
	}
	if got := fetch(t, b); len(got) != 1 {
		t.Fatalf("got %d messages, want 1", len(got))
	}
}

// idling reports whether the box's Wait holds the lock (it is in IDLE or
// about to be).
func idling(b *Box) bool {
	if b.mu.TryLock() {
		b.mu.Unlock()
		return false
	}
	return true
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // let IDLE reach the server
}

func TestWaitIdleWakesOnNewMailAndCancels(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	b := open(t, testConfig(t, srv, t.TempDir()))
	done := make(chan error, 1)
	go func() { done <- b.Wait(ctx(t)) }()
	waitFor(t, func() bool { return idling(b) })
	appendN(t, srv, 1, 1)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not wake on new mail")
	}
	// With mail waiting, Wait returns at once.
	if err := b.Wait(ctx(t)); err != nil {
		t.Fatal(err)
	}
	got := fetch(t, b)
	if err := b.MoveProcessed(ctx(t), got[0].UIDValidity, got[0].UID); err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithCancel(context.Background())
	go func() { done <- b.Wait(c) }()
	waitFor(t, func() bool { return idling(b) })
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled Wait returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelled Wait did not return")
	}
	if got := fetch(t, b); len(got) != 0 {
		t.Fatalf("connection unusable after a cancelled Wait: %d messages", len(got))
	}
}

func TestWaitIdleWatchdogReissuesIdle(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	cfg := testConfig(t, srv, t.TempDir())
	cfg.IdleRestart = 50 * time.Millisecond
	logs := &countingHandler{}
	cfg.Logger = slog.New(logs)
	b := open(t, cfg)
	done := make(chan error, 1)
	go func() { done <- b.Wait(ctx(t)) }()
	time.Sleep(400 * time.Millisecond) // several watchdog rounds
	select {
	case err := <-done:
		t.Fatalf("Wait returned %v with no mail", err)
	default:
	}
	if n := logs.count("ending IDLE"); n < 3 {
		t.Errorf("IDLE ended %d times in 400ms with a 50ms watchdog, want at least 3", n)
	}
	if n := logs.count("connection lost"); n != 0 {
		t.Errorf("the watchdog rounds cost %d reconnections", n)
	}
	appendN(t, srv, 1, 1)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not wake after watchdog rounds")
	}
}

func TestWaitPolls(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	cfg := testConfig(t, srv, t.TempDir())
	cfg.NoIdle = true
	cfg.PollInterval = 20 * time.Millisecond
	b := open(t, cfg)
	done := make(chan error, 1)
	go func() { done <- b.Wait(ctx(t)) }()
	time.Sleep(100 * time.Millisecond)
	appendN(t, srv, 1, 1)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("polling Wait did not see new mail")
	}
}

// A server that greets and then says nothing more: the read deadline ends
// the attempt instead of hanging, and the bounded retries give up.
func TestSilentServerDoesNotHang(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("* OK [CAPABILITY IMAP4rev1] silent\r\n"))
			t.Cleanup(func() { c.Close() })
		}
	}()
	cfg := Config{
		Addr: ln.Addr().String(), Username: testUser, Password: testPass, TLS: TLSNone,
		StateDir: t.TempDir(), CommandTimeout: 100 * time.Millisecond,
		BackoffInitial: time.Millisecond, BackoffMax: time.Millisecond, MaxAttempts: 2,
	}
	start := time.Now()
	_, err = Open(ctx(t), cfg)
	if err == nil || !strings.Contains(err.Error(), "giving up after 2 attempts") {
		t.Fatalf("Open against a silent server: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v to give up", d)
	}
}

func TestReconnectWaitsForServerAndHonoursContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: every dial fails
	cfg := Config{Addr: addr, Username: testUser, Password: testPass, TLS: TLSNone, StateDir: t.TempDir(),
		BackoffInitial: time.Millisecond, BackoffMax: 4 * time.Millisecond}
	var slept []time.Duration
	c, cancel := context.WithCancel(context.Background())
	cfg.Sleep = func(ctx context.Context, d time.Duration) error {
		slept = append(slept, d)
		if len(slept) == 6 {
			cancel()
		}
		return ctx.Err()
	}
	_, err = Open(c, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Open with the server down and the context cancelled: %v", err)
	}
	if len(slept) != 6 {
		t.Fatalf("slept %d times, want 6", len(slept))
	}
	for i, d := range slept {
		if d > 4*time.Millisecond {
			t.Errorf("delay %d is %v, above the cap", i, d)
		}
	}
}

func TestBackoffDelay(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var prevCap time.Duration
	for attempt := 1; attempt <= 12; attempt++ {
		want := min(time.Second<<(attempt-1), time.Minute)
		d := netutil.Backoff(attempt, time.Second, time.Minute, r.Float64)
		if d < want/2 || d > want {
			t.Errorf("attempt %d: delay %v outside [%v, %v]", attempt, d, want/2, want)
		}
		if want < prevCap {
			t.Errorf("cap shrank")
		}
		prevCap = want
	}
	// The same source gives the same delays.
	a := netutil.Backoff(3, time.Second, time.Minute, rand.New(rand.NewPCG(1, 1)).Float64)
	b := netutil.Backoff(3, time.Second, time.Minute, rand.New(rand.NewPCG(1, 1)).Float64)
	if a != b {
		t.Errorf("jitter not reproducible from its source: %v vs %v", a, b)
	}
	if lo := netutil.Backoff(5, time.Second, 3*time.Second, func() float64 { return 0 }); lo != 1500*time.Millisecond {
		t.Errorf("zero jitter: %v, want half the cap", lo)
	}
}

func TestTooLargeMessageNotDownloaded(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	big := msg(1, strings.Repeat("x", 2000))
	srv.Append(testUser, "INBOX", big)
	small := appendN(t, srv, 2, 1)
	cfg := testConfig(t, srv, t.TempDir())
	cfg.MaxMessageSize = 1000
	b := open(t, cfg)
	got := fetch(t, b)
	if len(got) != 2 {
		t.Fatalf("got %d messages, want 2", len(got))
	}
	if !got[0].TooLarge || got[0].Raw != nil || got[0].Size != int64(len(big)) {
		t.Errorf("big message: TooLarge %v, %d raw bytes, size %d", got[0].TooLarge, len(got[0].Raw), got[0].Size)
	}
	if got[1].TooLarge || !bytes.Equal(got[1].Raw, small[0]) {
		t.Errorf("small message not downloaded whole")
	}
}

func TestMaxFetchBatches(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	appendN(t, srv, 1, 5)
	cfg := testConfig(t, srv, t.TempDir())
	cfg.MaxFetch = 2
	b := open(t, cfg)
	seen := 0
	for range 5 {
		got := fetch(t, b)
		if len(got) == 0 {
			break
		}
		if len(got) > 2 {
			t.Fatalf("Fetch returned %d, above MaxFetch", len(got))
		}
		for _, m := range got {
			if err := b.MoveProcessed(ctx(t), m.UIDValidity, m.UID); err != nil {
				t.Fatal(err)
			}
			seen++
		}
	}
	if seen != 5 {
		t.Fatalf("processed %d messages in batches, want 5", seen)
	}
}

func TestTLSAndStartTLS(t *testing.T) {
	serverTLS, clientTLS, err := loopback.SelfSignedTLS()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{TLSStartTLS, TLSImplicit} {
		t.Run(mode, func(t *testing.T) {
			srv := startServer(t, loopback.IMAPOptions{TLSConfig: serverTLS, ImplicitTLS: mode == TLSImplicit})
			raws := appendN(t, srv, 1, 1)
			cfg := testConfig(t, srv, t.TempDir())
			cfg.TLS = mode
			cfg.TLSConfig = clientTLS
			b := open(t, cfg)
			got := fetch(t, b)
			if len(got) != 1 || !bytes.Equal(got[0].Raw, raws[0]) {
				t.Fatalf("over %s got %d messages", mode, len(got))
			}
			// An untrusted certificate fails at once, without retrying.
			cfg.TLSConfig = nil
			cfg.MaxAttempts = 0
			var retries int
			cfg.Sleep = func(context.Context, time.Duration) error { retries++; return nil }
			if _, err := Open(ctx(t), cfg); err == nil || retries != 0 {
				t.Fatalf("untrusted certificate: err %v after %d retries", err, retries)
			}
		})
	}
}

func TestConfigChecks(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]Config{
		"no addr":         {StateDir: dir},
		"no state dir":    {Addr: "127.0.0.1:143"},
		"bad tls":         {Addr: "127.0.0.1:143", StateDir: dir, TLS: "maybe"},
		"plain password":  {Addr: "192.0.2.1:143", StateDir: dir, TLS: TLSNone, Password: "x"},
		"plain localhost": {Addr: "localhost:143", StateDir: dir, TLS: TLSNone, Password: "x"},
	}
	for name, cfg := range cases {
		_, err := cfg.withDefaults()
		if name == "plain localhost" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), "imapbox: ") {
			t.Errorf("%s: error %v", name, err)
		}
	}
}

func TestStateFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	st, err := loadState(path)
	if err != nil || st.LastUID != 0 {
		t.Fatalf("missing file: %+v %v", st, err)
	}
	want := state{UIDValidity: 9, LastUID: 41, LeftInPlace: []uint32{50, 43, 43}}
	if err := saveState(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := loadState(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.UIDValidity != 9 || got.LastUID != 41 || !slices.Equal(got.LeftInPlace, []uint32{43, 50}) {
		t.Fatalf("round trip gave %+v", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	os.WriteFile(path, []byte(`{"version":1,"last_uid":`), 0o600)
	if _, err := loadState(path); err == nil {
		t.Fatal("a damaged state file loaded")
	}
}

// freezer is a TCP proxy in front of a server whose existing connections
// can be made silent (everything read is dropped, nothing forwarded) while
// new connections still work: a half-dead link, as after a NAT timeout.
type freezer struct {
	ln       net.Listener
	upstream string
	frozen   []*atomic.Bool
	mu       chan struct{} // a one-slot lock
}

func newFreezer(t *testing.T, upstream string) *freezer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{ln: ln, upstream: upstream, mu: make(chan struct{}, 1)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			down, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", upstream)
			if err != nil {
				down.Close()
				continue
			}
			t.Cleanup(func() { down.Close(); up.Close() })
			flag := new(atomic.Bool)
			f.mu <- struct{}{}
			f.frozen = append(f.frozen, flag)
			<-f.mu
			pump := func(dst, src net.Conn) {
				buf := make([]byte, 32<<10)
				for {
					n, err := src.Read(buf)
					if n > 0 && !flag.Load() {
						dst.Write(buf[:n])
					}
					if err != nil {
						dst.Close()
						return
					}
				}
			}
			go pump(up, down)
			go pump(down, up)
		}
	}()
	return f
}

func (f *freezer) addr() string { return f.ln.Addr().String() }

// freeze silences every connection open now.
func (f *freezer) freeze() {
	f.mu <- struct{}{}
	for _, fl := range f.frozen {
		fl.Store(true)
	}
	<-f.mu
}

// A connection that goes silent during IDLE: the watchdog ends IDLE, the
// answer never comes, the read deadline declares the connection dead, and
// the box reconnects and finds the mail that arrived meanwhile.
func TestWaitSurvivesSilentConnectionDuringIdle(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	fz := newFreezer(t, srv.Addr())
	cfg := testConfig(t, srv, t.TempDir())
	cfg.Addr = fz.addr()
	cfg.IdleRestart = 100 * time.Millisecond
	cfg.CommandTimeout = 300 * time.Millisecond
	var retries atomic.Int32
	cfg.Sleep = func(ctx context.Context, d time.Duration) error {
		retries.Add(1)
		return netutil.Sleep(ctx, d)
	}
	b := open(t, cfg)
	done := make(chan error, 1)
	go func() { done <- b.Wait(ctx(t)) }()
	waitFor(t, func() bool { return idling(b) })
	fz.freeze()
	appendN(t, srv, 1, 1) // its EXISTS is swallowed by the frozen link
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Wait hung on a silent connection")
	}
	if retries.Load() == 0 {
		t.Error("no reconnection: the silent connection was not detected")
	}
	if got := fetch(t, b); len(got) != 1 {
		t.Fatalf("got %d messages after the reconnect, want 1", len(got))
	}
}

// Case 24 for Move: the connection is cut after every possible number of
// bytes of the server's answers. Each Move still succeeds and the message
// ends up moved: exactly once with MOVE; with the fallbacks a cut between
// COPY and the flags may leave a second copy (documented), never none, and
// a message left in place is not fetched again.
func TestMoveSurvivesCutAnywhere(t *testing.T) {
	for _, tc := range []struct {
		name      string
		opts      loopback.IMAPOptions
		maxCopies int
	}{
		{"move", loopback.IMAPOptions{}, 1},
		{"uidplus", loopback.IMAPOptions{DisableMove: true}, 2},
		{"neither", loopback.IMAPOptions{DisableMove: true, DisableUIDPlus: true}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := &countingHandler{}
			for n := int64(0); n < 400; n += 23 {
				srv := startServer(t, tc.opts)
				raws := appendN(t, srv, 1, 1)
				cfg := testConfig(t, srv, t.TempDir())
				cfg.Logger = slog.New(logs)
				b := open(t, cfg)
				got := fetch(t, b)
				srv.CutConnectionsAfter(n)
				if err := b.MoveProcessed(ctx(t), got[0].UIDValidity, got[0].UID); err != nil {
					t.Fatalf("cut after %d bytes: %v", n, err)
				}
				if tc.name == "neither" {
					if again := fetch(t, b); len(again) != 0 {
						t.Fatalf("cut after %d bytes: the left-in-place message is fetched again", n)
					}
				} else if in := messages(t, srv, "INBOX"); len(in) != 0 {
					t.Fatalf("cut after %d bytes: message still in INBOX", n)
				}
				proc := messages(t, srv, "Processed")
				if len(proc) < 1 || len(proc) > tc.maxCopies || !bytes.Equal(proc[0].Raw, raws[0]) {
					t.Fatalf("cut after %d bytes: %d copies in Processed", n, len(proc))
				}
				b.Close()
				srv.Close()
			}
			if logs.count("connection lost") == 0 || (tc.name != "neither" && logs.count("interrupted move") == 0) {
				t.Errorf("the cuts missed the window: %d reconnections, %d interrupted moves",
					logs.count("connection lost"), logs.count("interrupted move"))
			}
		})
	}
}

// countingHandler is a slog.Handler that counts messages by content.
type countingHandler struct {
	mu   sync.Mutex
	msgs []string
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *countingHandler) WithGroup(string) slog.Handler            { return h }
func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	h.msgs = append(h.msgs, r.Message)
	h.mu.Unlock()
	return nil
}

func (h *countingHandler) count(sub string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, m := range h.msgs {
		if strings.Contains(m, sub) {
			n++
		}
	}
	return n
}

// Fetch reports each message's INTERNALDATE, the time the server says it
// received it (an APPEND with a date sets it), in UTC: it decides whether
// orders came before a deadline, whenever they are read.
func TestFetchReportsWhenTheServerReceivedIt(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	at := time.Date(2026, 4, 9, 4, 15, 0, 0, time.FixedZone("CEST", 2*60*60))
	if _, err := srv.AppendAt(testUser, "INBOX", msg(1, "advance 2"), at); err != nil {
		t.Fatal(err)
	}
	b := open(t, testConfig(t, srv, t.TempDir()))
	got := fetch(t, b)
	if len(got) != 1 || !got[0].Received.Equal(at) || got[0].Received.Location() != time.UTC {
		t.Fatalf("fetched %+v; want one message received %s, in UTC", got, at.UTC())
	}
}
