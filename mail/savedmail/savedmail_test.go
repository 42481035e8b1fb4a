package savedmail

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func raws(ms []Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m.Raw)
	}
	return out
}

const (
	msgA = "From: host@example.org\r\nSubject: a\r\n\r\nbody a\r\n"
	msgB = "From: host@example.org\r\nSubject: b\r\n\r\nbody b\r\n"
)

func TestEMLFileIsOneMessageByteForByte(t *testing.T) {
	p := filepath.Join(t.TempDir(), "report.eml")
	write(t, p, msgA)
	ms, skipped, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || string(ms[0].Raw) != msgA || ms[0].Where != p || skipped != 0 {
		t.Fatalf("got %q (%d skipped)", raws(ms), skipped)
	}
}

// An mbox as mboxo and mboxrd writers leave it: "From " separator lines,
// an empty line after each message, body lines starting "From " quoted
// with ">" (and, mboxrd, quoted ones quoted again).
func TestMboxSplitsAndUnquotes(t *testing.T) {
	box := "From host@example.org Mon Apr  8 06:00:00 2026\n" +
		"From: host@example.org\nSubject: a\n\n>From here on\n>>From there\nFrom the middle of a paragraph\n\n" +
		"From host@example.org Mon Apr  8 07:00:00 2026\n" +
		"From: host@example.org\nSubject: b\n\nbody b\n\n"
	p := filepath.Join(t.TempDir(), "saved")
	write(t, p, box)
	ms, _, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// "From the middle" follows a non-empty line: a body line, kept.
		"From: host@example.org\nSubject: a\n\nFrom here on\n>From there\nFrom the middle of a paragraph\n",
		"From: host@example.org\nSubject: b\n\nbody b\n",
	}
	if got := raws(ms); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if ms[1].Where != p+", message 2 (line 9)" {
		t.Errorf("the second message is named %q", ms[1].Where)
	}
}

func TestMboxWithCRLFLineEnds(t *testing.T) {
	box := "From x Mon Apr  8 06:00:00 2026\r\n" + msgA + "\r\n" + "From x Mon Apr  8 07:00:00 2026\r\n" + msgB
	p := filepath.Join(t.TempDir(), "crlf.mbox")
	write(t, p, box)
	ms, _, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := raws(ms); len(got) != 2 || got[0] != msgA || got[1] != msgB {
		t.Fatalf("got %q", got)
	}
}

// A Maildir: cur/ (with flags in the names) and new/ are mail, tmp/ is
// mail still being delivered, and Maildir++ folders (.Name/) are read too.
func TestMaildirReadsCurNewAndSubfolders(t *testing.T) {
	d := t.TempDir()
	write(t, filepath.Join(d, "cur", "1712556000.M1P2.host:2,S"), msgA)
	write(t, filepath.Join(d, "new", "1712556001.M2P2.host"), msgB)
	write(t, filepath.Join(d, "tmp", "1712556002.M3P2.host"), "half delivered")
	write(t, filepath.Join(d, ".skagerrak", "cur", "1712556003.M4P2.host:2,"), msgB)
	write(t, filepath.Join(d, "dovecot.index.log"), "not mail")
	ms, _, err := Read(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := raws(ms); len(got) != 3 || got[0] != msgA || got[1] != msgB || got[2] != msgB {
		t.Fatalf("got %q", got)
	}
}

// A plain folder, as the demo keeps each player's mail: the .eml files
// are mail, the text, map and JSON copies beside them are not; mboxes and
// Maildirs inside are read.
func TestPlainFolderReadsMailAndSkipsTheRest(t *testing.T) {
	d := t.TempDir()
	write(t, filepath.Join(d, "001.eml"), msgA)
	write(t, filepath.Join(d, "001.txt"), "the report's text")
	write(t, filepath.Join(d, "001-report.json"), "{}")
	write(t, filepath.Join(d, "001-map.png"), "\x89PNG")
	write(t, filepath.Join(d, "old", "archive"), "From x Mon Apr  8 06:00:00 2026\n"+strings.ReplaceAll(msgB, "\r\n", "\n"))
	write(t, filepath.Join(d, "Mail", "cur", "1:2,S"), msgB)
	ms, skipped, err := Read(d)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 3 || skipped != 3 {
		t.Fatalf("got %d messages, %d skipped: %q", len(ms), skipped, raws(ms))
	}
}

func TestMissingPathIsAnErrorNamingIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "nope")
	if _, _, err := Read(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("err = %v", err)
	}
}

// Python's mailbox module, an independent implementation of both formats
// (it writes mboxo: "From " body lines quoted, LF line ends), stores three
// messages in an mbox and in a Maildir; both read back as they were sent,
// line ends aside.
func TestMailboxesWrittenByPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is not installed (.ci/run installs it)")
		}
		t.Skip("SKIPPING: python3 not found; the mbox and Maildir written by Python's mailbox module are not read")
	}
	d := t.TempDir()
	msgs := []string{msgA, msgB, "From: host@example.org\r\nSubject: c\r\n\r\nFrom here on, quoted by the writer\r\n"}
	for i, m := range msgs {
		write(t, filepath.Join(d, "in", string(rune('a'+i))), m)
	}
	script := `
import mailbox, sys, os
src, box, md = sys.argv[1], sys.argv[2], sys.argv[3]
mb = mailbox.mbox(box)
mdir = mailbox.Maildir(md, create=True)
for name in sorted(os.listdir(src)):
    data = open(os.path.join(src, name), 'rb').read()
    mb.add(data)
    mdir.add(data)
mb.flush(); mb.close()
`
	box, md := filepath.Join(d, "saved.mbox"), filepath.Join(d, "Maildir")
	if out, err := exec.Command(py, "-c", script, filepath.Join(d, "in"), box, md).CombinedOutput(); err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	for _, p := range []string{box, md} {
		ms, _, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != len(msgs) {
			t.Fatalf("%s: %d messages, want %d", p, len(ms), len(msgs))
		}
		got := map[string]bool{}
		for _, m := range ms {
			got[strings.ReplaceAll(string(m.Raw), "\r\n", "\n")] = true
		}
		for _, m := range msgs {
			if !got[strings.ReplaceAll(m, "\r\n", "\n")] {
				t.Errorf("%s: message %q not read back; got %q", p, m, raws(ms))
			}
		}
	}
}
