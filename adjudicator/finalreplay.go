package adjudicator

import (
	"fmt"
	"slices"

	"skagerrak/events"
)

// ReplayName is the name the final report attaches the game's replay
// page under.
func ReplayName(game string) string { return game + "-replay.html" }

// ReplayCommand is the command that makes the replay page from the log.
func ReplayCommand(game string) string {
	return "skagerrak replay " + game + " --html " + ReplayName(game)
}

// DefaultReplayMax is the largest replay page the final report attaches
// unless the host says otherwise: base64 makes it a third larger in the
// mail, which stays under the 10 MB many mail hosts take.
const DefaultReplayMax = 7_000_000

// attachReplay attaches the whole game's replay page (the same for every
// side: the game is over, the fog lifted) to a final report, made once
// for all of them; or, where it is over the size this host mails or could
// not be made, a note in its place saying so and how to make it.
func (h *Host) attachReplay(hg *hosted, m *Mail) {
	id := hg.g.ID
	if h.replay == nil || slices.ContainsFunc(m.Attachments, func(a Attachment) bool {
		return a.Name == ReplayName(id) || a.Name == replayNoteName(id)
	}) {
		return // no replays here, or attached before a send deferred
	}
	if h.replayMax < 0 {
		m.Attachments = append(m.Attachments, replayNote(id, "is not sent by mail from this host"))
		return
	}
	if hg.replay == nil && hg.replayErr == nil {
		hg.replay, hg.replayErr = h.replay(hg.log)
		if hg.replayErr != nil {
			h.log.Warn("the replay page for the final report could not be made", "game", hg.g.ID, "err", hg.replayErr)
		}
	}
	switch {
	case hg.replayErr != nil:
		m.Attachments = append(m.Attachments, replayNote(id, "could not be made here ("+hg.replayErr.Error()+")"))
	case int64(len(hg.replay)) > h.replayMax:
		m.Attachments = append(m.Attachments, replayNote(id, fmt.Sprintf("is %s, over the %s this host sends by mail", size(int64(len(hg.replay))), size(h.replayMax))))
	default:
		m.Attachments = append(m.Attachments, Attachment{Name: ReplayName(id), ContentType: "text/html; charset=utf-8", Data: hg.replay})
	}
	if !slices.ContainsFunc(hg.g.Outbox[1:], func(o *Outgoing) bool { return o.Queued.Kind == MailFinal }) {
		hg.replay, hg.replayErr = nil, nil // every final report has it
	}
}

func replayNote(game, why string) Attachment {
	text := fmt.Sprintf("The replay of game %s %s, so it is not attached.\nMake it from the game's log with:\n  %s\n", game, why, ReplayCommand(game))
	return Attachment{Name: replayNoteName(game), ContentType: "text/plain; charset=utf-8", Data: []byte(text)}
}

// ReplayMaker makes a finished game's replay page from its log.
type ReplayMaker func(events.Log) ([]byte, error)

func replayNoteName(game string) string { return game + "-replay.txt" }

func size(n int64) string {
	if n < 100_000 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
