package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/mail/compose"
	"skagerrak/mail/gpgtest"
	"skagerrak/mail/verify"
)

// keyFiles writes armored public keys for allied, german and the referee,
// and a private key (which new must refuse), returning their paths.
func keyFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range []string{"allied", "german", "referee"} {
		k, err := compose.GenerateKey(n, n+"@example.org", time.Now().Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := compose.ArmorPublicKey(k)
		p := filepath.Join(dir, n+".asc")
		os.WriteFile(p, pub, 0o644)
		out[n] = p
		if n == "german" {
			priv, _ := compose.ArmorPrivateKey(k)
			pp := filepath.Join(dir, "german-secret.asc")
			os.WriteFile(pp, priv, 0o600)
			out["private"] = pp
		}
	}
	notKey := filepath.Join(dir, "notes.txt")
	os.WriteFile(notKey, []byte("hello\n"), 0o644)
	out["notkey"] = notKey
	return out
}

func newArgs(data, game string, k map[string]string, extra ...string) []string {
	a := []string{"--data-dir", data, "new", "--game", game, "--ruleset", "racetest",
		"--side", "allied=a@example.org," + k["allied"], "--side", "german=g@example.org," + k["german"],
		"--referee", "ref@example.org," + k["referee"]}
	return append(a, extra...)
}

func TestNewStatusSubmitReportRefereeByCLI(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "games")
	k := keyFiles(t, dir)
	code, out, errs := run(t, newArgs(data, "g1", k)...)
	if code != 0 || !strings.Contains(out, "created game g1") {
		t.Fatalf("new: %d %s %s", code, out, errs)
	}
	// Bad input: a clear error, nothing written.
	bad := []struct {
		args []string
		want string
	}{
		{newArgs(data, "g1", k), "already exists"},
		{newArgs(data, "g2", k, "--option", "turbo"), `no option "turbo"`},
		{append(newArgs(data, "g3", k)[:9], "--side", "soviet=s@example.org,"+k["allied"]), `no side "soviet"`},
		{[]string{"--data-dir", data, "new", "--game", "g4", "--ruleset", "chess"}, `unknown ruleset "chess"`},
		{[]string{"--data-dir", data, "new", "--game", "g5", "--ruleset", "racetest", "--side", "allied=a@example.org," + k["notkey"]}, "not an armored OpenPGP public key"},
		{[]string{"--data-dir", data, "new", "--game", "g6", "--ruleset", "racetest", "--side", "german=g@example.org," + k["private"]}, "is a private key"},
	}
	for _, b := range bad {
		code, _, errs := run(t, b.args...)
		if code == 0 || !strings.Contains(errs, b.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", b.args[3:], code, errs, b.want)
		}
	}
	for _, id := range []string{"g2", "g3", "g4", "g5", "g6"} {
		if _, err := os.Stat(filepath.Join(data, id)); err == nil {
			t.Errorf("refused game %s left a directory", id)
		}
	}
	code, out, _ = run(t, "--data-dir", data, "status", "g1")
	if code != 0 || !strings.Contains(out, "phase T01") || !strings.Contains(out, "allied     owes orders") || !strings.Contains(out, "undelivered mail: 2 queued") {
		t.Fatalf("status:\n%s", out)
	}
	// Paper orders entered by the referee, recorded as unsigned.
	f := filepath.Join(dir, "allied.txt")
	os.WriteFile(f, []byte("Game: g1\nPhase: T01\nSide: allied\nadvance 2\n"), 0o644)
	code, out, errs = run(t, "--data-dir", data, "submit", "g1", f, "--side", "allied", "--unsigned", "--by", "the referee")
	if code != 0 || !strings.Contains(out, "accepted") {
		t.Fatalf("submit --unsigned: %d %s %s", code, out, errs)
	}
	os.WriteFile(f, []byte("Game: g1\nPhase: T01\nSide: german\nadvance 7\n"), 0o644)
	code, out, _ = run(t, "--data-dir", data, "submit", "g1", f, "--side", "german", "--unsigned", "--by", "the referee")
	if code != 2 || !strings.Contains(out, "line 4") {
		t.Errorf("a bad order: exit %d\n%s", code, out)
	}
	code, _, errs = run(t, "--data-dir", data, "submit", "g1", f, "--side", "german")
	if code == 0 || !strings.Contains(errs, "without a cleartext signature") {
		t.Errorf("an unsigned file without --unsigned: %d %s", code, errs)
	}
	// Referee commands from the CLI are events with who and why.
	code, _, errs = run(t, "--data-dir", data, "referee", "g1", "extend", "24h", "travelling")
	if code != 0 {
		t.Fatalf("referee extend: %s", errs)
	}
	code, _, errs = run(t, "--data-dir", data, "referee", "g1", "pause")
	if code == 0 || !strings.Contains(errs, "say why") {
		t.Errorf("pause without why: %d %s", code, errs)
	}
	code, out, errs = run(t, "--data-dir", data, "resolve", "g1", "--why", "german away")
	if code != 0 || !strings.Contains(out, "phase T02") {
		t.Fatalf("resolve: %d %s %s", code, out, errs)
	}
	code, out, _ = run(t, "--data-dir", data, "report", "g1", "--side", "german")
	if code != 0 || !strings.Contains(out, "Missed orders (default orders used): german") || !strings.Contains(out, "Phase: T02") {
		t.Errorf("report:\n%s", out)
	}
	code, out, _ = run(t, "--data-dir", data, "report", "g1", "--side", "german", "--json")
	if code != 0 || !strings.Contains(out, `"schema": "skagerrak-report/1"`) || !strings.Contains(out, `"phase": "T02"`) {
		t.Errorf("report --json:\n%s", out)
	}
	code, out, _ = run(t, "--data-dir", data, "log", filepath.Join(data, "g1"))
	if code != 0 || !strings.Contains(out, "DeadlineChanged") || !strings.Contains(out, "why=travelling") {
		t.Errorf("log:\n%s", out)
	}
	// By the game's name, as the other commands take it: the same lines.
	if code, byName, _ := run(t, "--data-dir", data, "log", "g1"); code != 0 || byName != out {
		t.Errorf("log g1 differs from log of its directory:\n%s", byName)
	}
	if code, _, errs := run(t, "--data-dir", data, "log", "g9"); code == 0 || !strings.Contains(errs, `no game "g9" in `+data+"; the games there: g1") {
		t.Errorf("log of no game: %d %s", code, errs)
	}
	code, out, errs = run(t, "--data-dir", data, "verify", filepath.Join(data, "g1"))
	if code != 0 {
		t.Errorf("verify: %s %s", out, errs)
	}
}

