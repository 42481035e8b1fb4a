package adjudicator

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"skagerrak/engine"
	"skagerrak/templates"
)

// Renderer turns a queued mail into its text. The default renders with the
// templates package from the game as it stands; tests may swap it.
type Renderer interface {
	Render(g *Game, q MailQueued) (Mail, error)
}

// TemplateRenderer renders with the embedded templates.
type TemplateRenderer struct{}

func (g *Game) render(q MailQueued) (Mail, error) {
	var (
		m   Mail
		err error
	)
	if q.Kind == MailResend {
		m, err = g.resendMail(q)
	} else {
		m, err = g.renderer.Render(g, q)
	}
	if err != nil {
		return Mail{}, err
	}
	m.ID, m.To, m.Kind = q.ID, q.To, q.Kind
	if p, ok := g.Player(q.Side); ok && (g.Created.Encrypt || g.encrypts[q.Side]) {
		m.Encrypt, m.Key = true, p.Key
	}
	return m, nil
}

// noteEncrypted remembers that a side sent signed mail encrypted to the
// host: its mail is encrypted from then on (as in a game made with
// --encrypt), to the key it registered. Clear mail later does not undo it:
// once a player's client encrypts, nothing they read need cross the
// network in clear.
func (g *Game) noteEncrypted(side engine.Side, encrypted bool) {
	if encrypted && side != "" {
		g.encrypts[side] = true
	}
}

// overdueReply reports whether a reply is written after the open phase's
// deadline passed (orders read late): it promises no deadline to come.
func (g *Game) overdueReply(q MailQueued) bool {
	return q.rendered() >= overdueSince && g.Opened != nil && !g.Time.Before(g.dueAt())
}

// Render implements Renderer. Everything a side reads is taken from its
// View (engine.Ruleset.View), never from the full state; only the final
// report, once the game is over, reveals the state.
func (TemplateRenderer) Render(g *Game, q MailQueued) (Mail, error) {
	draft, ok := mailDrafts[q.Kind]
	if !ok {
		return Mail{}, fmt.Errorf("unknown mail kind %q", q.Kind)
	}
	d, err := draft(g, q)
	if err != nil {
		return Mail{}, err
	}
	text, err := templates.Render(d.name, d.data)
	if err != nil {
		return Mail{}, err
	}
	return Mail{Subject: d.subj, Text: text, Attachments: d.atts, picture: d.picture}, nil
}

// mailDraft is a mail before its text is rendered: the template and its
// data, the subject, the attachments, and the map picture, drawn only when
// the mail is sent (see Mail.Complete).
type mailDraft struct {
	name    string
	data    any
	subj    string
	atts    []Attachment
	picture func() (Attachment, error)
}

// mailDrafts drafts each kind of mail.
var mailDrafts = map[string]func(g *Game, q MailQueued) (mailDraft, error){
	MailReport:      reportDraft,
	MailAccepted:    acceptedDraft,
	MailRejected:    rejectedDraft,
	MailReminder:    reminderDraft,
	MailAnswer:      answerDraft,
	MailHowToSign:   howToSignDraft,
	MailFlag:        noticeDraft,
	MailNotice:      noticeDraft,
	MailUndelivered: undeliveredDraft,
	MailFinal:       finalDraft,
}

// openDeadline is the open phase's deadline, or the zero time if no phase
// is open.
func openDeadline(g *Game) time.Time {
	deadline := time.Time{}
	if g.Opened != nil {
		deadline = g.Opened.Deadline
	}
	return deadline
}

// reportDraft drafts a side's report: its view, what was resolved, the
// phase it owes orders for, the JSON copy, the guide on the first report
// and the map picture when the report carries one.
func reportDraft(g *Game, q MailQueued) (mailDraft, error) {
	v := g.Rules.View(g.State, q.Side)
	d := reportData{Game: g.ID, Title: g.Rules.Title(), Side: string(q.Side), Body: body(g.Rules, v, q.Side), Receipt: g.headReceipt(q)}
	if n := len(g.History); n > 0 {
		last := g.History[n-1]
		d.Resolved, d.Why = last.Phase, last.Why
		d.Defaulted = sideStrings(last.Defaulted)
	}
	if g.Opened != nil {
		d.Next, d.Deadline = g.Opened.Phase+": "+g.Opened.Title, g.Opened.Deadline
		d.Owes = sideStrings(g.Opened.Owes)
		if containsSide(g.Opened.Owes, q.Side) {
			d.Form = OrderForm(g, q.Side, v)
		}
	}
	m := mailDraft{name: "report.tmpl"}
	js, err := json.MarshalIndent(ReportJSON{Schema: ReportSchema, Game: g.ID, GameID: g.GameID(), Ruleset: g.Rules.Name(), Side: q.Side, Resolved: d.Resolved, Defaulted: last(g.History).Defaulted, Next: g.Opened, View: v, Receipt: d.Receipt}, "", " ")
	if err != nil {
		return mailDraft{}, err
	}
	m.atts = append(m.atts, Attachment{Name: "report.json", ContentType: "application/json", Data: append(js, '\n')})
	if d.Guide = g.firstReport(q); d.Guide {
		m.atts = append(m.atts, Attachment{Name: "guide.txt", ContentType: "text/plain; charset=utf-8", Data: []byte(guideText(g, q.Side))})
	}
	d.Map = g.carriesMap(q)
	if q.rendered() >= shortMailSince {
		d.MapNote = mapNote(g, q)
	}
	m.data = d
	if pic, ok := g.Rules.(engine.Picturer); ok && d.Map {
		m.picture = g.mapPicture(pic, q, v)
	}
	m.subj = reportSubject(g, q, d.Resolved)
	return m, nil
}

