package adjudicator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"skagerrak/engine"
	"skagerrak/events"
)

// VerifyReport is what verifying a game log found.
type VerifyReport struct {
	Path   string
	Game   string
	Events uint64
	// Signatures counts the order signatures checked again.
	Signatures int
	// Rolls counts the dice rolls checked against the secret; RollsChecked
	// is false when the secret is not available (a game still running,
	// read without its directory).
	Rolls        int
	RollsChecked bool
	Phases       int
	Ended        bool
	// Software is the build that created the game.
	Software string
	// Ruleset and Revision are the rules the game was played under.
	Ruleset  string
	Revision int
	// Unrendered counts the mails rendered under another RenderRevision,
	// whose text this build cannot reproduce to check its digest.
	Unrendered int
	// TornTail is set when the file ends in an incomplete record, which
	// the next writer will cut off.
	TornTail bool
}

// VerifyPath verifies a game directory or a log file: the hash chain, every
// event replayed from nothing with every state and mail digest reproduced,
// every order signature checked again at its recorded time (when v is not
// nil), and every roll checked against the dice secret when it is known
// (published by GameEnded, or in the game directory). The first problem is
// an error naming the seq where it starts.
func VerifyPath(path string, v Verifier) (VerifyReport, error) {
	return VerifyPathContext(context.Background(), path, v)
}

// VerifyPathContext is VerifyPath within ctx: when ctx ends, the
// resolution being replayed stops, and the verification with it.
func VerifyPathContext(ctx context.Context, path string, v Verifier) (VerifyReport, error) {
	rep := VerifyReport{Path: path}
	f, gdir, err := openChainedLog(path, &rep)
	if err != nil {
		return rep, err
	}
	defer f.Close()
	logPath := rep.Path
	var secret []byte
	if gdir != "" {
		if s, err := ReadSecret(gdir); err == nil {
			secret = s
		}
	}
	g := NewGame(TemplateRenderer{}, true)
	g.SetContext(ctx)
	secret, err = replayVerifying(g, f, logPath, v, &rep, secret)
	if err != nil {
		return rep, err
	}
	rep.Game, rep.Ended, rep.Phases, rep.Software = g.ID, g.Ended != nil, g.Resolved, g.Created.Software
	rep.Ruleset, rep.Revision, rep.Unrendered = g.Created.Ruleset, g.Revision(), g.Unrendered
	if secret != nil {
		if c := sha256.Sum256(secret); hex.EncodeToString(c[:]) != g.Created.SecretCommitment {
			return rep, fmt.Errorf("verify %s: the dice secret of the game directory does not match the commitment of GameCreated", logPath)
		}
		if err := checkRolls(g, secret, &rep); err != nil {
			return rep, fmt.Errorf("verify %s: %w", logPath, err)
		}
	}
	return rep, nil
}

// openChainedLog opens the log of path (a game directory or a log file)
// once its hash chain verifies, read from its start; it notes the log's
// path and a torn tail in rep, and returns the game directory if there is
// one.
func openChainedLog(path string, rep *VerifyReport) (*os.File, string, error) {
	logPath, gdir, err := logOf(path)
	if err != nil {
		return nil, "", err
	}
	rep.Path = logPath
	f, err := os.Open(logPath)
	if err != nil {
		return nil, "", fmt.Errorf("verify: %w", err)
	}
	sum, err := events.Verify(f)
	if err != nil {
		f.Close()
		return nil, "", fmt.Errorf("verify %s: %w", logPath, err)
	}
	rep.TornTail = sum.TornTail
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, "", err
	}
	return f, gdir, nil
}

// replayVerifying replays the log onto g, each record checked canonical
// and its signature checked again; it returns the dice secret to check the
// rolls with: the one GameEnded published, else secret.
func replayVerifying(g *Game, f io.Reader, logPath string, v Verifier, rep *VerifyReport, secret []byte) ([]byte, error) {
	for ev, err := range events.NewReader(f, logPath).All() {
		if err != nil {
			return nil, fmt.Errorf("verify %s: %w", logPath, err)
		}
		if err := checkCanonical(ev); err != nil {
			return nil, fmt.Errorf("verify %s: %w", logPath, err)
		}
		if err := verifyEvent(g, ev, v, rep); err != nil {
			return nil, fmt.Errorf("verify %s: %w", logPath, err)
		}
		if err := g.Apply(ev); err != nil {
			if g.Created.Software != "" {
				err = fmt.Errorf("%w (the game was created by skagerrak %s; its rules may differ from this build's)", err, g.Created.Software)
			}
			return nil, fmt.Errorf("verify %s: %w", logPath, err)
		}
		rep.Events = ev.Seq
		if ev.Type == EvGameEnded {
			sec, _ := hex.DecodeString(g.Ended.Secret)
			secret = sec
		}
	}
	return secret, nil
}

// verifyEvent checks again the signature of a signed record (orders, a
// referee's or a player's mail): the recorded text must be what the
// signed message holds, signed by the side's key at the recorded time.
func verifyEvent(g *Game, ev events.Event, v Verifier, rep *VerifyReport) error {
	if v == nil || (ev.Type != EvOrdersAccepted && ev.Type != EvRefereeMail && ev.Type != EvPlayerMail) {
		return nil
	}
	a, signed, err := signedRecord(ev)
	if err != nil {
		return &ReplayError{Seq: ev.Seq, Type: ev.Type, Reason: err.Error()}
	}
	if !signed {
		return nil
	}
	p, ok := g.Player(a.Side)
	if !ok {
		return &ReplayError{Seq: ev.Seq, Type: ev.Type, Reason: "orders of an unknown side " + string(a.Side)}
	}
	ks, err := v.Keys([]string{p.Key})
	if err != nil {
		return &ReplayError{Seq: ev.Seq, Type: ev.Type, Reason: err.Error()}
	}
	got, err := verifyRecorded(v, a, ks, ev)
	if err != nil {
		return &ReplayError{Seq: ev.Seq, Type: ev.Type, Reason: "the signature does not verify: " + err.Error()}
	}
	if reason := recordedMismatch(a, got); reason != "" {
		return &ReplayError{Seq: ev.Seq, Type: ev.Type, Reason: reason}
	}
	rep.Signatures++
	return nil
}

