package adjudicator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"

	"skagerrak/engine"
)

// keySet returns the parsed keys of every player and referee of every game
// that is not over.
func (h *Host) keySet() (KeySet, error) {
	if h.keysOK {
		return h.keys, nil
	}
	var armored []string
	seen := map[string]bool{}
	for _, id := range h.idsLocked() {
		g := h.games[id].g
		if g.Ended != nil {
			continue
		}
		ps := make([]Player, 0, len(g.Players)+1)
		for _, s := range g.Sides() {
			ps = append(ps, g.Players[s])
		}
		if g.Referee != nil {
			ps = append(ps, *g.Referee)
		}
		for _, p := range ps {
			if !seen[p.Fingerprint] {
				seen[p.Fingerprint] = true
				armored = append(armored, p.Key)
			}
		}
		// Keys the referee replaced still verify what they signed before,
		// so that such a message seen again is known for a duplicate.
		for _, p := range g.former {
			if !seen[p.Fingerprint] {
				seen[p.Fingerprint] = true
				armored = append(armored, p.Key)
			}
		}
	}
	for _, p := range h.asidePlayers() {
		if !seen[p.Fingerprint] {
			seen[p.Fingerprint] = true
			armored = append(armored, p.Key)
		}
	}
	ks, err := h.verifier.Keys(armored)
	if err != nil {
		return nil, err
	}
	h.keys, h.keysOK = ks, true
	return ks, nil
}

// gamesOf returns the games where a key is registered (for a side or as
// the referee), sorted, from an index rebuilt when registrations change.
func (h *Host) gamesOf(fingerprint string) []string {
	h.indexKeys()
	return h.byFP[fingerprint]
}

// formerGamesOf returns the games where a key was registered and was
// replaced since, sorted: what it signed may be recorded there.
func (h *Host) formerGamesOf(fingerprint string) []string {
	h.indexKeys()
	return h.byFormer[fingerprint]
}

// indexKeys rebuilds the index of registered and former keys when
// registrations changed.
func (h *Host) indexKeys() {
	if h.byFPOK {
		return
	}
	h.byFP, h.byFormer = map[string][]string{}, map[string][]string{}
	for _, id := range h.idsLocked() {
		g := h.games[id].g
		for _, s := range g.Sides() {
			fp := g.Players[s].Fingerprint
			h.byFP[fp] = append(h.byFP[fp], id)
		}
		if g.Referee != nil {
			h.byFP[g.Referee.Fingerprint] = append(h.byFP[g.Referee.Fingerprint], id)
		}
		for _, p := range g.former {
			h.byFormer[p.Fingerprint] = append(h.byFormer[p.Fingerprint], id)
		}
	}
	h.byFPOK = true
}

// Receipt is what became of one received message.
type Receipt struct {
	Outcome
	// Game is the game it went to, "" if none.
	Game string
	// Moved says where the message goes: "processed" or "rejected".
	Moved string
	// Seq is, for a duplicate, the record of the message in Game (0 for
	// one recorded before canonical identities, known by its content).
	Seq uint64
}

// Receive takes one raw message from the mailbox: verifies it, routes it to
// its game by the order file's header, submits it, and resolves what that
// completes. Unsigned mail, a bad signature or an unknown key is rejected
// with no event and no reply (no backscatter); of that, automatic mail is
// triaged (a bounce of the host's own mail is recorded), and mail a person
// wrote from a player's registered address gets one answer a phase, at
// that address, saying how to sign (unsignedFrom). Mail signed by a
// known key is never taken for automatic mail, whatever its header says.
// Each outcome is durable in a game log before Receive returns, so the
// caller may then move the message. Receive judges deadlines by the
// clock, as a command does; the daemon's pass judges them by the mailbox
// (see receiveMail).
func (h *Host) Receive(raw []byte) (Receipt, error) {
	return h.receiveMail(InMessage{Raw: raw}, time.Time{}, true)
}