// mapPicture draws the side's map for a report when it is sent, and notes
// its checksum.
func (g *Game) mapPicture(pic engine.Picturer, q MailQueued, v engine.View) func() (Attachment, error) {
	side := q.Side
	return func() (Attachment, error) {
		png, err := pic.Picture(v, side)
		if err != nil {
			return Attachment{}, fmt.Errorf("drawing the map of %s: %w", side, err)
		}
		g.noteMapSum(q.ID, v, side, png)
		return Attachment{Name: "map.png", ContentType: "image/png", Data: png}, nil
	}
}

// acceptedDraft drafts the answer to accepted orders: the orders as read,
// with their receipt when there is one.
func acceptedDraft(g *Game, q MailQueued) (mailDraft, error) {
	o, ok := g.Orders[q.Side]
	if !ok || o.Key != q.About {
		return mailDraft{}, fmt.Errorf("no accepted orders %s of %s to answer", q.About, q.Side)
	}
	text := g.Rules.FormatOrders(g.State, q.Side, g.parsed[q.Side])
	form := fmt.Sprintf("Game: %s\n%sPhase: %s\nSide: %s\n%s", g.ID, gameIDLine(g), o.Phase, q.Side, text)
	m := mailDraft{name: "accepted.tmpl"}
	r := g.ordersReceipt(q, o)
	if r != nil {
		form = strings.TrimRight(form, "\n") // the receipt follows after one empty line
	}
	m.data = map[string]any{"Game": g.ID, "Phase": o.Phase, "Side": q.Side, "Orders": form, "Deadline": openDeadline(g), "Ignored": o.Ignored, "Quoted": quotedNote(o.Text, o.ReadTo),
		"Last": g.lastReply(o.Fingerprint, false), "Limit": MaxRepliesPerPhase, "Receipt": r, "Paper": o.Source == "unsigned", "By": o.By,
		"Overdue": g.overdueReply(q)}
	m.subj = fmt.Sprintf("[skagerrak] %s %s: orders accepted (%s)", g.ID, o.Phase, q.Side)
	if r != nil {
		a, err := r.attachment()
		if err != nil {
			return mailDraft{}, err
		}
		m.atts = append(m.atts, a)
	}
	return m, nil
}

// rejectedDraft drafts the answer to rejected orders, with each error.
func rejectedDraft(g *Game, q MailQueued) (mailDraft, error) {
	r := g.lastRejected
	if r == nil || r.Key != q.About {
		return mailDraft{}, fmt.Errorf("no rejection %s to answer", q.About)
	}
	var errs []string
	for _, e := range r.Errors {
		errs = append(errs, e.Error())
	}
	open := ""
	if g.Opened != nil {
		open = g.Opened.Phase
	}
	return mailDraft{
		name: "rejected.tmpl",
		data: map[string]any{"Game": g.ID, "Phase": r.Phase, "Side": q.Side, "Reason": r.Reason, "Errors": errs, "More": r.MoreErrors, "Open": open, "Deadline": openDeadline(g), "Quoted": quotedNote(r.Text, 0),
			"Ignored": r.Ignored, "Last": g.lastReply(r.Fingerprint, r.Stray), "Limit": replyLimit(r.Stray), "Stray": r.Stray,
			"Overdue": g.overdueReply(q)},
		subj: fmt.Sprintf("[skagerrak] %s: orders rejected (%s)", g.ID, q.Side),
	}, nil
}

