package adjudicator

import (
	"fmt"
	"strings"
	"time"

	"skagerrak/engine"
	"skagerrak/templates"
)

// answerMail renders the answer to the last command of a player's mail.
// Everything in it is what the side may know: the open phase, its
// deadline and who owes orders (which every report says), and the side's
// own orders and reports; never whether another side has sent orders.
func answerMail(g *Game, q MailQueued) (string, any, string, error) {
	c := g.lastCommand
	if c == nil || c.about() != q.About || c.Side != q.Side {
		return "", nil, "", fmt.Errorf("no command %s of %s to answer", q.About, q.Side)
	}
	name := strings.ToLower(strings.Fields(c.Line)[0])
	var text, subj string
	switch {
	case c.Refused != "":
		text = templates.Wrap("It could not be done: "+c.Refused, templates.Width)
		if name == "resend" {
			text += "\n\n" + reportList(g, c.Side)
		}
		subj = fmt.Sprintf("[skagerrak] %s: %s: not done", g.ID, name)
	case name == "help":
		text = guideText(g, c.Side)
		subj = fmt.Sprintf("[skagerrak] %s: player's guide (%s)", g.ID, g.Rules.Title())
	case name == "status":
		text = eachSide(c.sides(), func(s engine.Side) string { return statusText(g, s) })
		subj = fmt.Sprintf("[skagerrak] %s: status for %s", g.ID, joinSides(c.sides()))
	case name == "history":
		text = eachSide(c.sides(), func(s engine.Side) string {
			if len(c.sides()) == 1 {
				return historyText(g, s)
			}
			return "Side " + string(s) + ":\n" + historyText(g, s)
		})
		subj = fmt.Sprintf("[skagerrak] %s: history of %s", g.ID, joinSides(c.sides()))
	case name == "address":
		what := "side " + string(c.Side)
		if len(c.sides()) > 1 {
			what = "sides " + joinSides(c.sides())
		}
		text = templates.Wrap(fmt.Sprintf("As your mail signed by your key asked, the mail of %s in game %s goes to %s from now on; it went to %s. This answer goes to both addresses. If you did not ask for this, tell the referee at once.", what, g.ID, c.Address, c.Was), templates.Width)
		subj = fmt.Sprintf("[skagerrak] %s: your address is now %s", g.ID, c.Address)
	default:
		return "", nil, "", fmt.Errorf("no answer to the command %q", c.Line)
	}
	help := PlayerCommandHelp
	if len(g.heldSides(c.Fingerprint)) > 1 {
		help += "\n\n" + SharedKeyHelp
	}
	data := map[string]any{"Game": g.ID, "Side": c.Side, "Line": c.Line, "Text": strings.TrimRight(text, "\n"), "Games": c.Games, "Unread": c.Unread,
		"Help": help, "Last": g.lastReply(c.Fingerprint, false), "Limit": MaxRepliesPerPhase}
	return "answer.tmpl", data, subj, nil
}

// guideText is the player's guide: the ruleset's own (engine.Guider), or
// one made from what the ruleset declares (its order form, its rules
// listing) where it has none; then the mail commands.
func guideText(g *Game, side engine.Side) string {
	var b strings.Builder
	if gd, ok := g.Rules.(engine.Guider); ok {
		b.WriteString(strings.TrimRight(gd.Guide(), "\n"))
	} else {
		b.WriteString(generatedGuide(g, side))
	}
	b.WriteString("\n\nOrders and commands by mail\n\n")
	b.WriteString(templates.Wrap("Every report to a side that owes orders ends with its order form: reply with it filled in, signed by your key (quoted with \"> \" is fine). A later valid order file replaces the earlier one until the phase resolves; a side that sends none by the deadline gets the rules' default orders.", templates.Width))
	b.WriteString("\n")
	return b.String()
}

