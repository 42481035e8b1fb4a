// Package adjudicator runs the life of a game as events: creating it,
// opening phases, taking orders, resolving at all-in or deadline, mailing
// each side its private report, referee commands, and the end of the game.
//
// The core is a fold. A Game is what replaying a game's event log gives
// (Apply); decisions (Submit, Tick, referee commands) read a Game and return
// the events to append and nothing else. The Host around it does the I/O:
// it appends the events to the game's log (which applies them), sends the
// queued mail, and moves messages in the mailbox. Time enters only through
// an injected Clock, and every time that matters is recorded in an event.
//
// Event types and their data are listed in events.go; they are part of the
// log format and are only ever added to, never changed.
package adjudicator