// reminderDraft drafts the reminder that orders are due.
func reminderDraft(g *Game, q MailQueued) (mailDraft, error) {
	deadline := openDeadline(g)
	return mailDraft{
		name: "reminder.tmpl",
		data: map[string]any{"Game": g.ID, "Phase": q.Phase, "Side": q.Side, "Deadline": deadline},
		subj: fmt.Sprintf("[skagerrak] %s %s: reminder, orders due %s", g.ID, q.Phase, deadline.UTC().Format("2 Jan 15:04 MST")),
	}, nil
}

// answerDraft drafts the answer to a player's command (see answerMail).
func answerDraft(g *Game, q MailQueued) (mailDraft, error) {
	var m mailDraft
	var err error
	m.name, m.data, m.subj, err = answerMail(g, q)
	return m, err
}

// howToSignDraft drafts the answer to unsigned mail: how to sign it.
func howToSignDraft(g *Game, q MailQueued) (mailDraft, error) {
	p, _ := g.Player(q.Side)
	return mailDraft{
		name: "howtosign.tmpl",
		data: map[string]any{"Game": g.ID, "Side": q.Side, "At": g.Time, "Fingerprint": p.Fingerprint},
		subj: fmt.Sprintf("[skagerrak] %s: your mail was not signed, so not read", g.ID),
	}, nil
}

// noticeDraft drafts a notice (and a flag) with the game's last notice text.
func noticeDraft(g *Game, q MailQueued) (mailDraft, error) {
	return mailDraft{
		name: "notice.tmpl",
		data: map[string]any{"Game": g.ID, "Side": q.Side, "Text": g.lastNotice},
		subj: fmt.Sprintf("[skagerrak] %s: notice", g.ID),
	}, nil
}

// undeliveredDraft drafts the host's word that mail did not arrive (see
// Game.undeliveredMail).
func undeliveredDraft(g *Game, q MailQueued) (mailDraft, error) {
	var m mailDraft
	var err error
	m.name, m.data, m.subj, err = g.undeliveredMail(q.About)
	return m, err
}

// finalDraft drafts the final report, with its JSON copy.
func finalDraft(g *Game, q MailQueued) (mailDraft, error) {
	d, js, err := finalReport(g, q)
	if err != nil {
		return mailDraft{}, err
	}
	return mailDraft{name: "final.tmpl", data: d, atts: []Attachment{js}, subj: fmt.Sprintf("[skagerrak] %s: final report", g.ID)}, nil
}

// Complete draws what a mail attaches that is costly to make (the map
// picture), which is left until the mail is sent: replaying a log renders
// every mail's text, but only mail about to leave needs its picture.
func (m *Mail) Complete() error {
	if m.picture == nil {
		return nil
	}
	a, err := m.picture()
	if err != nil {
		return err
	}
	m.Attachments = append(m.Attachments, a)
	m.picture = nil
	return nil
}

// ReportSchema names the version of the JSON copy attached to reports.
const ReportSchema = "skagerrak-report/1"

// ReportJSON is the machine-readable copy of a report, attached to it as
// report.json for players' own tools. View is the ruleset's View of the
// side (its schema is the ruleset's, documented in its package).
type ReportJSON struct {
	Schema string `json:"schema"`
	Game   string `json:"game"`
	// GameID is the game's Game-Id (see Game.GameID), which its order
	// files carry.
	GameID    string        `json:"game_id,omitempty"`
	Ruleset   string        `json:"ruleset"`
	Side      engine.Side   `json:"side"`
	Resolved  string        `json:"resolved,omitempty"`
	Defaulted []engine.Side `json:"defaulted,omitempty"`
	// Next is the phase now open: its id, title, who owes orders, deadline.
	Next *PhaseOpened `json:"next,omitempty"`
	View engine.View  `json:"view"`
	// Receipt names the log's last record when the report was written
	// (see LogReceipt); absent in reports of builds before receipts.
	Receipt *LogReceipt `json:"receipt,omitempty"`
}

func last(h []PhaseResolved) PhaseResolved {
	if len(h) == 0 {
		return PhaseResolved{}
	}
	return h[len(h)-1]
}

type reportData struct {
	Game, Title, Side string
	Resolved, Why     string
	Defaulted         []string
	Body              string
	Next              string
	Owes              []string
	Deadline          time.Time
	Form              string
	Receipt           *LogReceipt
	// Map says the map is attached; MapNote says so, or why not.
	Map     bool
	MapNote string
	// Guide says the player's guide is attached (the first report).
	Guide bool
}

// body is the ruleset's report of a View, or the View itself as indented
// JSON where the ruleset writes none.
func body(rs engine.Ruleset, v engine.View, side engine.Side) string {
	if r, ok := rs.(engine.Reporter); ok {
		return strings.TrimRight(r.Report(v, side), "\n")
	}
	js, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "(the view could not be written: " + err.Error() + ")"
	}
	return "What you know:\n\n" + string(js)
}

