package daemon

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/internal/binarytest"
	"skagerrak/internal/daemontest"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/loopback"
)

func TestPollOnceByCLI(t *testing.T) {
	e := hosttest.New(t, 2)
	cfg := e.Config(t)
	e.Order(t, 0, "allied", "T01", "advance 2")
	e.Order(t, 1, "german", "T01", "advance 9")
	code, out, errs := run(t, "--config", cfg, "poll", "--once")
	if code != 0 || !strings.Contains(out, "messages 2: accepted 1, rejected 1") {
		t.Fatalf("poll --once: %d\n%s\n%s", code, out, errs)
	}
	// Two first reports per game, one reply each for the two orders.
	if n := len(e.SMTP.Deliveries()); n != 6 {
		t.Errorf("%d mails sent, want 6", n)
	}
	code, out, errs = run(t, "--config", cfg, "poll", "--once")
	if code != 0 || out != "" || errs != "" {
		t.Errorf("second poll, nothing to do: exit %d, printed %q and %q; want nothing", code, out, errs)
	}
	code, out, _ = run(t, "--config", cfg, "poll", "--once", "--verbose")
	if code != 0 || !strings.Contains(out, "messages 0") {
		t.Errorf("second poll, --verbose: %s", out)
	}
	if code, _, errs := run(t, "--config", cfg, "poll"); code == 0 || !strings.Contains(errs, "--once") {
		t.Errorf("poll without --once: %d %s", code, errs)
	}
}

func TestRunServesMailAndStopsOnCancel(t *testing.T) {
	e := hosttest.New(t, 1)
	cfg := e.Config(t)
	d := binarytest.Start(t, binarytest.Built(), "--config", cfg, "run")
	errb := &d.Stderr
	e.Order(t, 0, "allied", "T01", "advance 1")
	e.Order(t, 0, "german", "T01", "advance 2")
	deadline := time.Now().Add(20 * time.Second)
	for e.Count(t, hosttest.DefaultProcessed) < 2 || len(e.SMTP.Deliveries()) < 6 {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not process the orders: processed %d, sent %d\n%s", e.Count(t, hosttest.DefaultProcessed), len(e.SMTP.Deliveries()), errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code := d.Stop(t); code != 0 {
		t.Fatalf("run exited %d after SIGTERM:\n%s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "skagerrak stopped") {
		t.Errorf("no shutdown line in the log:\n%s", errb.String())
	}
	// The phase resolved all-in: two first reports, two replies, two reports.
	g, err := e.LoadGame("g000")
	if err != nil || g.Resolved != 1 {
		t.Fatalf("resolved %d phases: %v", g.Resolved, err)
	}
}

func TestSMTP4xxThenSuccessSendsOnce(t *testing.T) {
	e := hosttest.New(t, 1)
	e.SMTP.FailNext(1, 451, "try again later")
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	s.Via, _ = e.RetryingSMTP()
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		t.Fatal(err)
	}
	if n := len(e.SMTP.Deliveries()); n != 2 {
		t.Fatalf("%d deliveries, want the 2 first reports once each", n)
	}
	b, _ := os.ReadFile(filepath.Join(e.DataDir(), "g000", "events.jsonl"))
	if n := strings.Count(string(b), `"type":"MailSent"`); n != 2 {
		t.Fatalf("%d MailSent events, want 2", n)
	}
}

