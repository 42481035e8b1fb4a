// Package mailcheck says what the daemon would conclude about one raw
// message, recording nothing (skagerrak check): against the games as they
// stand, its signature, game, side, every order error and the reply the
// daemon would send; with no games at hand, the signature alone against
// the keys given.
package mailcheck

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/verify"
)

// Options are how a message is checked.
type Options struct {
	// When is the time the message is judged at: key validity, the open
	// phase's deadline.
	When time.Time
	// Keys are armored public key files, for a check of the signature
	// alone when there are no games at hand.
	Keys []string
	// Logger logs what the dry-run host does.
	Logger *slog.Logger
}

// ReadMessage reads the raw message of the file name, or of standard
// input for "-" (at most 64 MiB).
func ReadMessage(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(io.LimitReader(os.Stdin, 64<<20))
	}
	return os.ReadFile(name)
}

// At is the time a check judges at: at (--at, RFC 3339), or now if at is
// "".
func At(at string, now time.Time) (time.Time, error) {
	if at == "" {
		return now, nil
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return t, fmt.Errorf("check: --at %q is not an RFC 3339 time such as 2026-11-29T12:00:00Z", at)
	}
	return t, nil
}

// Check runs raw (from the file name) through the daemon's intake against
// the games of the configured store as they stand, printing what it
// concludes to w; with no games at hand, it checks the signature against
// o.Keys alone and says so. The error is why the daemon would not accept
// it.
func Check(ctx context.Context, w io.Writer, c *config.Config, raw []byte, name string, o Options) error {
	st, err := checkStore(ctx, c)
	if err != nil {
		return err
	}
	if st == nil {
		return checkSignature(w, raw, name, o.Keys, o.When, c)
	}
	if len(o.Keys) > 0 {
		fmt.Fprintf(w, "%-12s --key is not used: the keys the games register decide, as in the daemon\n", "note:")
	}
	return checkAgainstGames(w, o.Logger, st, raw, name, o.When)
}

// checkStore opens the configured games for a dry run, or returns nil when
// there are none at hand (no data directory, or no game in it).
func checkStore(ctx context.Context, c *config.Config) (adjudicator.Store, error) {
	if c.IsFileStore() {
		if st, err := os.Stat(c.DataDir); err != nil || !st.IsDir() {
			return nil, nil
		}
	}
	st, err := wiring.OpenStore(ctx, c, true)
	if err != nil {
		return nil, err
	}
	if ids, err := st.Games(); err != nil || len(ids) == 0 {
		st.Close()
		return nil, err
	}
	return adjudicator.DryRun(st), nil
}

// checkSignature is check with no games: the signature alone.
func checkSignature(w io.Writer, raw []byte, name string, keys []string, when time.Time, c *config.Config) error {
	if len(keys) == 0 {
		return fmt.Errorf("check: no games at hand (no data directory %s): give the signer's public key with --key KEY.asc to check the signature alone, or --config/--data-dir to check it as the daemon would", c.DataDir)
	}
	var files []io.Reader
	for _, k := range keys {
		f, err := os.Open(k)
		if err != nil {
			return err
		}
		defer f.Close()
		files = append(files, f)
	}
	el, err := verify.ReadKeys(files...)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-12s the signature only: no games at hand (no data directory %s), so the game, the side and the orders are NOT checked\n", "checked:", c.DataDir)
	report, verr := verify.Check(raw, el, when)
	fmt.Fprint(w, signatureLines(report))
	if verr != nil {
		return fmt.Errorf("%s does not verify", name)
	}
	return nil
}

