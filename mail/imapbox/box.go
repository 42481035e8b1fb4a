package imapbox

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"

	"skagerrak/mail/internal/netutil"
)

// ErrNoMessage is returned by Move when the mailbox holds no message with
// the UID (already moved, or expunged by another client).
var ErrNoMessage = errors.New("imapbox: no such message")

// ErrUIDValidityChanged is returned by Move when the mailbox's UIDVALIDITY
// is no longer the one the message was fetched under: its UID may now name
// another message. Fetch again.
var ErrUIDValidityChanged = errors.New("imapbox: UIDVALIDITY changed since the message was fetched")

// ErrClosed is returned by the methods of a closed Box.
var ErrClosed = errors.New("imapbox: box is closed")

// Message is one message fetched from the mailbox.
type Message struct {
	// UID is the message's UID in the mailbox, valid under UIDValidity.
	UID uint32
	// UIDValidity is the mailbox's UIDVALIDITY when the message was fetched.
	UIDValidity uint32
	// Size is the message's size as the server reports it (RFC822.SIZE).
	Size int64
	// TooLarge is set when Size exceeds Config.MaxMessageSize; Raw is then
	// nil and the caller should move the message aside.
	TooLarge bool
	// Raw is the whole message (RFC 5322 bytes), exactly as stored.
	Raw []byte
	// Received is the message's INTERNALDATE: when the server received
	// it (set on delivery by the host's own server, not by the sender).
	Received time.Time
}

// Box reads one mailbox. Its methods are safe for concurrent use but run one
// at a time: Wait holds the connection until it returns. Only one Box (one
// process) may use a mailbox and state directory at a time; the caller's
// own lock (the game log's) ensures that.
type Box struct {
	cfg       Config
	log       *slog.Logger
	statePath string
	rnd       func() float64

	mu     sync.Mutex
	st     state
	sess   *session
	closed bool
	// processed and rejected are the folder names in use, resolved on the
	// first connection; delim is the server's hierarchy delimiter.
	processed, rejected string
	delim               rune

	// ignoreCaps are capabilities treated as absent even when advertised
	// (tests use it to run the fallbacks against a full server).
	ignoreCaps []imap.Cap
}

// session is one logged-in connection with the mailbox selected.
type session struct {
	c           *imapclient.Client
	dc          *deadlineConn
	caps        imap.CapSet
	uidValidity uint32
	keywords    bool          // the mailbox accepts MovedKeyword permanently
	updates     chan struct{} // a message count arrived (EXISTS)
}

// Open checks cfg, loads the state file and connects, retrying with backoff
// as the operations do. The Processed and Rejected folders are created if
// missing; when they or the mailbox cannot be made or used, Open returns a
// *FolderError at once.
func Open(ctx context.Context, cfg Config) (*Box, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	b := &Box{
		cfg:       cfg,
		log:       cfg.Logger.With("component", "imapbox", "mailbox", cfg.Mailbox),
		statePath: filepath.Join(cfg.StateDir, stateFileName(cfg.Addr, cfg.Username, cfg.Mailbox)),
		rnd:       rand.Float64,
	}
	if cfg.Jitter != nil {
		b.rnd = rand.New(cfg.Jitter).Float64
	}
	if b.st, err = loadState(b.statePath); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.run(ctx, "open", func(*session) error { return nil }); err != nil {
		return nil, err
	}
	return b, nil
}

// Close logs out and closes the connection. It waits for a running
// operation to end: cancel the context of a Wait first.
func (b *Box) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	b.closed = true
	if b.sess == nil {
		return nil
	}
	s := b.sess
	b.sess = nil
	s.dc.arm(b.cfg.CommandTimeout)
	logoutErr := s.c.Logout().Wait()
	if err := s.c.Close(); err != nil && logoutErr == nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("imapbox: close: %w", err)
	}
	return nil
}

// Fetch returns the messages of the mailbox not yet dealt with, in UID
// order, at most Config.MaxFetch of them, without setting \Seen
// (BODY.PEEK[]). A message stays a candidate until Move takes it away, so a
// crash between Fetch and Move loses nothing: the message comes again. When
// the mailbox's UIDVALIDITY differs from the saved one, the saved UID is not
// trusted and every message in the mailbox (but those carrying MovedKeyword)
// is a candidate again.
func (b *Box) Fetch(ctx context.Context) ([]Message, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Message
	err := b.run(ctx, "fetch", func(s *session) error {
		var err error
		out, err = b.fetch(s)
		return err
	})
	return out, err
}