func TestCheckCommand(t *testing.T) {
	dir := t.TempDir()
	k, _ := compose.GenerateKey("p", "p@example.org", time.Now().Add(-time.Hour))
	pub, _ := compose.ArmorPublicKey(k)
	keyPath := filepath.Join(dir, "p.asc")
	os.WriteFile(keyPath, pub, 0o644)
	raw, err := compose.SignCleartextMail(k, "p@example.org", hosttest.HostAddr, "orders", "Game: g\nPhase: T01\nSide: allied\nadvance 1\n", time.Now().UTC())
	if err != nil {
		t.Fatal(err)
	}
	eml := filepath.Join(dir, "m.eml")
	os.WriteFile(eml, raw, 0o644)
	code, out, errs := run(t, "check", eml, "--key", keyPath)
	if code != 0 || !strings.Contains(out, "signature:   accepted") || strings.Contains(out, "result:") || !strings.Contains(out, "NOT checked") || !strings.Contains(out, compose.Fingerprint(k)) {
		t.Fatalf("check of a good message: %d\n%s%s", code, out, errs)
	}
	tampered := bytes.Replace(raw, []byte("advance 1"), []byte("advance 3"), 1)
	os.WriteFile(eml, tampered, 0o644)
	code, out, _ = run(t, "check", eml, "--key", keyPath)
	if code == 0 || !strings.Contains(out, "signature:   rejected") || !strings.Contains(out, "reason:") {
		t.Fatalf("check of a changed message: %d\n%s", code, out)
	}
	code, _, errs = run(t, "check", eml)
	if code == 0 || !strings.Contains(errs, "--key") {
		t.Errorf("check without a key: %d %s", code, errs)
	}
}

// TestEncryptedReports: a game that asks for it encrypts every report to
// the side's key; the player reads it with its own key and no one else can.
func TestEncryptedReports(t *testing.T) {
	e := hosttest.New(t, 0)
	spec := adjudicator.Spec{Game: "secret-1", Ruleset: "racetest", Encrypt: true, HostFrom: hosttest.HostAddr,
		Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
	keys := hosttest.AddPlayers(t, &spec, "allied", "german")
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	if _, err := h.Create(spec); err != nil {
		t.Fatal(err)
	}
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		t.Fatal(err)
	}
	got := e.SMTP.For("allied@players.test")
	if len(got) != 1 {
		t.Fatalf("%d mails to allied", len(got))
	}
	if bytes.Contains(got[0].Data, []byte("Orders owed by")) {
		t.Fatal("the report travelled in clear")
	}
	r, err := compose.ReadReport(got[0].Data, openpgp.EntityList{e.HostKey}, keys["allied"], time.Now())
	if err != nil || !r.Encrypted || !strings.Contains(r.Text, "Orders owed by") {
		t.Fatalf("allied reading its report: %v %+v", err, r)
	}
	if _, err := compose.ReadReport(got[0].Data, openpgp.EntityList{e.HostKey}, keys["german"], time.Now()); err == nil {
		t.Error("german read allied's report")
	}
}

