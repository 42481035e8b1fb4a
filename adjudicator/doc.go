// Package adjudicator runs the life of a game as events: creating it,
// opening phases, taking orders, resolving at all-in or deadline, mailing
// each side its private report, referee commands, and the end of the game.
//
// The core is a fold. A Game is what replaying a game's event log gives:
// Apply hands each event to the applier of its type (fold.go), and
// nothing else changes a Game. Decisions (Submit, Tick, referee commands)
// read a Game and make events through an Emit; a Batch collects them,
// each sealed after the game's head and applied as it is made, so that
// the rest of the decision sees it. The Host around the core does the
// I/O: it appends each decision's events to the game's log as one batch
// (events.Log.AppendBatch), so that a crash leaves the whole decision or
// none of it, and replays the game from its log when the log refuses a
// batch; it sends the queued mail and moves messages in the mailbox. Time
// enters only through an injected Clock, and every time that matters is
// recorded in an event.
//
// Logs written before batches appended one event at a time, and a crash
// could leave half a decision in them (orders with no reply, a phase
// resolved with none opened). Tick finishes such a decision first
// (Game.repair), as it always did; it finishes too a decision that an
// error, not a crash, cut short.
//
// Event types and their data are listed in events.go; they are part of the
// log format and are only ever added to, never changed.
package adjudicator
