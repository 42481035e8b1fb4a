package adjudicator

// RenderRevision numbers the way this build renders mail: the text of every
// template and of every ruleset's report, order form and final reveal.
// Whenever a change alters the text of any mail for the same game (the
// golden files under testdata/golden change), it goes up by one, so that
// verify knows which recorded mail digests this build can reproduce: a
// mail rendered under another revision is not compared (its game's
// outcomes still are: states, orders and rolls), and verify says how many
// it skipped. TestGoldenMails enforces the bump.
const RenderRevision = 30

// overdueSince is the RenderRevision from which orders accepted after
// the deadline passed (received in time, read late) are answered without
// promising the deadline as a time to come.
const overdueSince = 19

// rendered is the revision the mail was rendered under.
func (q MailQueued) rendered() int {
	if q.Render == 0 {
		return 1
	}
	return q.Render
}

// Revision is the rules revision the game is played under.
func (g *Game) Revision() int {
	return g.Created.Setup.Played().Revision
}
