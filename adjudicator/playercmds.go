package adjudicator

import (
	"fmt"
	"net/mail"
	"strings"
	"time"

	"skagerrak/engine"
	"skagerrak/events"
)

// Events of a player's mail commands.
const (
	// EvPlayerMail records a signed mail of a player's commands and no
	// order file; its commands follow as PlayerCommand events.
	EvPlayerMail = "PlayerMail"
	// EvPlayerCommand records one command of a player's signed mail.
	EvPlayerCommand = "PlayerCommand"
)

// Mail kinds of the answers to players' commands.
const (
	// MailAnswer answers one command (help, status, history, address, or
	// one that could not be done).
	MailAnswer = "answer"
	// MailResend is a report sent again, as it was first sent.
	MailResend = "resend"
)

// MaxCommandsPerMail is how many command lines at the top of one mail are
// read as commands; each counts one reply (see MaxRepliesPerPhase).
const MaxCommandsPerMail = 5

// playerCommands are the commands a player may mail, with how many
// arguments each takes at most.
var playerCommands = map[string]int{"help": 0, "resend": 1, "status": 0, "history": 0, "address": 1}

// PlayerCommandHelp lists the players' mail commands, one per line.
const PlayerCommandHelp = `help              this game's player's guide
resend [PHASE]    your report again, as it was sent: the latest, or the
                  one sent when PHASE resolved ("resend start": the first)
status            the open phase, its deadline, who owes orders, yours
history           your phases, one line each
address NEW       your mail goes to NEW from now on (both are told)`

// PlayerMail is a signed mail of commands only (see EvPlayerMail). Its
// fields are as in RefereeMail; the mail is kept whole only while it is
// small (see MaxRejectedRaw), else its size and digest.
type PlayerMail struct {
	Side        engine.Side `json:"side"`
	Text        string      `json:"text"`
	Source      string      `json:"source,omitempty"`
	Signature   string      `json:"signature,omitempty"`
	Raw         []byte      `json:"raw,omitempty"`
	RawBytes    int         `json:"raw_bytes,omitempty"`
	RawSHA256   string      `json:"raw_sha256,omitempty"`
	Fingerprint string      `json:"fingerprint"`
	Key         string      `json:"key"`
	SigTime     time.Time   `json:"sig_time,omitempty"`
	Charset     string      `json:"charset,omitempty"`
	// TextBytes is set when Text is only the start of the text: its whole
	// size (the mail is then not kept, and verify cannot check it).
	TextBytes int `json:"text_bytes,omitempty"`
}

// PlayerCommand is one command of a player's signed mail (see
// EvPlayerCommand). It is answered by mail unless the reply limit
// withholds the answer.
type PlayerCommand struct {
	Side engine.Side `json:"side"`
	// Line is the command as read.
	Line string `json:"line"`
	// Message is the key of the mail it came in; N its number there.
	Message string `json:"message"`
	N       int    `json:"n"`
	// Fingerprint is the signer's key, whose replies it counts in.
	Fingerprint string `json:"fingerprint"`
	// Report is the Message-ID of the report resent, for resend.
	Report string `json:"report,omitempty"`
	// Address and Was are the new and old addresses, for an address
	// command that was done.
	Address string `json:"address,omitempty"`
	Was     string `json:"was,omitempty"`
	// Refused says why the command could not be done; the answer says so.
	Refused string `json:"refused,omitempty"`
	// Games lists the other open games of the signer when the mail named
	// none: the answer says to name one.
	Games []string `json:"games,omitempty"`
	// Unread counts the lines under the commands that were not read (text
	// without an order file's header).
	Unread int `json:"unread,omitempty"`
	// Unanswered says why no answer was queued (the reply limit).
	Unanswered string `json:"unanswered,omitempty"`
	// Sides are the sides a status, history or address command answers
	// for when the signer's key holds several (Kampen's two-player game)
	// and the command named none of them; empty means Side alone.
	Sides []engine.Side `json:"sides,omitempty"`
}

// sides returns the sides the command is for.
func (c PlayerCommand) sides() []engine.Side {
	if len(c.Sides) > 0 {
		return c.Sides
	}
	return []engine.Side{c.Side}
}

// about is the identity a command's answers name (MailQueued.About).
func (c PlayerCommand) about() string { return fmt.Sprintf("%s#%d", c.Message, c.N) }

// sentReport is a report the game queued for a side, kept with the game
// as it stood so that it can be sent again as it was.
type sentReport struct {
	Queued MailQueued
	// Seq is the seq of its MailQueued record.
	Seq uint64
	// Open is the phase open when it was queued ("" after the end).
	Open   string
	frozen *Game
}