// receiveMail is Receive for a message read in a pass: m.Received (the
// server's INTERNALDATE) decides lateness, and a phase resolves for its
// deadline only if read, the start of the last complete read of the
// mailbox, is past it (byClock: judged by the clock instead).
func (h *Host) receiveMail(m InMessage, read time.Time, byClock bool) (Receipt, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.verifier == nil {
		return Receipt{}, errors.New("adjudicator: no verifier")
	}
	raw := m.Raw
	now := h.clock.Now()
	if byClock {
		read = now
	}
	ks, err := h.keySet()
	if err != nil {
		return Receipt{}, err
	}
	// The signature first: what it covers is the player's, whatever the
	// header around it says. A list or relay may add Auto-Submitted or
	// Precedence to a player's mail, and anyone may add them to a copy;
	// neither may drop orders. Only mail no known key signed is looked at
	// as automatic mail (a bounce, a vacation reply).
	// Mail encrypted to the host is decrypted first, and from then on is
	// the decrypted message: taken as the same mail sent signed in clear.
	var encrypted bool
	if h.decrypt != nil {
		clear, enc, err := h.decrypt.DecryptMail(raw, now)
		if err != nil {
			return h.unreadableEncrypted(m, "the mail is encrypted, but the host cannot decrypt it: "+err.Error(), now, read)
		}
		if enc {
			raw, encrypted = clear, true
		}
	}
	v, err := h.verifier.VerifyMail(raw, ks, now)
	var refused *RefusedSigned
	if errors.As(err, &refused) {
		// Signed by a known key but unreadable: refused with a reply.
		return h.route(refusedSubmission(refused, raw, m.Received, encrypted), now, read)
	}
	if err != nil && encrypted {
		return h.unreadableEncrypted(m, "the mail was decrypted, but what it holds is not orders signed by a key registered in the game ("+err.Error()+
			"): sign the mail as well as encrypting it, with the key you registered (mutt: crypt_autosign; Thunderbird: Digitally Sign This Message; gpg: --encrypt --sign)", now, read)
	}
	if err != nil {
		return h.unverified(raw, err, now)
	}
	sub := Submission{Text: v.text(), Source: "mail", Raw: raw, Fingerprint: v.Fingerprint, Key: v.Key, PacketKey: v.PacketKey, SigTime: v.SigTime, Charset: v.Charset, Ignored: v.Ignored, Received: m.Received,
		Encrypted: encrypted}
	return h.route(sub, now, read)
}

// refusedSubmission is the submission of mail a known key signed that is
// refused (unreadable orders), for its refusal to be recorded and answered.
func refusedSubmission(refused *RefusedSigned, raw []byte, received time.Time, encrypted bool) Submission {
	sub := Submission{Text: refused.text(), Source: "mail", Raw: raw, Fingerprint: refused.Fingerprint, Key: refused.Key, PacketKey: refused.PacketKey, SigTime: refused.SigTime, Ignored: refused.Ignored, Refusal: refused.Reason, Received: received,
		Encrypted: encrypted}
	if refused.Around {
		// Anyone may wrap a copy of a signed message: the refusal is
		// this mail's, and the message sent as made still counts.
		sum := sha256.Sum256(raw)
		sub.Key, sub.PacketKey, sub.Text = "mail1:"+hex.EncodeToString(sum[:]), "", ""
	}
	return sub
}

// unverified answers mail no known key signed (verr says why): automatic
// mail goes to its handling, and the rest is rejected, with word how to
// sign to a player's address.
func (h *Host) unverified(raw []byte, verr error, now time.Time) (Receipt, error) {
	if h.triage != nil {
		a := h.triage.Triage(raw)
		if a.Auto {
			return h.automatic(a)
		}
		// Mail a person wrote from a player's address, unsigned:
		// told how to sign, once a phase, at that address only.
		from := ""
		if errors.Is(verr, ErrUnsigned) {
			from = a.From
		}
		if game, err2 := h.unsignedFrom(from, now); err2 != nil {
			return Receipt{}, err2
		} else if game != "" {
			return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: verr.Error()}, Game: game, Moved: "rejected"}, nil
		}
	}
	return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: verr.Error()}, Moved: "rejected"}, nil
}

