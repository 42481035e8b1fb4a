package imapbox

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// TestRealServer runs Fetch, Move and Wait against a real IMAP server named
// by SKAGERRAK_TEST_IMAP=host:port,user,password[,tls] (see the package
// documentation): once with what the server offers, once ignoring its MOVE,
// once ignoring MOVE and UIDPLUS. It works in scratch folders it deletes
// afterwards, next to a message flagged \Deleted that must survive.
func TestRealServer(t *testing.T) {
	spec := os.Getenv("SKAGERRAK_TEST_IMAP")
	if spec == "" {
		t.Skip("SKAGERRAK_TEST_IMAP not set")
	}
	parts := strings.Split(spec, ",")
	if len(parts) < 3 {
		t.Fatalf("SKAGERRAK_TEST_IMAP=%q: want host:port,user,password[,tls]", spec)
	}
	mode := TLSImplicit
	if len(parts) > 3 {
		mode = parts[3]
	}
	for _, variant := range []struct {
		name   string
		ignore []imap.Cap
	}{
		{"as offered", nil},
		{"without MOVE", []imap.Cap{imap.CapMove}},
		{"without MOVE and UIDPLUS", []imap.Cap{imap.CapMove, imap.CapUIDPlus}},
	} {
		t.Run(variant.name, func(t *testing.T) {
			realServerRound(t, parts[0], parts[1], parts[2], mode, variant.ignore)
		})
	}
}

func realServerRound(t *testing.T, addr, user, pass, mode string, ignore []imap.Cap) {
	var nonce [4]byte
	rand.Read(nonce[:])
	scratch := "skagerrak-test-" + hex.EncodeToString(nonce[:])
	cfg := Config{
		Addr: addr, Username: user, Password: pass, TLS: mode,
		Mailbox: scratch, Processed: scratch + "-processed", Rejected: scratch + "-rejected",
		StateDir: t.TempDir(), CommandTimeout: 30 * time.Second, MaxAttempts: 3,
		BackoffInitial: 100 * time.Millisecond,
	}

	// A side connection to create, fill, inspect and clean up the folders.
	var c *imapclient.Client
	var err error
	switch mode {
	case TLSImplicit:
		c, err = imapclient.DialTLS(addr, nil)
	case TLSStartTLS:
		c, err = imapclient.DialStartTLS(addr, nil)
	default:
		c, err = imapclient.DialInsecure(addr, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(scratch, nil).Wait(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, f := range []string{scratch, cfg.Processed, cfg.Rejected} {
			c.Delete(f).Wait()
		}
	})
	put := func(raw []byte, flags ...imap.Flag) {
		t.Helper()
		cmd := c.Append(scratch, int64(len(raw)), &imap.AppendOptions{Flags: flags})
		cmd.Write(raw)
		cmd.Close()
		if _, err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	count := func(folder string) uint32 {
		t.Helper()
		st, err := c.Status(folder, &imap.StatusOptions{NumMessages: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		return *st.NumMessages
	}
	other := msg(0, "another client's, flagged deleted")
	put(other, imap.FlagDeleted)
	raw := msg(1, "real server test")
	put(raw)

	cfg, err = cfg.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	b, err := openIgnoring(t, cfg, ignore)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got := fetch(t, b)
	var mine, theirs *Message
	for i := range got {
		switch {
		case bytes.Equal(got[i].Raw, raw):
			mine = &got[i]
		case bytes.Equal(got[i].Raw, other):
			theirs = &got[i]
		}
	}
	if mine == nil || theirs == nil || len(got) != 2 {
		t.Fatalf("got %d messages from the real server, want 2 with ours", len(got))
	}
	if err := b.MoveProcessed(ctx(t), mine.UIDValidity, mine.UID); err != nil {
		t.Fatal(err)
	}
	if n := count(cfg.Processed); n != 1 {
		t.Fatalf("%s holds %d messages, want 1", cfg.Processed, n)
	}
	wantLeft := uint32(1)
	if slices.Contains(ignore, imap.CapUIDPlus) {
		wantLeft = 2 // the original stays, flagged
	}
	if n := count(scratch); n != wantLeft {
		t.Fatalf("%s holds %d messages, want %d (the \\Deleted one must survive)", scratch, n, wantLeft)
	}
	for _, m := range fetch(t, b) {
		if m.UID == mine.UID {
			t.Fatal("moved message fetched again")
		}
	}
	// Out of the way, so that Wait has nothing pending.
	if err := b.MoveRejected(ctx(t), theirs.UIDValidity, theirs.UID); err != nil {
		t.Fatal(err)
	}
	if left := fetch(t, b); len(left) != 0 {
		t.Fatalf("%d messages still pending", len(left))
	}

	done := make(chan error, 1)
	go func() { done <- b.Wait(ctx(t)) }()
	time.Sleep(500 * time.Millisecond)
	put(msg(2, "arrives during IDLE"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Wait did not see the new message")
	}
	found := false
	for _, m := range fetch(t, b) {
		found = found || strings.Contains(string(m.Raw), "arrives during IDLE")
	}
	if !found {
		t.Fatal("the message that woke Wait was not fetched")
	}
}

// openIgnoring opens a Box that treats the capabilities in ignore as absent.
func openIgnoring(t *testing.T, cfg Config, ignore []imap.Cap) (*Box, error) {
	t.Helper()
	b := &Box{
		cfg:        cfg,
		log:        cfg.Logger,
		statePath:  cfg.StateDir + "/" + stateFileName(cfg.Addr, cfg.Username, cfg.Mailbox),
		rnd:        func() float64 { return 0.5 },
		ignoreCaps: ignore,
	}
	st, err := loadState(b.statePath)
	if err != nil {
		return nil, err
	}
	b.st = st
	b.mu.Lock()
	defer b.mu.Unlock()
	return b, b.run(ctx(t), "open", func(*session) error { return nil })
}
