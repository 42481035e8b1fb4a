// Package status says what skagerrak status says of games: each one's
// phase, deadline, who owes orders, manual dice, and the mail not yet
// delivered; a game this build cannot open is shown set aside. The
// referee commands print a game's status after they act (Print).
package status

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/engine"
	"skagerrak/internal/gamelog"
	"skagerrak/internal/wiring"
)

// Games prints the status of the games of the configured store, or of
// the one game named in only, read without holding them. The error
// says why status exits non-zero, for whatever watches it: a game set
// aside, or a mail undelivered and not yet delivered again.
func Games(ctx context.Context, w io.Writer, c *config.Config, only []string, now time.Time) error {
	t := &tally{w: w, now: now}
	var err error
	if c.IsFileStore() {
		err = t.files(ctx, c, only)
	} else {
		err = t.store(ctx, c, only)
	}
	if err != nil {
		return err
	}
	return t.err()
}

// tally prints games' status and counts those that make status fail.
type tally struct {
	w                  io.Writer
	now                time.Time
	aside, undelivered int
}

// files prints the games of the file store.
func (t *tally) files(ctx context.Context, c *config.Config, only []string) error {
	ids, err := gamelog.FileGames(c)
	if err != nil {
		return err
	}
	if ids, err = pick(ids, only, c.DataDir); err != nil {
		return err
	}
	if len(ids) == 0 {
		fmt.Fprintf(t.w, "no games under %s\n", c.DataDir)
	}
	for _, id := range ids {
		g, err := adjudicator.LoadGameContext(ctx, filepath.Join(c.DataDir, id))
		if err := t.game(id, g, err); err != nil {
			return err
		}
	}
	return nil
}

// store prints the games of a database store.
func (t *tally) store(ctx context.Context, c *config.Config, only []string) error {
	st, err := wiring.OpenStore(ctx, c, true)
	if err != nil {
		return err
	}
	defer st.Close()
	ids, err := st.Games()
	if err != nil {
		return err
	}
	if ids, err = pick(ids, only, st.Where()); err != nil {
		return err
	}
	if len(ids) == 0 {
		fmt.Fprintf(t.w, "no games in %s\n", st.Where())
	}
	for _, id := range ids {
		l, err := st.Open(id)
		if err != nil {
			return err
		}
		g, err := adjudicator.ReplayContext(ctx, l, false)
		l.Close()
		if err := t.game(id, g, err); err != nil {
			return err
		}
	}
	return nil
}

// pick is the games to show: all, or only the one named, which must be
// there.
func pick(ids, only []string, where string) ([]string, error) {
	if len(only) == 0 {
		return ids, nil
	}
	if !slices.Contains(ids, only[0]) {
		return nil, gamelog.NoGame(only[0], where, ids)
	}
	return only, nil
}

// game prints one game's status, or the error that set it aside; a
// resolution stopped because the command was told to stop ends it.
func (t *tally) game(id string, g *adjudicator.Game, err error) error {
	if stopped(err) {
		return err
	}
	if err != nil {
		printAside(t.w, id, err)
		t.aside++
		return nil
	}
	if err := Print(t.w, g, t.now); err != nil {
		return err
	}
	t.undelivered += len(g.Undelivered)
	return nil
}

// printAside shows a game this build cannot open: the daemon sets it aside
// and serves the others (see adjudicator.Host.SetAside).
func printAside(w io.Writer, id string, err error) {
	fmt.Fprintf(w, "%s  SET ASIDE: this build cannot open it, so it is not played and its players' mail stays in the mailbox\n  %v\n", id, err)
}

// err makes status exit non-zero when a game is set aside or a mail was
// not delivered and is not yet delivered again.
func (t *tally) err() error {
	var why []string
	if t.aside > 0 {
		why = append(why, fmt.Sprintf("%d game(s) set aside (above): run a build that can open them, or restore their logs", t.aside))
	}
	if t.undelivered > 0 {
		why = append(why, fmt.Sprintf("%d mail(s) undelivered (above): give the side's right address (skagerrak referee GAME address SIDE ADDRESS WHY...) and they are sent again", t.undelivered))
	}
	if len(why) == 0 {
		return nil
	}
	return errors.New(strings.Join(why, "; "))
}

// Print shows a game's state as of now. A manual-dice game's dry run
// (what dice it waits for) that stops because the command was told to
// stop is the error.
func Print(w io.Writer, g *adjudicator.Game, now time.Time) error {
	fmt.Fprintf(w, "%s  %s (rules revision %d), %s resolved\n", g.ID, g.Rules.Title(), g.Revision(), count(g.Resolved, "phase"))
	if g.Created.GameIDs {
		fmt.Fprintf(w, "  order files carry Game-Id: %s\n", g.GameID())
	}
	switch {
	case g.Ended != nil:
		fmt.Fprintf(w, "  over: %s\n", adjudicator.EndedText(g.Ended.Why))
		if g.Ended.Result != nil {
			fmt.Fprintf(w, "  result: %s\n", g.Ended.Result.Summary)
		}
	case g.Opened != nil:
		fmt.Fprintf(w, "  phase %s (%s), deadline %s\n", g.Opened.Phase, g.Opened.Title, g.Opened.Deadline.UTC().Format(time.RFC1123))
		for _, s := range g.Opened.Owes {
			state := "owes orders"
			if _, ok := g.Orders[s]; ok {
				state = "orders in"
			}
			fmt.Fprintf(w, "  %-10s %s", s, state)
			if n := g.Missed[s]; n > 0 {
				fmt.Fprintf(w, " (missed %d in a row)", n)
			}
			fmt.Fprintln(w)
		}
		if why := g.Waiting(now); why != "" {
			fmt.Fprintf(w, "  waiting: %s\n", why)
		}
	}
	if g.Paused != nil {
		fmt.Fprintf(w, "  paused by %s: %s\n", g.Paused.By, g.Paused.Why)
	}
	if g.Created.Dice == "manual" {
		fmt.Fprintf(w, "  manual dice in hand: %d\n", len(g.Dice))
		wait, err := g.WaitingFor(now)
		switch {
		case stopped(err):
			return err
		case err != nil:
			fmt.Fprintf(w, "  cannot resolve: %v\n", err)
		case wait != nil:
			fmt.Fprintf(w, "  waiting for dice: %s (skagerrak dice add)\n", wait.String())
		}
	}
	if n := len(g.Outbox); n > 0 {
		fmt.Fprintf(w, "  undelivered mail: %d queued\n", n)
	}
	for _, u := range g.Undelivered {
		fmt.Fprintf(w, "  UNDELIVERED: %s\n", escapeLine(u.String()))
	}
	for _, b := range g.Bounced {
		if !b.GaveUp() {
			fmt.Fprintf(w, "  delivery delayed: %s mail %s\n", b.Side, escapeLine(b.String()))
		}
	}
	return nil
}

// escapeLine makes text from outside (an MTA's diagnostic) safe for one
// terminal line.
func escapeLine(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// stopped reports whether err is a resolution stopped because the command
// was told to stop (SIGINT, SIGTERM): the command ends with it, rather
// than report the game as one it cannot open.
func stopped(err error) bool {
	var s *engine.Stopped
	return errors.As(err, &s)
}

// count is n and the noun, plural unless n is 1: "1 phase", "9 phases".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