// unreadableEncrypted answers encrypted mail no known key is found to have
// signed (encrypted to a key the host does not hold, or not signed inside
// by a registered key) only where that makes no backscatter: when its From
// is the registered address of a side in an open game, the refusal is
// recorded in that game and the reply goes to that address alone (counted
// as the side's stray mail, so that forged From lines get few replies).
// Anything else is rejected without a reply. A copy met again is a
// duplicate (the record's key is the mail's digest).
func (h *Host) unreadableEncrypted(m InMessage, reason string, now, read time.Time) (Receipt, error) {
	p, ok := h.playerByAddress(fromAddress(m.Raw))
	if !ok {
		return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: reason}, Moved: "rejected"}, nil
	}
	sum := sha256.Sum256(m.Raw)
	sub := Submission{Source: "mail", Raw: m.Raw, Fingerprint: p.Fingerprint, Key: "enc1:" + hex.EncodeToString(sum[:]), Refusal: reason, Received: m.Received,
		Encrypted: true, ByAddress: true}
	return h.route(sub, now, read)
}

// playerByAddress finds the side of an open game (the referee too)
// registered at addr, in the order of the games' ids.
func (h *Host) playerByAddress(addr string) (Player, bool) {
	if addr == "" {
		return Player{}, false
	}
	for _, id := range h.idsLocked() {
		g := h.games[id].g
		if g.Ended != nil {
			continue
		}
		ps := make([]Player, 0, len(g.Players)+1)
		for _, s := range g.Sides() {
			ps = append(ps, g.Players[s])
		}
		if g.Referee != nil {
			ps = append(ps, *g.Referee)
		}
		for _, p := range ps {
			if strings.EqualFold(fromAddress([]byte("From: "+p.Address+"\r\n\r\n")), addr) {
				return p, true
			}
		}
	}
	return Player{}, false
}

// fromAddress is the one address of a message's From field, "" when it
// has none, several, or more than one From field.
func fromAddress(raw []byte) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil || len(m.Header["From"]) != 1 {
		return ""
	}
	list, err := m.Header.AddressList("From")
	if err != nil || len(list) != 1 {
		return ""
	}
	return list[0].Address
}

// namedGame is the game a player's text names: its order file's, or the
// Game: line under its commands; "" if none.
func namedGame(text string) string {
	p := readPlayerFile(text)
	if p.Err == nil {
		return p.Game
	}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(unquoteLine(l))
		if headerKey(t) == "game" {
			_, v, _ := strings.Cut(t, ":")
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// route sends an authenticated submission to the game its header names;
// what it completes resolves, a deadline judged at read (see TickRead).
func (h *Host) route(sub Submission, now, read time.Time) (Receipt, error) {
	if sub.Source != "unsigned" {
		// Whether the message is recorded already can only be told from
		// every game its key plays.
		if err := h.openRest(); err != nil {
			return Receipt{}, err
		}
	}
	mine, dup, seen := h.recordedIn(sub)
	if seen {
		return dup, nil
	}
	if err := h.heldAside(sub, mine); err != nil {
		return Receipt{}, err
	}
	if len(mine) == 0 && sub.Source != "unsigned" {
		return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: "the signing key " + sub.Fingerprint + " is not registered in any open game"}, Moved: "rejected"}, nil
	}
	target := ""
	if name := namedGame(sub.Text); name != "" {
		if _, ok := h.games[name]; ok {
			target = name
		}
	}
	if sub.Source == "unsigned" && target == "" {
		return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: "the order file names no game of this host"}, Moved: "rejected"}, nil
	}
	if target == "" || (sub.Source != "unsigned" && !contains(mine, target)) {
		// The header names no game of this signer: the rejection is
		// recorded, and answered, in a game the signer does play.
		target = mine[0]
		if len(mine) > 1 {
			sub.Others = mine[1:]
		}
	}
	return h.submitRouted(sub, target, now, read)
}