func TestDiceAddManualGame(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "games")
	k := keyFiles(t, dir)
	if code, _, errs := run(t, newArgs(data, "m1", k, "--dice", "manual")...); code != 0 {
		t.Fatal(errs)
	}
	for _, side := range []string{"allied", "german"} {
		f := filepath.Join(dir, side+".txt")
		os.WriteFile(f, []byte(fmt.Sprintf("Game: m1\nPhase: T01\nSide: %s\nadvance 1\n", side)), 0o644)
		if code, _, errs := run(t, "--data-dir", data, "submit", "m1", f, "--side", side, "--unsigned", "--by", "ref"); code != 0 {
			t.Fatal(errs)
		}
	}
	code, out, _ := run(t, "--data-dir", data, "dice", "add", "m1", "4")
	const waiting = "waiting for dice: T01 needs 1 d6: a d6 for german advance"
	if code != 0 || strings.Count(out, waiting) != 1 {
		t.Fatalf("one die of two, the phase's wait said once: %s", out)
	}
	code, out, errs := run(t, "--data-dir", data, "dice", "add", "m1", "9")
	if code == 0 || !strings.Contains(errs, "is not a face of a d6 for german advance; valid: 1 to 6") {
		t.Errorf("a 9 on a d6 was accepted:\n%s", out)
	}
	code, out, _ = run(t, "--data-dir", data, "dice", "add", "m1", "2")
	if code != 0 || !strings.Contains(out, "phase T02") {
		t.Fatalf("second die: %s", out)
	}
}