// candidates searches the mailbox for UIDs above LastUID that were not left
// in place, in ascending order, and advances LastUID past everything below
// the first candidate (making the state file smaller).
func (b *Box) candidates(s *session) ([]uint32, error) {
	if err := b.checkValidity(s); err != nil {
		return nil, err
	}
	var set imap.UIDSet
	set.AddRange(imap.UID(b.st.LastUID+1), 0) // LastUID+1:*
	criteria := &imap.SearchCriteria{UID: []imap.UIDSet{set}}
	if s.keywords {
		criteria.NotFlag = []imap.Flag{MovedKeyword}
	}
	data, err := s.c.UIDSearch(criteria, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("imapbox: search: %w", err)
	}
	var found []uint32
	for _, u := range data.AllUIDs() {
		// "n:*" with n above the highest UID matches the highest message
		// (RFC 3501 section 6.4.8): drop anything at or below LastUID.
		if uint32(u) > b.st.LastUID {
			found = append(found, uint32(u))
		}
	}
	slices.Sort(found)
	var cands []uint32
	for _, u := range found {
		if !b.st.leftInPlace(u) {
			cands = append(cands, u)
		}
	}
	floor := uint32(0)
	switch {
	case len(cands) > 0:
		floor = cands[0] - 1
	case len(found) > 0:
		floor = found[len(found)-1]
	}
	if b.st.compact(floor) {
		if err := saveState(b.statePath, b.st); err != nil {
			return nil, local(err)
		}
	}
	return cands, nil
}

// checkValidity compares the session's UIDVALIDITY with the saved one and
// resets the saved position when they differ.
func (b *Box) checkValidity(s *session) error {
	if b.st.UIDValidity == s.uidValidity {
		return nil
	}
	if b.st.UIDValidity != 0 {
		b.log.Warn("UIDVALIDITY changed: every message in the mailbox is a candidate again",
			"old", b.st.UIDValidity, "new", s.uidValidity, "old_last_uid", b.st.LastUID)
	}
	b.st = state{Version: stateVersion, UIDValidity: s.uidValidity}
	return local(saveState(b.statePath, b.st))
}

// fetch downloads the candidate messages (at most Config.MaxFetch), in
// UID order: their sizes and dates first, then the bodies of those within
// Config.MaxMessageSize.
func (b *Box) fetch(s *session) ([]Message, error) {
	cands, err := b.candidates(s)
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		return nil, nil
	}
	if len(cands) > b.cfg.MaxFetch {
		cands = cands[:b.cfg.MaxFetch]
	}
	msgs, small, err := b.fetchSizes(s, cands)
	if err != nil {
		return nil, err
	}
	if len(small) > 0 {
		if err := b.fetchBodies(s, small, msgs); err != nil {
			return nil, err
		}
		if err := b.fetchBinary(s, cands, msgs); err != nil {
			return nil, err
		}
	}
	out := make([]Message, 0, len(msgs))
	for _, u := range cands {
		msg, ok := msgs[u]
		if !ok || (!msg.TooLarge && msg.Raw == nil) {
			continue // expunged by someone between SEARCH and FETCH
		}
		out = append(out, *msg)
	}
	b.log.Debug("fetched", "count", len(out), "uid_validity", s.uidValidity)
	return out, nil
}

