package imapbox

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// TestRealServer runs Fetch, Move and Wait against a real IMAP server named
// by SKAGERRAK_TEST_IMAP=host:port,user,password[,tls] (see the package
// documentation). It works in scratch folders it deletes afterwards.
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
	var nonce [4]byte
	rand.Read(nonce[:])
	scratch := "skagerrak-test-" + hex.EncodeToString(nonce[:])
	cfg := Config{
		Addr: parts[0], Username: parts[1], Password: parts[2], TLS: mode,
		Mailbox: scratch, Processed: scratch + "-processed", Rejected: scratch + "-rejected",
		StateDir: t.TempDir(), CommandTimeout: 30 * time.Second, MaxAttempts: 3,
		BackoffInitial: 100 * time.Millisecond,
	}
	cfg, err := cfg.withDefaults()
	if err != nil {
		t.Fatal(err)
	}

	// A side connection to create, fill and clean up the scratch folders.
	var c *imapclient.Client
	switch mode {
	case TLSImplicit:
		c, err = imapclient.DialTLS(cfg.Addr, nil)
	case TLSStartTLS:
		c, err = imapclient.DialStartTLS(cfg.Addr, nil)
	default:
		c, err = imapclient.DialInsecure(cfg.Addr, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(cfg.Username, cfg.Password).Wait(); err != nil {
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
	put := func(raw []byte) {
		t.Helper()
		cmd := c.Append(scratch, int64(len(raw)), nil)
		cmd.Write(raw)
		cmd.Close()
		if _, err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	raw := msg(1, "real server test")
	put(raw)

	b := open(t, cfg)
	got := fetch(t, b)
	if len(got) != 1 || !bytes.Equal(got[0].Raw, raw) {
		t.Fatalf("got %d messages from the real server", len(got))
	}
	if err := b.MoveProcessed(ctx(t), got[0].UIDValidity, got[0].UID); err != nil {
		t.Fatal(err)
	}
	st, err := c.Status(cfg.Processed, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if st.NumMessages == nil || *st.NumMessages != 1 {
		t.Fatalf("%s does not hold the moved message", cfg.Processed)
	}
	if again := fetch(t, b); len(again) != 0 {
		t.Fatalf("moved message fetched again")
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
	if got := fetch(t, b); len(got) != 1 {
		t.Fatalf("got %d messages after Wait, want 1", len(got))
	}
}
