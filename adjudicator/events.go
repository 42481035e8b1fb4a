package adjudicator

import (
	"time"

	"skagerrak/engine"
)

// Event type names, as written in the log.
const (
	EvGameCreated     = "GameCreated"
	EvPhaseOpened     = "PhaseOpened"
	EvOrdersAccepted  = "OrdersAccepted"
	EvOrdersRejected  = "OrdersRejected"
	EvPhaseResolved   = "PhaseResolved"
	EvMailQueued      = "MailQueued"
	EvMailSent        = "MailSent"
	EvMailFailed      = "MailFailed"
	EvDiceAdded       = "DiceAdded"
	EvDiceCleared     = "DiceCleared"
	EvDeadlineChanged = "DeadlineChanged"
	EvGamePaused      = "GamePaused"
	EvGameResumed     = "GameResumed"
	EvSideChanged     = "SideChanged"
	EvSideFlagged     = "SideFlagged"
	EvGameEnded       = "GameEnded"
	EvRefereeMail     = "RefereeMail"
	EvRefereeResult   = "RefereeResult"
	EvPhaseWaiting    = "PhaseWaiting"
)

// PhaseWaiting records that the open phase is past its deadline and
// waits, unresolved, because the mailbox could not be read (a phase
// resolves for its deadline only on a read of the whole mailbox that began
// after it). It is recorded once a phase, and the referee told by a
// notice; when the phase resolves the referee is told again.
type PhaseWaiting struct {
	Phase string `json:"phase"`
	// Why is what kept the mailbox from being read.
	Why string `json:"why"`
}

// RefereeResult records what became of each command of a referee mail, for
// the reply the referee gets.
type RefereeResult struct {
	Lines []string `json:"lines"`
}

// RefereeMail records a signed mail of referee commands; the commands follow
// as their own events.
type RefereeMail struct {
	Text string `json:"text"`
	// Source, Raw and Signature are as in OrdersAccepted: "mail" with the
	// whole message, or "file" with the file's detached signature (or the
	// cleartext-signed file in Raw).
	Source      string    `json:"source,omitempty"`
	Signature   string    `json:"signature,omitempty"`
	Raw         []byte    `json:"raw,omitempty"`
	Fingerprint string    `json:"fingerprint"`
	Key         string    `json:"key"`
	SigTime     time.Time `json:"sig_time,omitempty"`
	// Charset is as in OrdersAccepted.
	Charset string `json:"charset,omitempty"`
	// Unanswered says why the referee got no reply (see OrdersRejected).
	Unanswered string `json:"unanswered,omitempty"`
	// Encrypted is as in OrdersAccepted.
	Encrypted bool `json:"encrypted,omitempty"`
}

// Player is a side's (or the referee's) registration: where its mail goes
// and the key that signs its orders.
type Player struct {
	Side engine.Side `json:"side"`
	// Address is the only address that side's mail is sent to.
	Address string `json:"address"`
	// Key is the armored OpenPGP public key.
	Key string `json:"key"`
	// Fingerprint is the primary key's fingerprint, upper-case hex.
	Fingerprint string `json:"fingerprint"`
}

// Referee is the side name of the game master.
const Referee engine.Side = "referee"

// Timing holds a game's deadline settings.
type Timing struct {
	// Deadline is the default time a phase stays open.
	Deadline Duration `json:"deadline"`
	// Reminder is how long before the deadline sides that still owe orders
	// are reminded; 0 for no reminder.
	Reminder Duration `json:"reminder,omitempty"`
	// Grace is extra time after the deadline before missing sides get
	// default orders.
	Grace Duration `json:"grace,omitempty"`
	// FlagAfter flags a side to the referee after this many missed phases
	// in a row; 0 never.
	FlagAfter int `json:"flag_after,omitempty"`
	// PauseLimit is how many times a game may be paused; 0 never.
	PauseLimit int `json:"pause_limit,omitempty"`
	// MaxPause is how long one pause may last before the game resumes by
	// itself; 0 for no limit.
	MaxPause Duration `json:"max_pause,omitempty"`
}