// fetchSizes fetches the candidates' sizes and dates. It returns a
// Message for each candidate still there, marked TooLarge above
// Config.MaxMessageSize, and the set of the others, whose bodies are to
// be fetched.
func (b *Box) fetchSizes(s *session, cands []uint32) (map[uint32]*Message, imap.UIDSet, error) {
	var all imap.UIDSet
	for _, u := range cands {
		all.AddNum(imap.UID(u))
	}
	sizes, err := s.c.Fetch(all, &imap.FetchOptions{UID: true, RFC822Size: true, InternalDate: true}).Collect()
	if err != nil {
		return nil, nil, fmt.Errorf("imapbox: fetch sizes: %w", err)
	}
	wanted := make(map[uint32]bool, len(cands))
	for _, u := range cands {
		wanted[u] = true
	}
	msgs := make(map[uint32]*Message, len(sizes))
	var small imap.UIDSet
	for _, m := range sizes {
		u := uint32(m.UID)
		if !wanted[u] {
			continue
		}
		msg := &Message{UID: u, UIDValidity: s.uidValidity, Size: m.RFC822Size, Received: m.InternalDate.UTC()}
		if m.RFC822Size > b.cfg.MaxMessageSize {
			msg.TooLarge = true
			b.log.Warn("message too large, not downloaded", "uid", u, "size", m.RFC822Size, "limit", b.cfg.MaxMessageSize)
		} else {
			small.AddNum(m.UID)
		}
		msgs[u] = msg
	}
	return msgs, small, nil
}

// fetchBodies fetches the bodies (BODY.PEEK[]) of the messages in small
// into msgs; a body larger than its RFC822.SIZE said marks its message
// TooLarge.
func (b *Box) fetchBodies(s *session, small imap.UIDSet, msgs map[uint32]*Message) error {
	section := &imap.FetchItemBodySection{Peek: true}
	cmd := s.c.Fetch(small, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}})
	return b.readBodies(cmd, "fetch body", func(uid uint32, raw []byte, tooLarge bool) {
		msg, ok := msgs[uid]
		switch {
		case !ok || msg.TooLarge:
		case tooLarge:
			msg.TooLarge = true
			b.log.Warn("message larger than its RFC822.SIZE said, not kept", "uid", uid, "size", msg.Size, "limit", b.cfg.MaxMessageSize)
		case raw != nil:
			msg.Raw = raw
		}
	})
}

// readBodies reads each response of a FETCH of a body section to its end
// (see readBody) and hands its UID and body to got, then closes the
// command; what names the fetch in errors.
func (b *Box) readBodies(cmd *imapclient.FetchCommand, what string, got func(uid uint32, raw []byte, tooLarge bool)) error {
	for {
		md := cmd.Next()
		if md == nil {
			break
		}
		uid, raw, tooLarge, err := readBody(md, b.cfg.MaxMessageSize)
		if err != nil {
			// The connection broke inside a literal. Touch the command
			// no more (the client's reader goroutine owns the stream
			// now); the caller drops the connection.
			return &connError{fmt.Errorf("imapbox: %s: %w", what, err)}
		}
		got(uid, raw, tooLarge)
	}
	if err := cmd.Close(); err != nil {
		return fmt.Errorf("imapbox: %s: %w", what, err)
	}
	return nil
}

// readBody reads one FETCH response's UID and body section (BODY[] or
// BINARY[]). The body is read to its end here so that an error while
// reading it is seen here. A literal above limit (a server whose
// RFC822.SIZE understated it) is read past and reported as too large.
func readBody(md *imapclient.FetchMessageData, limit int64) (uid uint32, raw []byte, tooLarge bool, err error) {
	for {
		item := md.Next()
		if item == nil {
			return uid, raw, tooLarge, nil
		}
		var lit imap.LiteralReader
		switch it := item.(type) {
		case imapclient.FetchItemDataUID:
			uid = uint32(it.UID)
			continue
		case imapclient.FetchItemDataBodySection:
			lit = it.Literal
		case imapclient.FetchItemDataBinarySection:
			lit = it.Literal
		default:
			continue
		}
		raw, tooLarge = []byte{}, false
		if lit == nil {
			continue
		}
		size := lit.Size()
		var n int64
		if size > limit {
			tooLarge, raw = true, nil
			n, err = io.Copy(io.Discard, lit)
		} else {
			raw, err = io.ReadAll(lit)
			n = int64(len(raw))
		}
		if err == nil && n != size {
			// A connection closed inside the literal reads as EOF.
			err = fmt.Errorf("literal cut at %d of %d bytes: %w", n, size, io.ErrUnexpectedEOF)
		}
		if err != nil {
			return 0, nil, false, err
		}
	}
}

// MoveProcessed moves a message to Config.Processed; see Move.
func (b *Box) MoveProcessed(ctx context.Context, uidValidity, uid uint32) error {
	return b.Move(ctx, uidValidity, uid, b.Processed())
}