// checkAgainstGames runs the message through the intake of a host opened
// on a dry run of the store, and prints what it concluded and the reply.
func checkAgainstGames(w io.Writer, log *slog.Logger, st adjudicator.Store, raw []byte, name string, when time.Time) error {
	h, err := adjudicator.OpenStore(st, adjudicator.Options{Clock: fixedClock{when}, Logger: log, MustExist: true,
		Verifier: wiring.Verifier{}, Triage: wiring.Triage{}})
	if err != nil {
		return err
	}
	defer h.Close()
	before := map[string]uint64{}
	var armored []string
	for _, id := range h.Games() {
		g, err := h.Game(id)
		if err != nil {
			continue
		}
		before[id] = g.Seq
		for _, side := range g.Sides() {
			armored = append(armored, g.Players[side].Key)
		}
		if g.Referee != nil {
			armored = append(armored, g.Referee.Key)
		}
	}
	fmt.Fprintf(w, "%-12s as the daemon would, against the %d game(s) in %s as they stand (nothing is recorded)\n", "checked:", len(before), h.Dir())
	printSignature(w, raw, armored, when)
	r, err := h.Receive(raw)
	if err != nil {
		return err
	}
	line := func(k, v string) { fmt.Fprintf(w, "%-12s %s\n", k+":", v) }
	if r.Game != "" {
		line("game", r.Game)
	}
	if r.Side != "" {
		line("side", string(r.Side))
	}
	line("result", r.Status)
	if r.Reason != "" {
		line("reason", verify.Escape(r.Reason))
	}
	for _, e := range r.Errors {
		line("error", verify.Escape(e.Error()))
	}
	if g, err := h.Game(r.Game); err == nil {
		printReplies(w, g, before[r.Game])
	}
	switch r.Status {
	case adjudicator.StatusAccepted, adjudicator.StatusReferee, adjudicator.StatusDuplicate:
		return nil
	}
	return fmt.Errorf("the daemon would not accept %s", name)
}

// printSignature prints the signature's part of the check, against the
// keys the games register.
func printSignature(w io.Writer, raw []byte, armored []string, when time.Time) {
	var rs []io.Reader
	for _, a := range armored {
		rs = append(rs, strings.NewReader(a))
	}
	el, err := verify.ReadKeys(rs...)
	if err != nil {
		el = openpgp.EntityList{}
	}
	report, _ := verify.Check(raw, el, when)
	fmt.Fprint(w, signatureLines(report))
}

// signatureLines is a signature check's report, its result named as the
// signature's: the message's result is the daemon's decision.
func signatureLines(report string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(report, "\n") {
		if v, ok := strings.CutPrefix(l, "result:"); ok {
			l = fmt.Sprintf("%-12s %s\n", "signature:", strings.TrimSpace(v))
		}
		b.WriteString(l)
	}
	return b.String()
}

// printReplies prints the replies the message would be answered with: the
// accepted or rejected mail, or the referee's answer, queued after seq.
func printReplies(w io.Writer, g *adjudicator.Game, seq uint64) {
	others := 0
	for _, o := range g.Outbox {
		if o.Seq <= seq {
			continue
		}
		switch o.Queued.Kind {
		case adjudicator.MailAccepted, adjudicator.MailRejected, adjudicator.MailNotice:
		default:
			others++
			continue
		}
		fmt.Fprintf(w, "\nThe reply the daemon would send to %s <%s>:\nSubject: %s\n\n%s", o.Queued.Side, o.Queued.To, o.Mail.Subject, o.Mail.Text)
	}
	if others > 0 {
		fmt.Fprintf(w, "\nand %d other mail(s): the message completes the phase, which would resolve\n", others)
	}
}

// fixedClock is the time a check judges at.
type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

// Decrypt opens a message encrypted to the host as the daemon
// does, saying so, and returns the message to verify; a message it cannot
// open is reported and is an exit status 1.
func Decrypt(w io.Writer, raw []byte, path string, when time.Time) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	key, err := compose.ReadPrivateKeyWithPassphrase(f, []byte(os.Getenv(config.EnvName("host_key_passphrase"))))
	if err != nil {
		return nil, fmt.Errorf("check: --host-key %s: %w", path, err)
	}
	d, err := verify.Decrypt(raw, openpgp.EntityList{key}, when, verify.Limits{})
	if err != nil {
		fmt.Fprint(w, verify.FormatReport(nil, err, when))
		return nil, fmt.Errorf("the host cannot open the message")
	}
	if d == nil {
		return raw, nil
	}
	fmt.Fprintf(w, "%-12s %s\n", "decrypted:", d.Shape)
	return d.Message, nil
}