// A referee forcing a manual-dice phase that still owes orders (resolve)
// is told which dice it waits for, and the dice then resolve it with
// default orders for the side that owes them: before, resolve named the
// dice and dice add refused them ("does not resolve yet") until the
// deadline, so the forced resolution could not be made. The racetest
// phase rolls a d6 for each side, Allied first; german owes its orders.
// No die is made up, so the resolution stops at the first: allied's.
func TestResolveManualDiceGameThatOwesOrders(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "games")
	k := keyFiles(t, dir)
	if code, _, errs := run(t, newArgs(data, "m1", k, "--dice", "manual", "--grace", "1h")...); code != 0 {
		t.Fatal(errs)
	}
	f := filepath.Join(dir, "allied.txt")
	os.WriteFile(f, []byte("Game: m1\nPhase: T01\nSide: allied\nadvance 1\n"), 0o644)
	if code, _, errs := run(t, "--data-dir", data, "submit", "m1", f, "--side", "allied", "--unsigned", "--by", "ref"); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := run(t, "--data-dir", data, "resolve", "m1", "--why", "german away")
	if code != 0 || !strings.Contains(out, "waiting for dice: T01 needs 1 d6: a d6 for allied advance (more may follow once it is in)") {
		t.Fatalf("resolve of a manual-dice phase owing orders: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "--data-dir", data, "dice", "add", "m1", "3", "5")
	if code != 0 || !strings.Contains(out, "phase T02") {
		t.Fatalf("the dice for the forced resolution: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = run(t, "--data-dir", data, "log", filepath.Join(data, "m1"))
	if code != 0 || !strings.Contains(out, "why=resolve: german away") || !strings.Contains(out, "defaulted=[german]") {
		t.Errorf("log: the deadline moved for the resolution, german defaulted:\n%s", out)
	}
	if code, out, errs := run(t, "--data-dir", data, "verify", filepath.Join(data, "m1")); code != 0 {
		t.Errorf("verify: %s %s", out, errs)
	}
}

func TestVerifyNamesTheBadSeq(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "games")
	k := keyFiles(t, dir)
	run(t, newArgs(data, "g1", k)...)
	run(t, "--data-dir", data, "resolve", "g1", "--why", "x")
	run(t, "--data-dir", data, "resolve", "g1", "--why", "y")
	logPath := filepath.Join(data, "g1", "events.jsonl")
	orig, _ := os.ReadFile(logPath)
	lines := strings.SplitAfter(string(orig), "\n")
	lines = lines[:len(lines)-1]
	if len(lines) < 8 {
		t.Fatalf("only %d records", len(lines))
	}
	cases := map[string]func() string{
		"one byte changed": func() string {
			l := []byte(lines[4])
			i := strings.Index(string(l), `"time":"`) + 10
			l[i] ^= 1
			return strings.Join(lines[:4], "") + string(l) + strings.Join(lines[5:], "")
		},
		"a record removed": func() string { return strings.Join(lines[:4], "") + strings.Join(lines[5:], "") },
		"two records swapped": func() string {
			return strings.Join(lines[:4], "") + lines[5] + lines[4] + strings.Join(lines[6:], "")
		},
		"a record appended by hand": func() string {
			return string(orig) + strings.Replace(lines[len(lines)-1], fmt.Sprintf(`"seq":%d`, len(lines)), fmt.Sprintf(`"seq":%d`, len(lines)+1), 1)
		},
	}
	for name, mk := range cases {
		os.WriteFile(logPath, []byte(mk()), 0o600)
		code, _, errs := run(t, "verify", filepath.Join(data, "g1"))
		if code == 0 || !strings.Contains(errs, "record ") {
			t.Errorf("%s: exit %d, %s", name, code, errs)
		}
	}
	os.WriteFile(logPath, orig, 0o600)
	if code, _, errs := run(t, "verify", filepath.Join(data, "g1")); code != 0 {
		t.Errorf("restored log: %s", errs)
	}
}

func TestNewFromGameFile(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "games")
	k := keyFiles(t, dir)
	good := fmt.Sprintf(`game: weser-1
ruleset: racetest
dice: seeded
deadline: 24h
reminder: 6h
flag_after: 3
sides:
  allied: {address: a@example.org, key: %s}
  german: {address: g@example.org, key: %s}
referee: {address: ref@example.org, key: %s}
`, filepath.Base(k["allied"]), filepath.Base(k["german"]), filepath.Base(k["referee"]))
	f := filepath.Join(dir, "game.yaml")
	os.WriteFile(f, []byte(good), 0o644)
	code, out, errs := run(t, "--data-dir", data, "new", "--file", f)
	if code != 0 || !strings.Contains(out, "created game weser-1") {
		t.Fatalf("new --file: %d %s %s", code, out, errs)
	}
	for _, bad := range []struct{ text, want string }{
		{strings.Replace(good, "weser-1", "weser-2", 1) + "deadlin: 3h\n", `unknown key "deadlin"`},
		{strings.Replace(strings.Replace(good, "weser-1", "weser-3", 1), "deadline: 24h", "deadline: soon", 1), `"deadline": "soon" is not a duration`},
		{strings.Replace(strings.Replace(good, "weser-1", "weser-4", 1), "  german:", "  soviet:", 1), `no side "soviet"`},
		{strings.Replace(good, "weser-1", "weser-5", 1) + "options: [fog]\n", `no option "fog"`},
	} {
		p := filepath.Join(dir, "bad.yaml")
		os.WriteFile(p, []byte(bad.text), 0o644)
		code, _, errs := run(t, "--data-dir", data, "new", "--file", p)
		if code == 0 || !strings.Contains(errs, bad.want) {
			t.Errorf("want an error with %q, got %d %s", bad.want, code, errs)
		}
	}
	entries, _ := os.ReadDir(data)
	if len(entries) != 1 {
		t.Errorf("refused game files left %d entries under the data directory", len(entries))
	}
}

// TestSubmitGnuPGSignedFiles submits order files signed by real GnuPG, as
// a player or referee would: cleartext-signed, and with a detached .asc
// beside the file; and refuses a file signed by the wrong side's key.
func TestSubmitGnuPGSignedFiles(t *testing.T) {
	g := gpgtest.New(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "games")
	g.GenKey("Allied <a@example.org>", "ed25519", "sign", "never")
	g.GenKey("German <g@example.org>", "rsa3072", "sign", "never")
	g.GenKey("Referee <r@example.org>", "ed25519", "sign", "never")
	keys := map[string]string{}
	for side, uid := range map[string]string{"allied": "a@example.org", "german": "g@example.org", "referee": "r@example.org"} {
		p := filepath.Join(dir, side+".asc")
		os.WriteFile(p, g.ExportPublic(uid), 0o644)
		keys[side] = p
	}
	code, out, errs := run(t, "--data-dir", data, "new", "--game", "g1", "--ruleset", "racetest",
		"--side", "allied=a@example.org,"+keys["allied"], "--side", "german=g@example.org,"+keys["german"],
		"--referee", "r@example.org,"+keys["referee"])
	if code != 0 {
		t.Fatalf("new: %s %s", out, errs)
	}
	// The game's own id, which its order files carry (status says it).
	_, status, _ := run(t, "--data-dir", data, "status", "g1")
	_, id, ok := strings.Cut(status, "order files carry Game-Id: ")
	if !ok {
		t.Fatalf("status names no Game-Id:\n%s", status)
	}
	id = strings.Fields(id)[0]
	// A referee command in a cleartext-signed file.
	ref := filepath.Join(dir, "referee.txt")
	os.WriteFile(ref, g.Clearsign("r@example.org", []byte("Game: g1\nGame-Id: "+id+"\nPhase: T01\nSide: referee\nextend 2h a player travels\n")), 0o644)
	if code, out, errs := run(t, "--data-dir", data, "submit", "g1", ref, "--side", "referee"); code != 0 || !strings.Contains(out, "referee") {
		t.Fatalf("referee file: %d %s %s", code, out, errs)
	}
	clear := filepath.Join(dir, "allied.txt.asc")
	os.WriteFile(clear, g.Clearsign("a@example.org", []byte("Game: g1\nGame-Id: "+id+"\nPhase: T01\nSide: allied\nadvance 2\n")), 0o644)
	code, out, errs = run(t, "--data-dir", data, "submit", "g1", clear, "--side", "allied")
	if code != 0 || !strings.Contains(out, "accepted") {
		t.Fatalf("clearsigned: %d %s %s", code, out, errs)
	}
	// Text around the signed block, or a second block, is refused as in mail.
	signedBlock := g.Clearsign("a@example.org", []byte("Game: g1\nPhase: T01\nSide: allied\nadvance 1\n"))
	for name, bad := range map[string][]byte{
		"text before": append([]byte("advance 3\n"), signedBlock...),
		"text after":  append(append([]byte{}, signedBlock...), []byte("advance 3\n")...),
		"two blocks":  append(append([]byte{}, signedBlock...), signedBlock...),
	} {
		p := filepath.Join(dir, "bad.txt")
		os.WriteFile(p, bad, 0o644)
		if code, _, errs := run(t, "--data-dir", data, "submit", "g1", p, "--side", "allied"); code == 0 {
			t.Errorf("%s the cleartext-signed block was accepted: %s", name, errs)
		}
	}
	// The german key signing allied orders: refused, nothing written.
	wrong := filepath.Join(dir, "wrong.txt")
	os.WriteFile(wrong, g.Clearsign("g@example.org", []byte("Game: g1\nPhase: T01\nSide: allied\nadvance 3\n")), 0o644)
	if code, _, errs := run(t, "--data-dir", data, "submit", "g1", wrong, "--side", "allied"); code == 0 || !strings.Contains(errs, "not side allied's key") {
		t.Errorf("another side's key: %d %s", code, errs)
	}
	// Audit finding: a signed file made for another game of the same
	// name (another host's g1) is refused, saying which game it was for;
	// and in a game created with Game-Ids, a file without one is refused.
	for name, c := range map[string]struct{ header, want string }{
		"another game of the name": {"Game: g1\nGame-Id: 0badc0de\n", "for the game g1 with Game-Id 0badc0de, not this one (Game-Id " + id + ")"},
		"no Game-Id":               {"Game: g1\n", "has no Game-Id: line; this game's is Game-Id: " + id},
	} {
		p := filepath.Join(dir, "german-other.txt")
		os.WriteFile(p, g.Clearsign("g@example.org", []byte(c.header+"Phase: T01\nSide: german\nadvance 1\n")), 0o644)
		code, out, errs := run(t, "--data-dir", data, "submit", "g1", p, "--side", "german")
		if code == 0 || !strings.Contains(strings.Join(strings.Fields(out+errs), " "), c.want) {
			t.Errorf("%s: exit %d, %s %s; want a refusal saying %q", name, code, out, errs, c.want)
		}
	}
	plain := filepath.Join(dir, "german.txt")
	body := []byte("Game: g1\nGame-Id: " + id + "\nPhase: T01\nSide: german\nadvance 1\n")
	os.WriteFile(plain, body, 0o644)
	os.WriteFile(plain+".asc", g.DetachSign("g@example.org", body, true), 0o644)
	code, out, errs = run(t, "--data-dir", data, "submit", "g1", plain, "--side", "german")
	if code != 0 || !strings.Contains(out, "accepted") {
		t.Fatalf("detached: %d %s %s", code, out, errs)
	}
	code, out, _ = run(t, "--data-dir", data, "status", "g1")
	if code != 0 || !strings.Contains(out, "phase T02") {
		t.Errorf("both in, the phase did not resolve:\n%s", out)
	}
	// verify checks both signatures again from the log.
	code, out, errs = run(t, "verify", filepath.Join(data, "g1"))
	if code != 0 || !strings.Contains(out, "3 signatures checked") {
		t.Errorf("verify: %d %s %s", code, out, errs)
	}
}

// TestNewAndRefereeKeyRefuseSeveralCertificates: a key file holding two
// certificates, as two armored blocks or as one block of two, is refused
// at new and at referee key, naming each certificate (audit finding: the
// first was registered and the rest stored silently).
func TestNewAndRefereeKeyRefuseSeveralCertificates(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "games")
	k := keyFiles(t, dir)
	other, err := compose.GenerateKey("Mallory", "mallory@example.org", time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	otherPub, _ := compose.ArmorPublicKey(other)
	allied, _ := os.ReadFile(k["allied"])
	twoBlocks := filepath.Join(dir, "two-blocks.asc")
	os.WriteFile(twoBlocks, append(append(allied, '\n'), otherPub...), 0o644)
	oneBlock := filepath.Join(dir, "one-block.asc")
	var both []byte
	{
		alliedKeys, err := verify.ReadCertificates(allied)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w, _ := armor.Encode(&buf, openpgp.PublicKeyType, nil)
		alliedKeys[0].Serialize(w)
		other.Serialize(w)
		w.Close()
		both = buf.Bytes()
	}
	os.WriteFile(oneBlock, both, 0o644)
	fpOther := fmt.Sprintf("%X", other.PrimaryKey.Fingerprint)
	for _, f := range []string{twoBlocks, oneBlock} {
		args := newArgs(data, "g1", map[string]string{"allied": f, "german": k["german"], "referee": k["referee"]})
		code, _, errs := run(t, args...)
		if code == 0 || !strings.Contains(errs, "holds 2 certificates") || !strings.Contains(errs, fpOther) ||
			!strings.Contains(errs, "Mallory <mallory@example.org>") || !strings.Contains(errs, "allied <allied@example.org>") {
			t.Errorf("new with %s: exit %d, %q; want a refusal naming both certificates", filepath.Base(f), code, errs)
		}
		if _, err := os.Stat(filepath.Join(data, "g1")); err == nil {
			t.Fatalf("refused game left a directory")
		}
	}
	if code, out, errs := run(t, newArgs(data, "g1", k)...); code != 0 {
		t.Fatalf("new: %d %s %s", code, out, errs)
	}
	code, _, errs := run(t, "--data-dir", data, "referee", "g1", "key", "allied", twoBlocks, "new", "laptop")
	if code == 0 || !strings.Contains(errs, "holds 2 certificates") || !strings.Contains(errs, fpOther) {
		t.Errorf("referee key with two certificates: exit %d, %q", code, errs)
	}
}