// MoveRejected moves a message to Config.Rejected; see Move.
func (b *Box) MoveRejected(ctx context.Context, uidValidity, uid uint32) error {
	return b.Move(ctx, uidValidity, uid, b.Rejected())
}

// Move takes the message with uid (fetched under uidValidity) out of the
// mailbox into folder, creating folder when it is missing; if it cannot be
// created the message stays where it is.
//
// With MOVE it is one UID MOVE. Without MOVE but with UIDPLUS it is UID
// COPY (its result checked), then \Deleted and MovedKeyword on that UID and
// UID EXPUNGE of that UID alone. Without UIDPLUS, EXPUNGE would also remove
// other clients' \Deleted messages, so it is never sent: the message is
// copied and left in place flagged \Seen (and MovedKeyword where the
// mailbox allows keywords), and the state file records it so that Fetch
// skips it. A message already carrying MovedKeyword was copied before (a
// retry after a lost connection) and is not copied again.
//
// It returns ErrNoMessage when the mailbox has no such UID and
// ErrUIDValidityChanged when uidValidity is stale.
func (b *Box) Move(ctx context.Context, uidValidity, uid uint32, folder string) error {
	if folder == "" {
		return errors.New("imapbox: move: empty folder name")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	removing := false // an earlier attempt sent MOVE or EXPUNGE; outcome unknown
	return b.run(ctx, "move", func(s *session) error {
		return b.move(s, uidValidity, uid, folder, &removing)
	})
}

// move is one attempt of Move on session s: it looks the message up, then
// moves it by MOVE, by COPY and UID EXPUNGE, or by COPY alone, as the
// server allows. removing says an earlier attempt sent MOVE or EXPUNGE.
func (b *Box) move(s *session, uidValidity, uid uint32, folder string, removing *bool) error {
	if s.uidValidity != uidValidity {
		return local(ErrUIDValidityChanged)
	}
	if err := b.checkValidity(s); err != nil {
		return err
	}
	set := imap.UIDSetNum(imap.UID(uid))
	flags, found, err := lookUpFlags(s, set, uid)
	if err != nil {
		return err
	}
	if !found {
		if *removing {
			// The connection broke after MOVE or EXPUNGE was sent, and the
			// message is gone: that command did its work.
			b.log.Info("message gone after an interrupted move: taken as moved", "uid", uid, "folder", folder)
			return nil
		}
		return local(fmt.Errorf("imapbox: move uid %d: %w", uid, ErrNoMessage))
	}
	log := b.log.With("uid", uid, "folder", folder)
	if s.caps.Has(imap.CapMove) {
		return moveByMove(s, set, uid, folder, removing, log)
	}
	if !hasFlag(flags, MovedKeyword) {
		if err := copyTo(s, set, uid, folder); err != nil {
			return err
		}
	}
	if s.caps.Has(imap.CapUIDPlus) {
		return expungeCopied(s, set, uid, removing, log)
	}
	return b.leaveCopied(s, set, uid, log)
}

// lookUpFlags fetches the flags of the message uid (set names it alone);
// found is false when the mailbox has no such message.
func lookUpFlags(s *session, set imap.UIDSet, uid uint32) (flags []imap.Flag, found bool, err error) {
	bufs, err := s.c.Fetch(set, &imap.FetchOptions{UID: true, Flags: true}).Collect()
	if err != nil {
		return nil, false, fmt.Errorf("imapbox: move: look up uid %d: %w", uid, err)
	}
	for _, m := range bufs {
		if uint32(m.UID) == uid {
			found, flags = true, m.Flags
		}
	}
	return flags, found, nil
}

// moveByMove moves the message with one UID MOVE, creating folder when it
// is missing.
func moveByMove(s *session, set imap.UIDSet, uid uint32, folder string, removing *bool, log *slog.Logger) error {
	err := withCreate(s, folder, func() error {
		*removing = true
		_, err := s.c.Move(set, folder).Wait()
		return err
	})
	if err != nil {
		return fmt.Errorf("imapbox: move uid %d to %s: %w", uid, folder, err)
	}
	log.Info("moved")
	return nil
}

// copyTo copies the message with UID COPY, creating folder when it is
// missing, and checks that the server's COPYUID (if it sends one) names
// the message.
func copyTo(s *session, set imap.UIDSet, uid uint32, folder string) error {
	var data *imap.CopyData
	err := withCreate(s, folder, func() error {
		var err error
		data, err = s.c.Copy(set, folder).Wait()
		return err
	})
	if err != nil {
		return fmt.Errorf("imapbox: copy uid %d to %s: %w", uid, folder, err)
	}
	if data != nil && data.UIDValidity != 0 && !data.SourceUIDs.Contains(imap.UID(uid)) {
		return local(fmt.Errorf("imapbox: copy uid %d to %s: the server's COPYUID does not name it (%v)", uid, folder, data.SourceUIDs))
	}
	return nil
}

// expungeCopied takes a copied message out of the mailbox: it flags it
// \Deleted (and MovedKeyword where the mailbox allows keywords) and
// expunges that UID alone (UIDPLUS).
func expungeCopied(s *session, set imap.UIDSet, uid uint32, removing *bool, log *slog.Logger) error {
	mark := []imap.Flag{imap.FlagDeleted}
	if s.keywords {
		mark = append(mark, MovedKeyword)
	}
	if err := s.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: mark}, nil).Close(); err != nil {
		return fmt.Errorf("imapbox: flag uid %d deleted: %w", uid, err)
	}
	*removing = true
	if err := s.c.UIDExpunge(set).Close(); err != nil {
		return fmt.Errorf("imapbox: expunge uid %d: %w", uid, err)
	}
	log.Info("moved by copy and UID EXPUNGE")
	return nil
}

