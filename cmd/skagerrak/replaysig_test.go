package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/adjudicator/replaypage"
)

// TestReplayPageNamesAForgedSignedOrder changes one byte of the order text
// inside one signed mail of a game played by signed mail, and hashes the
// chain again as a forger would: the chain, the orders digests and the
// dice still check, so only the page's signature check can catch it, and
// the page must name that record.
func TestReplayPageNamesAForgedSignedOrder(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "logs", "kriegsmarine-r2-demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	lines = lines[:len(lines)-1]
	forged := -1
	for i, l := range lines {
		if strings.Contains(l, `"type":"OrdersAccepted"`) && strings.Contains(l, `"source":"mail"`) && i > len(lines)/3 {
			lines[i] = forgeSignedOrder(t, l)
			forged = i
			break
		}
	}
	if forged < 0 {
		t.Fatal("no order accepted by mail in the log")
	}
	for i := forged; i < len(lines); i++ {
		lines[i] = rehash(t, strings.TrimSuffix(lines[i-1], "\n"), strings.TrimSuffix(lines[i], "\n")) + "\n"
	}
	p := &replaypage.Page{Game: "forged", Log: []byte(strings.Join(lines, ""))}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "forged.html")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := browser(t, func(any) {})
	verdict := openPage(t, ctx, "file://"+file)
	want := fmt.Sprintf("NOT VERIFIED: record %d (OrdersAccepted): the signature does not verify", forged+1)
	t.Logf("the page says: %s", verdict)
	if !strings.HasPrefix(verdict, want) {
		t.Errorf("the page with a forged order in record %d says %q, want it to begin %q", forged+1, verdict, want)
	}
}

// forgeSignedOrder changes the case of one letter of the order text in a
// record's signed mail (data.raw), leaving the recorded text as it was.
func forgeSignedOrder(t *testing.T, line string) string {
	t.Helper()
	const key = `"raw":"`
	i := strings.Index(line, key) + len(key)
	j := i + strings.IndexByte(line[i:], '"')
	msg, err := base64.StdEncoding.DecodeString(line[i:j])
	if err != nil {
		t.Fatal(err)
	}
	k := bytes.Index(msg, []byte("\nPhase: "))
	if k < 0 {
		t.Fatalf("no order text in the mail:\n%s", msg)
	}
	msg[k+len("\nPhase: ")] ^= 0x20
	return line[:i] + base64.StdEncoding.EncodeToString(msg) + line[j:]
}
