package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/verify"
)

func (m *Main) checkCmd() *cobra.Command {
	var keys []string
	var at, hostKey string
	c := &cobra.Command{
		Use:   "check MESSAGE.eml [--key KEY.asc ...] [--at TIME]",
		Short: "Say what the daemon would conclude about one raw message (why was my order refused?)",
		Long: `check runs one raw message through the daemon's intake against the games
as they stand (the configured data directory or store), recording nothing:
the signature (against the keys the games register), the game and side it
goes to, every order error, and the reply the daemon would send, word for
word. Exit status 0 only when the daemon would accept it (or it is already
recorded). A daemon may run meanwhile: its games are only read.

With no games at hand (no data directory), check verifies the signature
only, against --key, and says so: the orders are not checked then. The
signed form found, the signer's fingerprint and the signed bytes' digest,
or the named reason for rejection (signed text the daemon refuses with a
reply, such as a control character, is named so too).

MESSAGE.eml may be - for standard input. --at judges at another time (RFC
3339): key validity, as the daemon does at the recorded receipt time, and
the open phase's deadline. --host-key opens mail encrypted to the host
first, as the daemon does.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := readMessage(args[0])
			if err != nil {
				return err
			}
			when := time.Now().UTC()
			if m.Clock != nil {
				when = m.Clock.Now()
			}
			if at != "" {
				when, err = time.Parse(time.RFC3339, at)
				if err != nil {
					return fmt.Errorf("check: --at %q is not an RFC 3339 time such as 2026-11-29T12:00:00Z", at)
				}
			}
			if hostKey != "" {
				if raw, err = m.decryptForCheck(raw, hostKey, when); err != nil {
					return err
				}
			}
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			if st, err := checkStore(cmd, c); err != nil {
				return err
			} else if st != nil {
				if len(keys) > 0 {
					fmt.Fprintf(m.Stdout, "%-12s --key is not used: the keys the games register decide, as in the daemon\n", "note:")
				}
				return m.checkAgainstGames(st, raw, args[0], when)
			}
			return m.checkSignature(raw, args[0], keys, when, c)
		},
	}
	c.Flags().StringArrayVar(&keys, "key", nil, "armored public key file, for a check of the signature alone when no games are at hand (repeatable)")
	c.Flags().StringVar(&at, "at", "", "judge at this time (RFC 3339); default now")
	c.Flags().StringVar(&hostKey, "host-key", "", "the host's armored private key, to open mail encrypted to the host")
	return c
}

func readMessage(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(io.LimitReader(os.Stdin, 64<<20))
	}
	return os.ReadFile(name)
}

// checkStore opens the configured games for a dry run, or returns nil when
// there are none at hand (no data directory, or no game in it).
func checkStore(cmd *cobra.Command, c *config.Config) (adjudicator.Store, error) {
	if c.IsFileStore() {
		if st, err := os.Stat(c.DataDir); err != nil || !st.IsDir() {
			return nil, nil
		}
	}
	st, err := wiring.OpenStore(cmd.Context(), c, true)
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
func (m *Main) checkSignature(raw []byte, name string, keys []string, when time.Time, c *config.Config) error {
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
	fmt.Fprintf(m.Stdout, "%-12s the signature only: no games at hand (no data directory %s), so the game, the side and the orders are NOT checked\n", "checked:", c.DataDir)
	report, verr := verify.Check(raw, el, when)
	fmt.Fprint(m.Stdout, signatureLines(report))
	if verr != nil {
		return &exitError{code: 1, err: fmt.Errorf("%s does not verify", name)}
	}
	return nil
}

// checkAgainstGames runs the message through the intake of a host opened
// on a dry run of the store, and prints what it concluded and the reply.
func (m *Main) checkAgainstGames(st adjudicator.Store, raw []byte, name string, when time.Time) error {
	h, err := adjudicator.OpenStore(st, adjudicator.Options{Clock: fixedClock{when}, Logger: m.logger(), MustExist: true,
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
	w := m.Stdout
	fmt.Fprintf(w, "%-12s as the daemon would, against the %d game(s) in %s as they stand (nothing is recorded)\n", "checked:", len(before), h.Dir())
	m.printSignature(raw, armored, when)
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
		m.printReplies(g, before[r.Game])
	}
	switch r.Status {
	case adjudicator.StatusAccepted, adjudicator.StatusReferee, adjudicator.StatusDuplicate:
		return nil
	}
	return &exitError{code: 1, err: fmt.Errorf("the daemon would not accept %s", name)}
}

// printSignature prints the signature's part of the check, against the
// keys the games register.
func (m *Main) printSignature(raw []byte, armored []string, when time.Time) {
	var rs []io.Reader
	for _, a := range armored {
		rs = append(rs, strings.NewReader(a))
	}
	el, err := verify.ReadKeys(rs...)
	if err != nil {
		el = openpgp.EntityList{}
	}
	report, _ := verify.Check(raw, el, when)
	fmt.Fprint(m.Stdout, signatureLines(report))
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
func (m *Main) printReplies(g *adjudicator.Game, seq uint64) {
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
		fmt.Fprintf(m.Stdout, "\nThe reply the daemon would send to %s <%s>:\nSubject: %s\n\n%s", o.Queued.Side, o.Queued.To, o.Mail.Subject, o.Mail.Text)
	}
	if others > 0 {
		fmt.Fprintf(m.Stdout, "\nand %d other mail(s): the message completes the phase, which would resolve\n", others)
	}
}

// fixedClock is the time a check judges at.
type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

// decryptForCheck opens a message encrypted to the host as the daemon
// does, saying so, and returns the message to verify; a message it cannot
// open is reported and is an exit status 1.
func (m *Main) decryptForCheck(raw []byte, path string, when time.Time) ([]byte, error) {
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
		fmt.Fprint(m.Stdout, verify.FormatReport(nil, err, when))
		return nil, &exitError{code: 1, err: fmt.Errorf("the host cannot open the message")}
	}
	if d == nil {
		return raw, nil
	}
	fmt.Fprintf(m.Stdout, "%-12s %s\n", "decrypted:", d.Shape)
	return d.Message, nil
}