// leaveCopied leaves a copied message in the mailbox (no MOVE, no
// UIDPLUS): it flags it \Seen (and MovedKeyword where the mailbox allows
// keywords) and records it in the state file, so that Fetch skips it.
func (b *Box) leaveCopied(s *session, set imap.UIDSet, uid uint32, log *slog.Logger) error {
	mark := []imap.Flag{imap.FlagSeen}
	if s.keywords {
		mark = append(mark, MovedKeyword)
	}
	if err := s.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: mark}, nil).Close(); err != nil {
		return fmt.Errorf("imapbox: flag uid %d: %w", uid, err)
	}
	if uid > b.st.LastUID && !b.st.leftInPlace(uid) {
		b.st.LeftInPlace = append(b.st.LeftInPlace, uid)
		if err := saveState(b.statePath, b.st); err != nil {
			return local(err)
		}
	}
	log.Warn("copied; the original stays in the mailbox (no MOVE, no UIDPLUS) and will be skipped")
	return nil
}

// withCreate runs op; when the server says the target folder does not
// exist, it creates the folder and runs op once more.
func withCreate(s *session, folder string, op func() error) error {
	err := op()
	var ierr *imap.Error
	if err == nil || !errors.As(err, &ierr) {
		return err
	}
	if ierr.Code != imap.ResponseCodeTryCreate && ierr.Code != imap.ResponseCodeNonExistent {
		return err
	}
	if cerr := createFolder(s, folder); cerr != nil {
		return fmt.Errorf("target folder missing and not created: %w", cerr)
	}
	return op()
}

// Wait blocks until the mailbox may hold messages that Fetch would return,
// or ctx ends. It returns at once when such messages are already there.
// Where the server offers IDLE (and Config.NoIdle is not set) it idles,
// ending and reissuing IDLE every Config.IdleRestart; otherwise it polls
// every Config.PollInterval. A lost connection is re-established with
// backoff and the mailbox checked again, so no arrival is missed.
func (b *Box) Wait(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.runOpt(ctx, "wait", func(s *session) error { return b.wait(ctx, s) }, false)
}

func (b *Box) wait(ctx context.Context, s *session) error {
	for {
		drain(s.updates)
		cands, err := b.candidates(s)
		if err != nil {
			return err
		}
		if len(cands) > 0 {
			return nil
		}
		if b.cfg.NoIdle || !s.caps.Has(imap.CapIdle) {
			s.dc.arm(0)
			if err := b.cfg.Sleep(ctx, b.cfg.PollInterval); err != nil {
				return err
			}
			s.dc.arm(b.cfg.CommandTimeout)
			if err := s.c.Noop().Wait(); err != nil {
				return fmt.Errorf("imapbox: noop: %w", err)
			}
			continue
		}
		if err := b.idleOnce(ctx, s); err != nil {
			return err
		}
	}
}

