package adjudicator

import "time"

// Observer watches a host work, for metrics: each pass as it ends, and
// each append to a game's log (the store's latency). Its methods must
// return at once; they run on the host's goroutines.
type Observer interface {
	// Pass is called as each PollOnce ends, with what it did, how long
	// it took, and its error (a fatal one).
	Pass(p Pass, took time.Duration, err error)
	// Append is called after each record appended to a game's log.
	Append(took time.Duration, err error)
}

// Observe sets the host's observer (nil: none). Set it before the host
// runs.
func (h *Host) Observe(o Observer) { h.observer = o }

// Summary is what a host holds at a glance: its games by state, and their
// mail.
type Summary struct {
	// Running, Ended and Aside count the games in play, over, and set
	// aside (not opened: see SetAside).
	Running, Ended, Aside int
	// Resolved counts the phases resolved in every game.
	Resolved int
	// Queued counts mail waiting to be sent; Undelivered the mail that
	// did not arrive and stands (see Undelivered).
	Queued, Undelivered int
}

// Summary sums the host's games up.
func (h *Host) Summary() Summary {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := Summary{Aside: len(h.aside)}
	for _, hg := range h.games {
		g := hg.g
		if g.Ended != nil {
			s.Ended++
		} else {
			s.Running++
		}
		s.Resolved += g.Resolved
		s.Queued += len(g.Outbox)
		s.Undelivered += len(g.Undelivered)
	}
	return s
}