// OrderForm is the order file a side fills in for the open phase: the
// header lines, then the ruleset's pre-filled form.
func OrderForm(g *Game, side engine.Side, v engine.View) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Game: %s\n%sPhase: %s\nSide: %s\n", g.ID, gameIDLine(g), g.Opened.Phase, side)
	if f, ok := g.Rules.(engine.OrderFormer); ok {
		b.WriteString(f.OrderForm(v, side))
	} else {
		b.WriteString("# one order per line; see `skagerrak rules " + g.Rules.Name() + "`\n")
	}
	return b.String()
}

// gameIDLine is the Game-Id header line of the game's forms.
func gameIDLine(g *Game) string {
	if id := g.GameID(); id != "" {
		return "Game-Id: " + id + "\n"
	}
	return ""
}

func sideStrings(ss []engine.Side) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(s)
	}
	return out
}

// movesText writes the game move by move: each phase with every side's
// orders as they were played.
func movesText(g *Game) string {
	var b strings.Builder
	for _, mv := range g.Moves {
		fmt.Fprintf(&b, "%s: %s (%s, %d dice rolled)\n", mv.Phase, mv.Title, mv.Why, mv.Rolls)
		sides := make([]engine.Side, 0, len(mv.Orders))
		for s := range mv.Orders {
			sides = append(sides, s)
		}
		sort.Slice(sides, func(i, j int) bool { return sides[i] < sides[j] })
		for _, s := range sides {
			label := string(s)
			if containsSide(mv.Defaulted, s) {
				label += " (missed: default orders)"
			}
			fmt.Fprintf(&b, "  %s:\n", label)
			text := strings.TrimRight(mv.Orders[s], "\n")
			if text == "" {
				text = "(no orders)"
			}
			for _, l := range strings.Split(text, "\n") {
				fmt.Fprintf(&b, "    %s\n", l)
			}
		}
	}
	return b.String()
}

// reportSubject says what a report asks of its side: orders due by the
// deadline, or nothing (for information).
func reportSubject(g *Game, q MailQueued, resolved string) string {
	switch {
	case q.rendered() < shortMailSince && resolved == "":
		return fmt.Sprintf("[skagerrak] %s: report for %s", g.ID, q.Side)
	case q.rendered() < shortMailSince:
		return fmt.Sprintf("[skagerrak] %s %s: report for %s", g.ID, resolved, q.Side)
	case g.owes(q.Side):
		return fmt.Sprintf("[skagerrak] %s: your orders for %s are due %s", g.ID, g.Opened.Phase, g.Opened.Deadline.UTC().Format("Mon 2 Jan 15:04 MST"))
	case resolved == "":
		return fmt.Sprintf("[skagerrak] %s: the game begins, for information (%s)", g.ID, q.Side)
	}
	return fmt.Sprintf("[skagerrak] %s: %s resolved, for information (%s)", g.ID, resolved, q.Side)
}

// firstReport reports whether a report is the first of its game, which
// carries the player's guide.
func (g *Game) firstReport(q MailQueued) bool {
	return q.rendered() >= shortMailSince && len(g.History) == 0 && q.Phase == ""
}

// mapNote says whether the map is attached to a report, and why not.
func mapNote(g *Game, q MailQueued) string {
	if _, ok := g.Rules.(engine.Picturer); !ok {
		return ""
	}
	if g.carriesMap(q) {
		return "Your map is attached (map.png)."
	}
	return "Your map has not changed since the last one you were sent: it is not attached."
}

// quotedNote tells a player that their order file was read from a quoted
// form (to line readTo, when not 0), or is "".
func quotedNote(text string, readTo int) string {
	p := readPlayerFile(text)
	if !p.Quoted {
		return ""
	}
	n := "Your form was quoted (its lines start with \">\"): it was read without the quote marks, from its Game: line on."
	if readTo > 0 {
		n = fmt.Sprintf("Your form was quoted (its lines start with \">\"): it was read without the quote marks, from its Game: line to line %d, where the quote ends.", readTo)
	}
	switch {
	case p.Skipped > 0 && readTo > 0:
		n += fmt.Sprintf(" The %d line(s) above its Game: line were not read.", p.Skipped)
	case p.Skipped > 0:
		n += fmt.Sprintf(" The %d line(s) above that line were not read.", p.Skipped)
	}
	if readTo > 0 {
		lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
		n += fmt.Sprintf(" The %d line(s) after line %d, quoted from the rest of the mail you answered (the player's guide, say), were not read either: read as orders, they were errors.", linesAfter(lines, readTo), readTo)
	}
	return n
}