// idleOnce runs one IDLE until new mail is announced, the watchdog fires,
// ctx ends or the connection dies.
func (b *Box) idleOnce(ctx context.Context, s *session) error {
	idle, err := s.c.Idle()
	if err != nil {
		return fmt.Errorf("imapbox: idle: %w", err)
	}
	// A server may stay silent for the whole IDLE; after that it has
	// CommandTimeout to answer DONE.
	s.dc.arm(b.cfg.IdleRestart + b.cfg.CommandTimeout)
	watchdog := time.NewTimer(b.cfg.IdleRestart)
	defer watchdog.Stop()
	reason := ""
	select {
	case <-s.updates:
		reason = "new mail"
	case <-watchdog.C:
		reason = "watchdog"
	case <-ctx.Done():
		reason = "cancelled"
	case <-s.c.Closed():
		return fmt.Errorf("imapbox: idle: %w", io.ErrUnexpectedEOF)
	}
	b.log.Debug("ending IDLE", "reason", reason)
	s.dc.arm(b.cfg.CommandTimeout)
	if err := idle.Close(); err != nil {
		return fmt.Errorf("imapbox: end idle: %w", err)
	}
	if err := idle.Wait(); err != nil {
		return fmt.Errorf("imapbox: idle: %w", err)
	}
	return ctx.Err()
}

func drain(ch chan struct{}) {
	select {
	case <-ch:
	default:
	}
}

// run performs op on a live session, connecting first if needed. When the
// connection fails (to connect, or under op) it is dropped and op is tried
// again on a new one after a backoff delay; an answer from the server (NO,
// BAD) or a local error ends the attempts at once.
func (b *Box) run(ctx context.Context, name string, op func(*session) error) error {
	return b.runOpt(ctx, name, op, true)
}

// runOpt is run; closeOnCancel false leaves ending op at ctx's end to op
// itself (Wait ends IDLE cleanly instead of dropping the connection).
func (b *Box) runOpt(ctx context.Context, name string, op func(*session) error, closeOnCancel bool) error {
	if b.closed {
		return ErrClosed
	}
	var last error // the failure that made the last attempt retry
	ended := func(ctxErr error) error {
		if last != nil {
			return fmt.Errorf("imapbox: %s: %w after %d attempt(s); the last failed with: %v", name, ctxErr, attemptsOf(last), last)
		}
		return fmt.Errorf("imapbox: %s: %w", name, ctxErr)
	}
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return ended(err)
		}
		err := b.attempt(ctx, op, closeOnCancel)
		if err == nil {
			return nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			if last == nil || b.connLost(err) {
				last = &retried{err: err, attempts: attempt}
			}
			return ended(ctxErr)
		}
		if !b.connLost(err) {
			return err
		}
		last = &retried{err: err, attempts: attempt}
		b.drop()
		if b.cfg.MaxAttempts > 0 && attempt >= b.cfg.MaxAttempts {
			return fmt.Errorf("imapbox: %s: giving up after %d attempts: %w", name, attempt, err)
		}
		d := netutil.Backoff(attempt, b.cfg.BackoffInitial, b.cfg.BackoffMax, b.rnd)
		b.log.Warn("connection lost, retrying", "op", name, "attempt", attempt, "delay", d, "err", err)
		if err := b.cfg.Sleep(ctx, d); err != nil {
			return ended(err)
		}
	}
}

// retried is a failure that an attempt of an operation ended with.
type retried struct {
	err      error
	attempts int
}

func (r *retried) Error() string { return r.err.Error() }
func (r *retried) Unwrap() error { return r.err }

// attemptsOf is the number of attempts a retried failure records.
func attemptsOf(err error) int {
	var r *retried
	if errors.As(err, &r) {
		return r.attempts
	}
	return 1
}