// TestOrderFormSignedAndMailedBack takes the order form out of a real
// Kriegsmarine Strikes report as the player received it, signs it
// unchanged, mails it back, and expects it accepted as the orders it shows.
func TestOrderFormSignedAndMailedBack(t *testing.T) {
	e := hosttest.New(t, 0)
	spec := adjudicator.Spec{Game: "form-1", Ruleset: "kriegsmarine", HostFrom: hosttest.HostAddr,
		Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
	keys := hosttest.AddPlayers(t, &spec, "allied", "german")
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	if _, err := h.Create(spec); err != nil {
		t.Fatal(err)
	}
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		t.Fatal(err)
	}
	const marker = "send back to this address):\n\n"
	for side, k := range keys {
		got := e.SMTP.Take(side + "@players.test")
		if len(got) != 1 {
			t.Fatalf("%s got %d mails", side, len(got))
		}
		r, err := compose.ReadReport(got[0].Data, openpgp.EntityList{e.HostKey}, k, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(r.Text, marker)
		if i < 0 {
			t.Fatalf("%s's report has no order form:\n%s", side, r.Text)
		}
		form := r.Text[i+len(marker):]
		raw, err := compose.SignPGPMIMEAttachmentMail(k, side+"@players.test", hosttest.HostAddr, "orders", "my orders", "orders.txt", form, time.Now().UTC())
		if err != nil {
			t.Fatal(err)
		}
		e.IMAP.Append(hosttest.HostAddr, "INBOX", raw)
	}
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil || p.Accepted != 2 || p.Rejected != 0 {
		t.Fatalf("the forms mailed back: %+v %v", p, err)
	}
	g, _ := h.Game("form-1")
	if g.Resolved != 1 {
		t.Errorf("both forms in, %d phases resolved", g.Resolved)
	}
}

// A message that cannot be moved (its folder gone and not to be made
// again) makes the daemon back off, never spin; and a rejected message met
// again once the folder is back goes to the rejected folder, not to the
// processed one. Issue: 950 passes a second and a rejected message in
// Processed.
func TestRunBacksOffWhenAMoveFails(t *testing.T) {
	e := hosttest.NewWith(t, 1, loopback.IMAPOptions{RefuseCreate: []string{hosttest.DefaultRejected}})
	if err := e.IMAP.CreateFolder(hosttest.HostAddr, hosttest.DefaultRejected); err != nil {
		t.Fatal(err)
	}
	cfg := e.Config(t)
	d := binarytest.Start(t, binarytest.Built(), "--config", cfg, "run")
	errb := &d.Stderr
	waitFor(t, errb, func() bool { return len(e.SMTP.Deliveries()) >= 2 }, "the first reports")
	if err := e.IMAP.DeleteFolder(hosttest.HostAddr, hosttest.DefaultRejected); err != nil {
		t.Fatal(err)
	}
	e.Order(t, 0, "allied", "T01", "advance 99") // rejected: out of range
	waitFor(t, errb, func() bool { return strings.Contains(errb.String(), "pass had failures") }, "a failing move")
	time.Sleep(3 * time.Second)
	passes := strings.Count(errb.String(), "pass had failures")
	// Back-off of 1 s, 2 s... capped at a second by the 200 ms poll
	// interval: about four failing passes in three seconds, never hundreds.
	if passes < 2 || passes > 6 {
		t.Errorf("%d failing passes in about 3 s; want 2-6 (backing off)\n%s", passes, errb.String())
	}
	if err := e.IMAP.CreateFolder(hosttest.HostAddr, hosttest.DefaultRejected); err != nil {
		t.Fatal(err)
	}
	waitFor(t, errb, func() bool { return e.Count(t, hosttest.DefaultRejected) == 1 }, "the rejected message in its folder")
	d.Stop(t)
	if n := e.Count(t, hosttest.DefaultProcessed); n != 0 {
		t.Errorf("%d messages in the processed folder; the rejected one belongs in rejected", n)
	}
}

func waitFor(t *testing.T, log *daemontest.SyncBuffer, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s\n%s", what, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// poll --once gives up within poll_timeout when the IMAP server is gone,
// exits non-zero, and says why.
func TestPollOnceGivesUp(t *testing.T) {
	e := hosttest.New(t, 1)
	cfg := e.Config(t)
	e.IMAP.Close()
	start := time.Now()
	code, _, errs := run(t, "--config", cfg, "poll", "--once", "--poll-timeout", "2s")
	took := time.Since(start)
	if code == 0 || took > 10*time.Second {
		t.Fatalf("poll --once: exit %d after %s; want non-zero within the timeout", code, took)
	}
	// What the last attempt met depends on the port once the server is
	// gone (refused, or taken by another test's listener and closed):
	// the message names the mailbox and that attempt, whatever it was.
	for _, want := range []string{"gave up after 2s (poll_timeout)", "imapbox:", "the last failed with"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
	}
}

// A folder the server will not make stops the daemon at start, naming the
// config key and the server's answer.
func TestFolderRefusedFailsAtStart(t *testing.T) {
	e := hosttest.NewWith(t, 1, loopback.IMAPOptions{RefuseCreate: []string{hosttest.DefaultProcessed}})
	cfg := e.Config(t)
	code, _, errs := run(t, "--config", cfg, "poll", "--once")
	if code == 0 {
		t.Fatal("poll --once succeeded without its processed folder")
	}
	for _, want := range []string{"key imap.processed", `"skagerrak/processed"`, "Folder creation refused", `delimiter is "/"`} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
	}
}