// recordedIn looks for the message in every game the signer plays, or
// played before the referee gave the side another key: one recorded
// already is only moved (its outcome is recorded in one of them, whatever
// its header says), and seen is true with its receipt. Otherwise mine
// lists the open games the signer plays now.
func (h *Host) recordedIn(sub Submission) (mine []string, dup Receipt, seen bool) {
	current := h.gamesOf(sub.Fingerprint)
	for i, id := range slices.Concat(current, h.formerGamesOf(sub.Fingerprint)) {
		g := h.games[id].g
		if g.seen(sub) {
			moved := "processed"
			if g.SeenRejected(sub.Key) || g.SeenRejected(sub.PacketKey) {
				moved = "rejected" // a rejected message always ends there
			}
			return nil, Receipt{Outcome: Outcome{Status: StatusDuplicate}, Game: id, Moved: moved, Seq: g.recordOf(sub)}, true
		}
		if i < len(current) && g.Ended == nil {
			mine = append(mine, id)
		}
	}
	return mine, Receipt{}, false
}

// submitRouted submits to the target game and resolves what it completes,
// a deadline judged at read; the receipt says where the message moves.
func (h *Host) submitRouted(sub Submission, target string, now, read time.Time) (Receipt, error) {
	hg := h.games[target]
	hg.g.judgedAt = &read // a referee's command in it judges so too
	defer func() { hg.g.judgedAt = nil }()
	var out Outcome
	err := h.act(hg, func(emit Emit) error {
		var err error
		if out, err = hg.g.Submit(sub, now, emit); err != nil {
			return err
		}
		_, err = hg.g.TickRead(now, read, emit)
		return err
	})
	if err != nil {
		return Receipt{}, err
	}
	moved := "processed"
	if out.Status == StatusRejected {
		moved = "rejected"
	}
	r := Receipt{Outcome: out, Game: target, Moved: moved}
	if out.Status == StatusDuplicate {
		// Another daemon recorded it meanwhile (it came in with the hold).
		r.Seq = hg.g.recordOf(sub)
		if hg.g.SeenRejected(sub.Key) || hg.g.SeenRejected(sub.PacketKey) {
			r.Moved = "rejected"
		}
	}
	return r, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// SubmitFile submits an order file from the command line: signed (a
// cleartext-signed file, or a file and its detached signature), or, for a
// referee entering paper orders, unsigned and recorded as such.
func (h *Host) SubmitFile(game string, side engine.Side, data []byte, sig string, unsigned bool, by string) (Receipt, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hg, ok := h.games[game]
	if !ok {
		return Receipt{}, h.unknownGame(game)
	}
	now := h.clock.Now()
	if unsigned {
		if _, ok := hg.g.Players[side]; !ok {
			return Receipt{}, fmt.Errorf("adjudicator: game %s has no side %q; valid: %s", game, side, joinSides(hg.g.Sides()))
		}
		f, err := engine.ParseOrderFile(string(data))
		if err != nil {
			return Receipt{}, fmt.Errorf("adjudicator: %w", err)
		}
		if f.Side != side || f.Game != game {
			return Receipt{}, fmt.Errorf("adjudicator: the file says Game: %s, Side: %s; the command says %s, %s", f.Game, f.Side, game, side)
		}
		return h.route(Submission{Text: string(data), Source: "unsigned", Side: side, By: by}, now, now)
	}
	if h.verifier == nil {
		return Receipt{}, errors.New("adjudicator: no verifier")
	}
	ks, err := h.keySet()
	if err != nil {
		return Receipt{}, err
	}
	v, err := h.verifier.VerifyFile(data, sig, ks, now)
	var refused *RefusedSigned
	if errors.As(err, &refused) {
		return Receipt{}, fmt.Errorf("adjudicator: the file is refused: %s", refused.Reason)
	}
	if err != nil {
		return Receipt{}, fmt.Errorf("adjudicator: the file's signature does not verify: %w", err)
	}
	if !hg.g.Holds(v.Fingerprint, side) {
		return Receipt{}, fmt.Errorf("adjudicator: the file is signed by %s, which is not side %s's key in game %s", v.Fingerprint, side, game)
	}
	sub := Submission{Text: v.text(), Source: "file", Signature: sig, Fingerprint: v.Fingerprint, Key: v.Key, PacketKey: v.PacketKey, SigTime: v.SigTime}
	if sig == "" {
		sub.Raw = data // the cleartext-signed file, to check again in verify
	}
	return h.route(sub, now, now)
}