// generatedGuide is the guide of a ruleset that writes none.
func generatedGuide(g *Game, side engine.Side) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: a player's guide\n\nSides: %s\n", g.Rules.Title(), joinSides(g.Rules.Sides()))
	if g.owes(side) {
		b.WriteString("\nYour order form for the open phase:\n\n")
		b.WriteString(strings.TrimRight(OrderForm(g, side, g.Rules.View(g.State, side)), "\n"))
		b.WriteString("\n")
	}
	if rl, ok := g.Rules.(engine.RuleLister); ok {
		fmt.Fprintf(&b, "\nThe rulebook's sections and how skagerrak plays them (skagerrak rules %s):\n\n", g.Rules.Name())
		for _, r := range rl.Rules() {
			b.WriteString(templates.Wrap(fmt.Sprintf("  %s %s: %s", r.Section, r.Title, r.Status), templates.Width))
			b.WriteString("\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// eachSide joins the answers for each of sides, a blank line between.
func eachSide(sides []engine.Side, answer func(engine.Side) string) string {
	var parts []string
	for _, s := range sides {
		parts = append(parts, strings.TrimRight(answer(s), "\n"))
	}
	return strings.Join(parts, "\n\n") + "\n"
}

// statusText is the answer to status.
func statusText(g *Game, side engine.Side) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, side %s\n", g.Rules.Title(), side)
	if g.Opened == nil {
		b.WriteString("No phase is open.\n")
		return b.String()
	}
	if !g.knowsOpen(side) {
		// A short phase another side asked for is none of this side's
		// business (its reports do not name it either).
		b.WriteString(templates.Wrap("You owe no orders now. You get a report when something your side can see changes, or when you owe orders.", templates.Width) + "\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%s\n", templates.Wrap("Open phase: "+g.Opened.Phase+": "+g.Opened.Title, templates.Width))
	fmt.Fprintf(&b, "Deadline: %s\n", g.Opened.Deadline.UTC().Format(time.RFC1123))
	fmt.Fprintf(&b, "Orders owed by: %s\n", joinSides(g.Opened.Owes))
	switch o, ok := g.Orders[side]; {
	case !g.owes(side):
		b.WriteString("You owe no orders in this phase.\n")
	case ok:
		fmt.Fprintf(&b, "Your orders: accepted for %s; a later valid order file replaces them.\n", o.Phase)
	default:
		b.WriteString("Your orders: none yet.\n")
	}
	if g.Paused != nil {
		b.WriteString(templates.Wrap("The game is paused: "+g.Paused.Why, templates.Width) + "\n")
	}
	return b.String()
}

// knowsOpen reports whether a side knows of the open phase: it owes
// orders in it, or its last report named it as the next phase.
func (g *Game) knowsOpen(side engine.Side) bool {
	if g.owes(side) {
		return true
	}
	rs := g.reportsOf(side)
	return len(rs) > 0 && rs[len(rs)-1].Open == g.Opened.Phase
}

// historyText is the answer to history: one line for each phase the side
// knows of, the phases it owed orders in and those it got a report of.
func historyText(g *Game, side engine.Side) string {
	reported := map[string]bool{}
	for _, r := range g.reportsOf(side) {
		reported[r.Queued.Phase] = true
	}
	var lines []string
	if reported[""] {
		lines = append(lines, "start: the game began; report sent (resend start)")
	}
	for _, mv := range g.Moves {
		_, owed := mv.Orders[side]
		if !owed && !reported[mv.Phase] {
			continue
		}
		part := "you owed no orders"
		switch {
		case containsSide(mv.Defaulted, side):
			part = "you sent no orders: default orders played"
		case owed:
			part = "your orders played"
		}
		rep := "no report (nothing you see changed)"
		if reported[mv.Phase] {
			rep = "report sent (resend " + mv.Phase + ")"
		}
		lines = append(lines, templates.Wrap(fmt.Sprintf("%s: %s; %s; %s", mv.Phase, mv.Title, part, rep), templates.Width))
	}
	if g.owes(side) {
		lines = append(lines, templates.Wrap(fmt.Sprintf("%s: %s; open, your orders due %s", g.Opened.Phase, g.Opened.Title, g.Opened.Deadline.UTC().Format(time.RFC1123)), templates.Width))
	}
	if len(lines) == 0 {
		return "Nothing yet.\n"
	}
	return strings.Join(lines, "\n") + "\n"
}

// reportList names the reports a side can have sent again.
func reportList(g *Game, side engine.Side) string {
	var names []string
	for _, r := range g.reportsOf(side) {
		n := r.Queued.Phase
		if n == "" {
			n = "start"
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return "No report was sent to you yet."
	}
	return templates.Wrap("Reports sent to you (resend PHASE): "+strings.Join(names, ", ")+".", templates.Width)
}

// resendMail renders a report sent again: the report as it was queued,
// rendered from the game as it stood then, addressed as now.
func (g *Game) resendMail(q MailQueued) (Mail, error) {
	c := g.lastCommand
	if c == nil || c.about() != q.About || c.Report == "" {
		return Mail{}, fmt.Errorf("no resend %s to answer", q.About)
	}
	r := g.reportByID(c.Report)
	if r == nil {
		return Mail{}, fmt.Errorf("no report %s to send again", c.Report)
	}
	then, err := g.reportAt(r.Seq)
	if err != nil {
		return Mail{}, err
	}
	m, err := then.render(r.Queued)
	if err != nil {
		return Mail{}, err
	}
	// The MIME boundaries are the first mail's, so that the signed
	// body is the same bytes.
	m.Boundary = r.Queued.ID
	return m, nil
}
