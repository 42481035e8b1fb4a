package imapbox

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"skagerrak/mail/loopback"
)

// With no folder names configured, the box makes them from the server's
// hierarchy delimiter (go-imap's in-memory server uses "/"; Dovecot with
// Maildir++ uses ".", which the interop suite meets).
func TestDefaultFoldersFollowTheDelimiter(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	cfg := testConfig(t, srv, t.TempDir())
	cfg.Processed, cfg.Rejected = "", ""
	b := open(t, cfg)
	if b.Processed() != "skagerrak/processed" || b.Rejected() != "skagerrak/rejected" {
		t.Fatalf("folders %q, %q; want skagerrak/processed, skagerrak/rejected", b.Processed(), b.Rejected())
	}
	folders, _ := srv.Folders(testUser)
	if !slices.Contains(folders, "skagerrak/processed") || !slices.Contains(folders, "skagerrak/rejected") {
		t.Fatalf("folders on the server %v", folders)
	}
	appendN(t, srv, 1, 1)
	got := fetch(t, b)
	if err := b.MoveRejected(ctx(t), got[0].UIDValidity, got[0].UID); err != nil {
		t.Fatal(err)
	}
	if n := len(messages(t, srv, "skagerrak/rejected")); n != 1 {
		t.Fatalf("rejected folder holds %d messages, want 1", n)
	}
}

func TestDefaultFolderNames(t *testing.T) {
	for _, c := range []struct {
		prefix string
		delim  rune
		want   string
	}{
		{"", '/', "skagerrak/processed"},
		{"", '.', "skagerrak.processed"},
		{"INBOX.", '.', "INBOX.skagerrak.processed"},
		{"", 0, "skagerrak-processed"},
	} {
		if got := DefaultFolder(c.prefix, c.delim, RoleProcessed); got != c.want {
			t.Errorf("DefaultFolder(%q, %q) = %q, want %q", c.prefix, c.delim, got, c.want)
		}
	}
}

// A folder the server refuses to create fails Open at once (no retry, no
// loop), with a *FolderError naming the role, the folder, the server's
// answer and its delimiter.
func TestFolderThatCannotBeMadeFailsOpen(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{RefuseCreate: []string{"Forbidden"}})
	cfg := testConfig(t, srv, t.TempDir())
	cfg.Rejected = "Forbidden"
	attempts := 0
	cfg.Sleep = func(ctx context.Context, d time.Duration) error { attempts++; return nil }
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := Open(c, cfg)
	if err == nil {
		b.Close()
		t.Fatal("Open succeeded with a folder the server refuses")
	}
	var fe *FolderError
	if !errors.As(err, &fe) || fe.Role != RoleRejected || fe.Folder != "Forbidden" || fe.Delim != '/' {
		t.Fatalf("error %v (%#v), want a FolderError for the rejected folder", err, fe)
	}
	for _, want := range []string{"rejected folder", `"Forbidden"`, "Folder creation refused", `delimiter is "/"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if attempts != 0 {
		t.Errorf("Open retried %d times; a refused folder is final", attempts)
	}
}

func TestMissingMailboxFailsOpen(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	cfg := testConfig(t, srv, t.TempDir())
	cfg.Mailbox = "Nowhere"
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Open(c, cfg)
	var fe *FolderError
	if !errors.As(err, &fe) || fe.Role != RoleMailbox || fe.Folder != "Nowhere" {
		t.Fatalf("error %v, want a FolderError for the mailbox", err)
	}
}

// An operation that keeps failing to connect until its context ends says
// why it gave up: the context's end and the last failure.
func TestGivingUpSaysWhy(t *testing.T) {
	srv := startServer(t, loopback.IMAPOptions{})
	cfg := testConfig(t, srv, t.TempDir())
	srv.Close()
	cfg.MaxAttempts = 0
	c, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := Open(c, cfg)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "the last failed with") {
		t.Fatalf("error %v, want the deadline and the last failure", err)
	}
}

func TestOnlyNULsDiffer(t *testing.T) {
	body := []byte("a\x80b\x80c")
	for _, c := range []struct {
		bin  string
		want bool
	}{
		{"a\x00b\x80c", true},
		{"a\x00b\x00c", true},
		{"a\x80b\x80c", true},
		{"a\x00b\x00", false},
		{"b\x00b\x00c", false},
		{"a\x01b\x80c", false},
	} {
		if got := onlyNULsDiffer(body, []byte(c.bin)); got != c.want {
			t.Errorf("onlyNULsDiffer(%q, %q) = %v, want %v", body, c.bin, got, c.want)
		}
	}
}