// reportsOf returns the reports queued for a side, oldest first.
func (g *Game) reportsOf(side engine.Side) []*sentReport {
	var out []*sentReport
	for _, r := range g.reports {
		if r.Queued.Side == side {
			out = append(out, r)
		}
	}
	return out
}

// findReport returns the report of a side that a resend names: "" the
// latest, "start" the first, else the one sent when PHASE resolved.
func (g *Game) findReport(side engine.Side, phase string) *sentReport {
	rs := g.reportsOf(side)
	switch {
	case len(rs) == 0:
		return nil
	case phase == "":
		return rs[len(rs)-1]
	}
	for _, r := range rs {
		if strings.EqualFold(r.Queued.Phase, phase) || (r.Queued.Phase == "" && strings.EqualFold(phase, "start")) {
			return r
		}
	}
	return nil
}

// reportByID returns the report queued with a Message-ID.
func (g *Game) reportByID(id string) *sentReport {
	for _, r := range g.reports {
		if r.Queued.ID == id {
			return r
		}
	}
	return nil
}

// playerMail carries out the commands at the top of a player's signed
// mail, and submits the order file under them, if any. Each command is
// recorded and answered in turn, within the side's reply limit.
func (g *Game) playerMail(p playerFile, sub Submission, side engine.Side, now time.Time, emit Emit) (Outcome, error) {
	others := sub.Others
	if g.Ended != nil {
		return g.reject(sub, side, "", "the game is over", nil, now, emit)
	}
	if reason := g.signingOrder(sub); reason != "" {
		return g.reject(sub, side, "", reason, nil, now, emit)
	}
	out := Outcome{Status: StatusAnswered, Side: side}
	key := sub.Key
	if key == "" {
		key = textKey(sub.Text, now)
	}
	if p.Header {
		// The orders under the commands are the message's record.
		var err error
		if out, err = g.submitFile(p, sub, side, now, emit); err != nil {
			return Outcome{}, err
		}
		others = nil // the order file named its game
	} else {
		m := PlayerMail{Side: side, Text: sub.Text, Source: sub.Source, Signature: sub.Signature, Raw: sub.Raw, Fingerprint: sub.Fingerprint, Key: key, SigTime: sub.SigTime, Charset: sub.Charset}
		if len(m.Raw) > 0 {
			m.RawBytes, m.RawSHA256 = len(m.Raw), digestText(string(m.Raw))
		}
		if len(m.Raw) > MaxRejectedRaw {
			m.Raw = nil
		}
		if t := fitJSON(m.Text, MaxRejectedText); t != m.Text {
			m.Text, m.TextBytes, m.Raw = t, len(m.Text), nil
		}
		if err := emit(EvPlayerMail, m); err != nil {
			return Outcome{}, err
		}
	}
	for i, l := range p.Commands {
		c := PlayerCommand{Side: side, Line: l.Text, Message: key, N: i + 1, Fingerprint: sub.Fingerprint, Games: others}
		if !p.Header {
			c.Unread = p.Other
		}
		g.prepare(&c, l.Fields, sub)
		if err := g.command(c, emit); err != nil {
			return Outcome{}, err
		}
	}
	return out, nil
}

// SharedKeyHelp tells a player whose key holds more than one side how
// the commands choose between them.
const SharedKeyHelp = `Your key holds more than one side: name the side after the command
(history allied, resend norwegian T03, address allied NEW); status,
history and address without one answer for all your sides.`

// heldSides returns the sides registered to the key with fingerprint, in
// the game's order of sides.
func (g *Game) heldSides(fingerprint string) []engine.Side {
	var out []engine.Side
	for _, s := range g.Sides() {
		if g.Holds(fingerprint, s) {
			out = append(out, s)
		}
	}
	return out
}

// chooseSide takes a side named as a command's first argument, where the
// signer's key holds several: the command is then for that side alone.
// Without one, status, history and address are for all the key's sides;
// resend needs the side named, since each side has its own reports.
func (g *Game) chooseSide(c *PlayerCommand, name string, args []string) ([]string, string) {
	held := g.heldSides(c.Fingerprint)
	if len(held) < 2 {
		return args, ""
	}
	if len(args) > 0 {
		for _, s := range held {
			if strings.EqualFold(args[0], string(s)) {
				c.Side = s
				return args[1:], ""
			}
		}
	}
	switch name {
	case "resend":
		return args, fmt.Sprintf("your key holds sides %s, each with its own reports: name the side, e.g. resend %s %s", joinSides(held), held[len(held)-1], strings.Join(args, " "))
	case "status", "history", "address":
		c.Sides = held
	}
	return args, ""
}