// GameCreated is the first event of every game.
type GameCreated struct {
	Game     string       `json:"game"`
	Ruleset  string       `json:"ruleset"`
	Setup    engine.Setup `json:"setup"`
	Players  []Player     `json:"players"`
	Referee  *Player      `json:"referee,omitempty"`
	Timing   Timing       `json:"timing"`
	Dice     string       `json:"dice"` // "seeded" or "manual"
	Encrypt  bool         `json:"encrypt,omitempty"`
	HostFrom string       `json:"host_from,omitempty"`
	// GameIDs says every order file of the game must carry its Game-Id
	// (the first 8 hex digits of this record's hash: see Game.GameID), as
	// its order forms do, so that a signed file made for another game of
	// the same name (on another host, or played before) is refused. In
	// games created before, a Game-Id is checked only where a file has one.
	GameIDs bool `json:"game_ids,omitempty"`
	// SecretCommitment is hex(sha256(dice secret)).
	SecretCommitment string `json:"secret_commitment"`
	// SetupRolls are the rolls the ruleset's set-up drew.
	SetupRolls []engine.Roll `json:"setup_rolls,omitempty"`
	// StateDigest is the digest of the initial state.
	StateDigest string `json:"state_digest"`
	// Software names the skagerrak build that created the game (version
	// and revision): a game's results are those of its rules as that build
	// implements them, so a verifier should use the same.
	Software string `json:"software,omitempty"`
}

// PhaseOpened opens a phase for orders.
type PhaseOpened struct {
	Phase    string        `json:"phase"`
	Title    string        `json:"title"`
	Owes     []engine.Side `json:"owes"`
	Deadline time.Time     `json:"deadline"`
}