// signedRecord reads a record whose signature is checked as the orders it
// amounts to; signed is false when there is nothing to check (unsigned
// orders, a player's mail not kept whole).
func signedRecord(ev events.Event) (a OrdersAccepted, signed bool, err error) {
	switch ev.Type {
	case EvPlayerMail:
		// A player's commands are checked like orders when the mail is
		// kept (a large one keeps only its size and digest).
		var m PlayerMail
		if err := decode(ev, &m); err != nil {
			return a, false, err
		}
		if (len(m.Raw) == 0 && m.Source != "file") || m.TextBytes != 0 {
			return a, false, nil
		}
		a = OrdersAccepted{Side: m.Side, Text: m.Text, Source: m.Source, Signature: m.Signature, Raw: m.Raw, Fingerprint: m.Fingerprint, Key: m.Key, Charset: m.Charset}
	case EvRefereeMail:
		// A referee's commands are checked like orders: by the referee's
		// key, at the recorded time, against the mail kept in the log.
		var r RefereeMail
		if err := decode(ev, &r); err != nil {
			return a, false, err
		}
		a = OrdersAccepted{Side: Referee, Text: r.Text, Source: r.Source, Signature: r.Signature, Raw: r.Raw, Fingerprint: r.Fingerprint, Key: r.Key, Charset: r.Charset}
		if a.Source == "" {
			a.Source = "mail"
		}
	default:
		if err := decode(ev, &a); err != nil {
			return a, false, err
		}
	}
	return a, a.Source != "unsigned", nil
}

// verifyRecorded verifies the signed message kept in the record with keys
// ks at the record's time.
func verifyRecorded(v Verifier, a OrdersAccepted, ks KeySet, ev events.Event) (Verified, error) {
	var got Verified
	var err error
	if a.Source == "mail" {
		got, err = v.VerifyMail(a.Raw, ks, ev.Time)
	} else if a.Signature == "" {
		got, err = v.VerifyFile(a.Raw, "", ks, ev.Time)
	} else {
		got, err = v.VerifyFile([]byte(a.Text), a.Signature, ks, ev.Time)
	}
	var refused *RefusedSigned
	if errors.As(err, &refused) && !canonicalKey(a.Key) {
		// Recorded before this build refused such text: the signature
		// verified, which is what is checked of it.
		got, err = refused.Verified, nil
	}
	return got, err
}

// recordedMismatch says how the recorded orders differ from what the
// signed message holds, or "" if they do not.
func recordedMismatch(a OrdersAccepted, got Verified) string {
	key := got.Key
	if !canonicalKey(a.Key) {
		key = got.PacketKey // recorded by a build before canonical identities
	}
	// Orders decoded from a charset are decoded again the same way (the
	// one the signed part declares, or Windows-1252 for text that is not
	// UTF-8 under a label outside the signature); orders recorded without
	// one are the signed bytes as they came (so are those of logs written
	// before charsets were decoded).
	want := string(got.Signed)
	if a.Charset != "" {
		if !strings.EqualFold(got.Charset, a.Charset) {
			return fmt.Sprintf("the orders were decoded from %s, but the signed message is read as %q", a.Charset, got.Charset)
		}
		want = got.text()
	}
	if want != a.Text || got.Fingerprint != a.Fingerprint || key != a.Key {
		return "the recorded orders are not what the signed message holds"
	}
	return ""
}

// checkRolls recomputes every seeded roll from the secret.
func checkRolls(g *Game, secret []byte, rep *VerifyReport) error {
	for _, pr := range g.History {
		if g.Created.Dice == "manual" {
			continue // supplied dice, checked against DiceAdded by replay
		}
		od, err := hex.DecodeString(pr.OrdersDigest)
		if err != nil || len(od) != 32 {
			return fmt.Errorf("phase %s: bad orders digest", pr.Phase)
		}
		var d [32]byte
		copy(d[:], od)
		dice := engine.NewSeededDice(secret, g.ID, pr.Phase, d)
		for i, r := range pr.Rolls {
			if got := dice.Roll(r.Sides, r.Why); got != r.Value {
				return &ReplayError{Seq: pr.Seq, Type: EvPhaseResolved, Reason: fmt.Sprintf("phase %s: roll %d (%s) is %d in the log, but the committed dice give %d", pr.Phase, i+1, r.Why, r.Value, got)}
			}
			rep.Rolls++
		}
	}
	setup := engine.NewSeededDice(secret, g.ID, "setup", [32]byte{})
	for i, r := range g.Created.SetupRolls {
		if got := setup.Roll(r.Sides, r.Why); got != r.Value {
			return &ReplayError{Seq: 1, Type: EvGameCreated, Reason: fmt.Sprintf("set-up roll %d (%s) is %d in the log, but the committed dice give %d", i+1, r.Why, r.Value, got)}
		}
		rep.Rolls++
	}
	rep.RollsChecked = true
	return nil
}