// attempt runs op once, connecting first when there is no session. While it
// runs, the end of ctx closes the connection so no command outlives it.
func (b *Box) attempt(ctx context.Context, op func(*session) error, closeOnCancel bool) error {
	if b.sess == nil {
		s, err := b.connect(ctx)
		if err != nil {
			return err
		}
		b.sess = s
	}
	s := b.sess
	s.dc.arm(b.cfg.CommandTimeout)
	stop := func() bool { return true }
	if closeOnCancel {
		stop = context.AfterFunc(ctx, func() { s.c.Close() })
	}
	err := op(s)
	if !stop() {
		b.drop() // the connection was closed under op
	} else if b.sess == s {
		s.dc.arm(0)
	}
	return err
}

// connError marks a failure to reach or talk to the server at all.
type connError struct{ err error }

func (e *connError) Error() string { return e.err.Error() }
func (e *connError) Unwrap() error { return e.err }

// localError marks a failure on this side (the state file, a stale UID, a
// server answer that does not add up): retrying on a new connection would
// not help.
type localError struct{ err error }

func (e *localError) Error() string { return e.err.Error() }
func (e *localError) Unwrap() error { return e.err }

// local wraps err as a localError; nil stays nil.
func local(err error) error {
	if err == nil {
		return nil
	}
	return &localError{err}
}

// connLost reports whether err means the connection is gone or unusable.
// The server's own answers (NO, BAD) and local failures are not; anything
// else the client library reports (EOF, a timeout, a garbled response) is.
func (b *Box) connLost(err error) bool {
	var ce *connError
	if errors.As(err, &ce) {
		return true
	}
	var le *localError
	var ierr *imap.Error
	return !errors.As(err, &le) && !errors.As(err, &ierr)
}

// drop abandons the current session.
func (b *Box) drop() {
	if b.sess != nil {
		b.sess.c.Close()
		b.sess = nil
	}
}

// connect dials, secures, logs in, checks capabilities, makes sure the
// target folders exist and selects the mailbox.
func (b *Box) connect(ctx context.Context) (*session, error) {
	s, err := b.dial(ctx)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			s.c.Close()
		}
	}()
	stop := context.AfterFunc(ctx, func() { s.c.Close() })
	defer stop()

	if err := b.login(s); err != nil {
		return nil, err
	}
	if err := b.readCaps(s); err != nil {
		return nil, err
	}
	if err := b.resolveFolders(s); err != nil {
		return nil, err
	}
	for _, f := range []struct{ role, name string }{{RoleProcessed, b.processed}, {RoleRejected, b.rejected}} {
		if err := b.ensureFolder(s, f.role, f.name); err != nil {
			return nil, err
		}
	}
	numMessages, err := b.selectMailbox(s)
	if err != nil {
		return nil, err
	}
	b.log.Info("connected", "addr", b.cfg.Addr, "tls", b.cfg.TLS,
		"move", s.caps.Has(imap.CapMove), "uidplus", s.caps.Has(imap.CapUIDPlus),
		"idle", s.caps.Has(imap.CapIdle), "uid_validity", s.uidValidity, "messages", numMessages)
	ok = true
	return s, nil
}

// dial connects to the server within Config.DialTimeout, sets up TLS as
// configured and starts a client on the connection.
func (b *Box) dial(ctx context.Context) (*session, error) {
	cfg := b.cfg
	dctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout)
	defer cancel()
	d := net.Dialer{}
	raw, err := d.DialContext(dctx, "tcp", cfg.Addr)
	if err != nil {
		return nil, &connError{fmt.Errorf("imapbox: dial %s: %w", cfg.Addr, err)}
	}
	dc := &deadlineConn{Conn: raw}
	dc.arm(cfg.CommandTimeout)
	s := &session{dc: dc, updates: make(chan struct{}, 1)}
	opts := &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{Mailbox: s.noteArrival},
		TLSConfig:             b.tlsConfig(),
	}
	switch cfg.TLS {
	case TLSImplicit:
		tc := tls.Client(dc, opts.TLSConfig)
		if err := tc.HandshakeContext(dctx); err != nil {
			raw.Close()
			return nil, tlsFailure(fmt.Errorf("imapbox: TLS handshake with %s: %w", cfg.Addr, err))
		}
		s.c = imapclient.New(tc, opts)
	case TLSStartTLS:
		stop := context.AfterFunc(dctx, func() { raw.Close() })
		s.c, err = imapclient.NewStartTLS(dc, opts)
		stop()
		if err != nil {
			raw.Close()
			return nil, tlsFailure(fmt.Errorf("imapbox: STARTTLS with %s: %w", cfg.Addr, err))
		}
	default:
		s.c = imapclient.New(dc, opts)
	}
	return s, nil
}