// OrdersAccepted records a side's valid orders for a phase; a later one for
// the same phase replaces it.
type OrdersAccepted struct {
	Phase string      `json:"phase"`
	Side  engine.Side `json:"side"`
	// Text is the order file as signed.
	Text string `json:"text"`
	// Source says how the orders came: "mail", "file" or "unsigned".
	Source string `json:"source"`
	// Raw is the whole message as received (mail), kept so that verify can
	// check the signature again at the recorded time.
	Raw []byte `json:"raw,omitempty"`
	// Signature is the armored detached signature of a signed file.
	Signature   string `json:"signature,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
	// Key is the message's identity (see events/doc.go, Message identity):
	// "sig1:" and its canonical identity, or, in logs made before, the hex
	// SHA-256 of the signature packet.
	Key string `json:"key,omitempty"`
	// SigTime is when the signature says it was made. A key's signed
	// submissions are accepted only in the order they were signed, so an
	// older message cannot be replayed over a newer one.
	SigTime time.Time `json:"sig_time,omitempty"`
	// By names who entered unsigned orders.
	By string `json:"by,omitempty"`
	// Charset is the charset Text was decoded from: the one a PGP/MIME
	// signed part declares (mutt sends ISO-8859-1 by default), or
	// windows-1252 for text that is not UTF-8 in the detached and cleartext
	// forms, whose label is outside the signature and not trusted; absent
	// when the signed bytes were UTF-8 as they came, and in logs written
	// before charsets were decoded. verify decodes the raw mail again the
	// same way.
	Charset string `json:"charset,omitempty"`
	// Received is when the host's own mail server received the message
	// (its IMAP INTERNALDATE): mail counts as on time when received before
	// the phase's deadline (plus grace), whenever it was read. Absent for
	// files, paper orders, and in logs written before it was recorded.
	Received time.Time `json:"received,omitzero"`
	// Ignored describes the parts beside the order file that were not read
	// as orders (a cover note, a public key); the reply names them.
	Ignored []string `json:"ignored,omitempty"`
	// Unanswered says why no reply was queued (see OrdersRejected).
	Unanswered string `json:"unanswered,omitempty"`
	// Encrypted says the mail came encrypted to the host; Raw is then
	// the decrypted message (see verify.Decrypt), which checks again
	// without the host's key. From it on, the side's mail is encrypted.
	Encrypted bool `json:"encrypted,omitempty"`
	// ReadTo is the last line of Text read as orders, when only a
	// quoted form's quote was (the text after it quoted from the rest of
	// the mail answered, read whole it had errors: see
	// Game.parseSubmitted); absent when the whole text was read.
	ReadTo int `json:"read_to,omitempty"`
	// Seq and Hash are those of the event's record, filled in by replay
	// for the acceptance reply's receipt; not part of the data.
	Seq  uint64 `json:"-"`
	Hash string `json:"-"`
}

// OrdersRejected records a submission that was refused, with its errors.
// The record is bounded (see MaxRejectedRecord): a long order text keeps
// its start, a large mail only its size and digest, many errors the first
// MaxRejectedErrors; records made before bounds hold the message whole.
type OrdersRejected struct {
	Phase       string             `json:"phase,omitempty"`
	Side        engine.Side        `json:"side,omitempty"`
	Text        string             `json:"text,omitempty"`
	Raw         []byte             `json:"raw,omitempty"`
	Fingerprint string             `json:"fingerprint,omitempty"`
	Key         string             `json:"key,omitempty"`
	Reason      string             `json:"reason"`
	Errors      []engine.LineError `json:"errors,omitempty"`
	Ignored     []string           `json:"ignored,omitempty"`
	// SigTime is when the signature says it was made.
	SigTime time.Time `json:"sig_time,omitempty"`
	// Received is as in OrdersAccepted: a mail received at or after the
	// deadline is refused as late.
	Received time.Time `json:"received,omitzero"`
	// RawBytes and RawSHA256 are the size and hex SHA-256 of the mail as
	// received; Raw holds it only up to MaxRejectedRaw.
	RawBytes  int    `json:"raw_bytes,omitempty"`
	RawSHA256 string `json:"raw_sha256,omitempty"`
	// TextBytes and TextSHA256 are set when Text is only the start of the
	// order file: its whole size and hex SHA-256.
	TextBytes  int    `json:"text_bytes,omitempty"`
	TextSHA256 string `json:"text_sha256,omitempty"`
	// MoreErrors counts the errors beyond those kept.
	MoreErrors int `json:"more_errors,omitempty"`
	// Unanswered says why no reply was queued: its key had its
	// MaxRepliesPerPhase replies in the phase already (or, for stray mail,
	// its MaxStrayRepliesPerPhase).
	Unanswered string `json:"unanswered,omitempty"`
	// Stray says the refusal was counted as stray mail (see
	// MaxStrayRepliesPerPhase); absent in logs written before stray mail
	// was counted apart, whose refusals all count against
	// MaxRepliesPerPhase.
	Stray bool `json:"stray,omitempty"`
	// Encrypted is as in OrdersAccepted: the side's mail is encrypted from
	// it on, unless ByAddress.
	Encrypted bool `json:"encrypted,omitempty"`
	// ByAddress says no known key signed the mail: it was encrypted, and
	// could not be read (encrypted to another key, or not signed by the
	// side's key inside), and its From is the side's registered address,
	// which alone gets the reply. Fingerprint is then the side's key, for
	// the reply limit; no signature of it is claimed.
	ByAddress bool `json:"by_address,omitempty"`
}

// PhaseResolved records the resolution of a phase.
type PhaseResolved struct {
	Phase string `json:"phase"`
	// Defaulted are the sides that got default orders (NMR).
	Defaulted []engine.Side `json:"defaulted,omitempty"`
	// Why is "all-in", "deadline" or "forced by NAME: reason".
	Why string `json:"why"`
	// OrdersDigest seeds the dice (hex).
	OrdersDigest string        `json:"orders_digest"`
	Rolls        []engine.Roll `json:"rolls,omitempty"`
	StateDigest  string        `json:"state_digest"`
	// Seq is the event's seq, filled in by replay; not part of the data.
	Seq uint64 `json:"-"`
}

// MailQueued puts one message in the outbox. The message is rendered from
// the game as it stands at this event; Digest is the SHA-256 of its text so
// that verify can check it is reproduced.
type MailQueued struct {
	// ID is the Message-ID, deterministic: <GAME.SEQ.KIND.SIDE.TOKEN@DOMAIN>
	// with a token from the dice secret (see messageID), which a bounce
	// must name; logs written before have no token.
	ID    string      `json:"id"`
	Kind  string      `json:"kind"`
	Side  engine.Side `json:"side"`
	To    string      `json:"to"`
	Phase string      `json:"phase,omitempty"`
	// About is the key of the message a reply answers.
	About  string `json:"about,omitempty"`
	Digest string `json:"digest"`
	// Render is the RenderRevision of the build that rendered the mail;
	// 0 (absent) is revision 1.
	Render int `json:"render,omitempty"`
	// Map says a report carries the side's map (see mapDue); reports of
	// render revisions before shortMailSince always did.
	Map bool `json:"map,omitempty"`
}

// Mail kinds.
const (
	MailReport   = "report"
	MailAccepted = "accepted"
	MailRejected = "rejected"
	MailReminder = "reminder"
	MailFlag     = "flag"
	MailFinal    = "final"
	MailNotice   = "notice"
)

// MailSent records that the SMTP server accepted a queued message.
type MailSent struct {
	ID string `json:"id"`
}

// MailFailed records a permanent delivery failure.
type MailFailed struct {
	ID    string `json:"id"`
	Error string `json:"error"`
}

// DiceAdded supplies rolls to a manual-dice game.
type DiceAdded struct {
	Values []int  `json:"values"`
	By     string `json:"by"`
	// PerDie says each value is the face of the die its roll asks for (1
	// to its sides; a d10's 0 face is 10). Without it (logs made before
	// dice of every type) the values are faces of six-sided dice, a d3 or
	// d2 read off them (engine.D6Face).
	PerDie bool `json:"per_die,omitempty"`
}

// DiceCleared drops the manual dice in hand (a value that no roll of the
// waiting resolution can take).
type DiceCleared struct {
	Values []int  `json:"values"`
	By     string `json:"by"`
	Why    string `json:"why"`
}

// DeadlineChanged moves the open phase's deadline.
type DeadlineChanged struct {
	Phase    string    `json:"phase"`
	Deadline time.Time `json:"deadline"`
	By       string    `json:"by"`
	Why      string    `json:"why"`
}

// GamePaused stops the clock of a game.
type GamePaused struct {
	By  string `json:"by"`
	Why string `json:"why"`
}

// GameResumed restarts the clock; the open phase's deadline moves by the
// time spent paused.
type GameResumed struct {
	By       string    `json:"by"`
	Why      string    `json:"why"`
	Deadline time.Time `json:"deadline"`
}

// SideChanged replaces a side's key or address.
type SideChanged struct {
	Player Player `json:"player"`
	By     string `json:"by"`
	Why    string `json:"why"`
}

// SideFlagged tells the referee that a side keeps missing phases.
type SideFlagged struct {
	Side   engine.Side `json:"side"`
	Missed int         `json:"missed"`
}

// GameEnded ends a game and publishes its dice secret.
type GameEnded struct {
	// Why is "over" (the rules ended it), "ended by NAME: reason" or
	// "abandoned by NAME: reason".
	Why    string         `json:"why"`
	Result *engine.Result `json:"result,omitempty"`
	// Secret is the hex dice secret, which anyone can now check against
	// GameCreated.SecretCommitment.
	Secret string `json:"secret"`
}