// prepare decides what a command does, from the game as it stands.
func (g *Game) prepare(c *PlayerCommand, f []string, sub Submission) {
	name, args := strings.ToLower(f[0]), f[1:]
	args, refused := g.chooseSide(c, name, args)
	if refused != "" {
		c.Refused = strings.TrimSpace(refused)
		return
	}
	if max := playerCommands[name]; len(args) > max {
		c.Refused = fmt.Sprintf("%s takes %s; usage:\n%s", name, plural(max, "argument"), PlayerCommandHelp)
		return
	}
	switch name {
	case "resend":
		phase := ""
		if len(args) == 1 {
			phase = args[0]
		}
		if r := g.findReport(c.Side, phase); r != nil {
			c.Report = r.Queued.ID
		} else {
			c.Refused = fmt.Sprintf("no report of phase %q was sent to you", phase)
		}
	case "address":
		if len(args) == 0 {
			c.Refused = "address needs the new address, e.g. address you@example.org"
			return
		}
		if err := checkAddress(args[0]); err != nil {
			c.Refused = err.Error()
			return
		}
		if g.Opened == nil || (!sub.SigTime.IsZero() && sub.SigTime.Before(g.OpenedAt.Add(-ClockSkew))) {
			// An old signed request, sent again by someone who kept it,
			// must not move a player's mail.
			c.Refused = "a change of address counts only when signed while the phase it is sent in is open: sign it again"
			return
		}
		p, _ := g.Player(c.Side)
		c.Address, c.Was = args[0], p.Address
		if strings.EqualFold(c.Address, c.Was) {
			c.Refused = "your mail already goes to " + c.Was
			c.Address, c.Was = "", ""
		}
	}
}

// checkAddress says why a player's new address cannot be used, or nil.
func checkAddress(s string) error {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" || len(s) > 254 || strings.ContainsAny(s, "<>,; \t\"") {
		return fmt.Errorf("%q is not a mail address such as you@example.org", cutField(s, 80))
	}
	return nil
}

func plural(n int, what string) string {
	switch n {
	case 0:
		return "no " + what + "s"
	case 1:
		return "one " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// command records one command and queues its answers: a report sent
// again, an address moved (both addresses told), or the answer.
func (g *Game) command(c PlayerCommand, emit Emit) error {
	c.Unanswered = g.withheld(c.Fingerprint, false)
	if err := emit(EvPlayerCommand, c); err != nil {
		return err
	}
	if c.Unanswered != "" {
		return nil
	}
	switch {
	case c.Report != "":
		return g.queue(MailResend, c.Side, "", c.about(), emit)
	case c.Address != "":
		// The old address is told first, while it is the side's.
		if err := g.queue(MailAnswer, c.Side, "", c.about(), emit); err != nil {
			return err
		}
		for _, s := range c.sides() {
			p, _ := g.Player(s)
			p.Address = c.Address
			ch := SideChanged{Player: p, By: "side " + string(c.Side) + " (signed mail)", Why: "the player moved their address"}
			if err := emit(EvSideChanged, ch); err != nil {
				return err
			}
		}
	}
	return g.queue(MailAnswer, c.Side, "", c.about(), emit)
}

// applyPlayer folds the events of players' commands.
func (g *Game) applyPlayer(ev events.Event) error {
	switch ev.Type {
	case EvPlayerMail:
		var d PlayerMail
		if err := g.decode(ev, &d); err != nil {
			return err
		}
		if err := g.noteKey(ev.Seq, ev.Type, d.Key); err != nil {
			return err
		}
		if err := g.checkSigTime(d.Fingerprint, d.SigTime, canonicalKey(d.Key)); err != nil {
			return err
		}
		g.noteLegacy(d.Key, d.Fingerprint, d.SigTime, d.Text)
		g.noteSigned(d.Fingerprint, d.SigTime)
	case EvPlayerCommand:
		var d PlayerCommand
		if err := g.decode(ev, &d); err != nil {
			return err
		}
		if _, ok := g.Players[d.Side]; !ok {
			return fmt.Errorf("a command of side %q, which the game does not have", d.Side)
		}
		if d.Report != "" && g.reportByID(d.Report) == nil {
			return fmt.Errorf("resends report %s, which was never queued for %s", d.Report, d.Side)
		}
		if err := g.countReply(d.Fingerprint, d.about(), d.Unanswered, false); err != nil {
			return err
		}
		g.lastCommand = &d
	case EvUnsignedAnswered:
		var d UnsignedAnswered
		if err := g.decode(ev, &d); err != nil {
			return err
		}
		g.toldUnsigned[remindKey(d.Phase, d.Side)] = true
	}
	return nil
}