// noteArrival signals s.updates (without blocking) when the server tells
// a new message count.
func (s *session) noteArrival(data *imapclient.UnilateralDataMailbox) {
	if data.NumMessages != nil {
		select {
		case s.updates <- struct{}{}:
		default:
		}
	}
}

// tlsConfig is Config.TLSConfig (or an empty one), with the server name
// taken from Config.Addr when it has none.
func (b *Box) tlsConfig() *tls.Config {
	tlsConfig := &tls.Config{}
	if b.cfg.TLSConfig != nil {
		tlsConfig = b.cfg.TLSConfig.Clone()
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName, _, _ = net.SplitHostPort(b.cfg.Addr)
	}
	return tlsConfig
}

// login waits for the server's greeting and logs in: AUTHENTICATE PLAIN
// where the server disables LOGIN, LOGIN otherwise.
func (b *Box) login(s *session) error {
	if err := s.c.WaitGreeting(); err != nil {
		return &connError{fmt.Errorf("imapbox: greeting: %w", err)}
	}
	pre, err := s.c.Capability().Wait()
	if err != nil {
		return fmt.Errorf("imapbox: capability: %w", err)
	}
	if pre.Has(imap.CapLoginDisabled) {
		err = s.c.Authenticate(sasl.NewPlainClient("", b.cfg.Username, b.cfg.Password))
	} else {
		err = s.c.Login(b.cfg.Username, b.cfg.Password).Wait()
	}
	if err != nil {
		return fmt.Errorf("imapbox: login as %s: %w", b.cfg.Username, err)
	}
	return nil
}

// readCaps asks for the capabilities after login, less those the box is
// told to ignore.
func (b *Box) readCaps(s *session) error {
	caps, err := s.c.Capability().Wait()
	if err != nil {
		return fmt.Errorf("imapbox: capability: %w", err)
	}
	s.caps = caps.Copy()
	for _, c := range b.ignoreCaps {
		delete(s.caps, c)
	}
	if s.caps.Has(imap.CapIMAP4rev2) && len(b.ignoreCaps) > 0 {
		// IMAP4rev2 implies MOVE and UIDPLUS; keep only what it says alone.
		delete(s.caps, imap.CapIMAP4rev2)
		s.caps[imap.CapIMAP4rev1] = struct{}{}
		s.caps[imap.CapIdle] = struct{}{}
	}
	return nil
}

// selectMailbox selects Config.Mailbox and keeps its UIDVALIDITY and
// whether it takes MovedKeyword; it returns the mailbox's message count.
func (b *Box) selectMailbox(s *session) (uint32, error) {
	mailbox := b.cfg.Mailbox
	sel, err := s.c.Select(mailbox, nil).Wait()
	var ierr *imap.Error
	if errors.As(err, &ierr) {
		return 0, local(&FolderError{Role: RoleMailbox, Folder: mailbox, Delim: b.delim, Err: fmt.Errorf("cannot be selected: the server says %w", err)})
	}
	if err != nil {
		return 0, fmt.Errorf("imapbox: select %s: %w", mailbox, err)
	}
	if sel.UIDValidity == 0 {
		return 0, local(fmt.Errorf("imapbox: select %s: the server sent no UIDVALIDITY", mailbox))
	}
	s.uidValidity = sel.UIDValidity
	s.keywords = hasFlag(sel.PermanentFlags, imap.FlagWildcard) || hasFlag(sel.PermanentFlags, MovedKeyword)
	return sel.NumMessages, nil
}

// tlsFailure classifies a TLS setup error: a certificate that does not
// verify is final, anything else may be a passing network fault.
func tlsFailure(err error) error {
	var cv *tls.CertificateVerificationError
	var ierr *imap.Error
	if errors.As(err, &cv) || errors.As(err, &ierr) {
		return local(err)
	}
	return &connError{err}
}

// hasFlag reports whether flags holds f; flag names are case-insensitive.
func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	return slices.ContainsFunc(flags, func(g imap.Flag) bool { return strings.EqualFold(string(g), string(f)) })
}
