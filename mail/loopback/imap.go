package loopback

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// IMAPUser is one account on the loopback IMAP server.
type IMAPUser struct {
	// Username and Password are the LOGIN credentials.
	Username, Password string
}

// IMAPOptions configures StartIMAP.
type IMAPOptions struct {
	// Users are created with an empty INBOX.
	Users []IMAPUser
	// DisableMove stops the server from advertising MOVE.
	DisableMove bool
	// DisableUIDPlus stops the server from advertising UIDPLUS.
	DisableUIDPlus bool
	// TLSConfig, when set, offers STARTTLS (or implicit TLS with ImplicitTLS).
	TLSConfig *tls.Config
	// ImplicitTLS makes the listener speak TLS from the first byte; it needs
	// TLSConfig.
	ImplicitTLS bool
	// RefuseCreate lists folder names whose CREATE the server answers
	// with NO, to test a client's handling of a folder it cannot make.
	RefuseCreate []string
	// Logger receives the server's own error messages; nil discards them.
	Logger *slog.Logger
}

// refusingSession is the in-memory session with CREATE refused for some
// names. It keeps the optional interfaces (MOVE, NAMESPACE) of the session
// it wraps.
type refusingSession struct {
	imapserver.SessionIMAP4rev2
	refuse []string
}

func (r refusingSession) Create(name string, options *imap.CreateOptions) error {
	if slices.Contains(r.refuse, name) {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNoPerm, Text: "Folder creation refused"}
	}
	return r.SessionIMAP4rev2.Create(name, options)
}

// IMAPServer is a running in-memory IMAP server on 127.0.0.1.
type IMAPServer struct {
	mem    *imapmemserver.Server
	srv    *imapserver.Server
	ln     *tracker
	addr   string
	tls    bool
	client *tls.Config // used by the server's own helper connections
	done   chan struct{}

	mu    sync.Mutex
	users map[string]*memUser
}

type memUser struct {
	user     *imapmemserver.User
	password string
}

// slogPrintf adapts an *slog.Logger to imapserver.Logger.
type slogPrintf struct{ l *slog.Logger }

func (p slogPrintf) Printf(format string, args ...any) {
	p.l.Warn(fmt.Sprintf(format, args...))
}

// StartIMAP starts an IMAP server on 127.0.0.1 with a fresh port.
func StartIMAP(opts IMAPOptions) (*IMAPServer, error) {
	if opts.ImplicitTLS && opts.TLSConfig == nil {
		return nil, errors.New("loopback: ImplicitTLS needs a TLSConfig")
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	caps := imap.CapSet{
		imap.CapIMAP4rev1:    {},
		imap.CapNamespace:    {},
		imap.CapLiteralPlus:  {},
		imap.CapESearch:      {},
		imap.CapListExtended: {},
		imap.CapListStatus:   {},
		imap.CapStatusSize:   {},
		imap.CapSpecialUse:   {},
		imap.CapChildren:     {},
	}
	if !opts.DisableMove {
		caps[imap.CapMove] = struct{}{}
	}
	if !opts.DisableUIDPlus {
		caps[imap.CapUIDPlus] = struct{}{}
	}
	s := &IMAPServer{
		mem:   imapmemserver.New(),
		users: make(map[string]*memUser),
		done:  make(chan struct{}),
	}
	srvOpts := &imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			sess := s.mem.NewSession()
			if len(opts.RefuseCreate) > 0 {
				if full, ok := sess.(imapserver.SessionIMAP4rev2); ok {
					return refusingSession{full, opts.RefuseCreate}, nil, nil
				}
			}
			return sess, nil, nil
		},
		Caps:         caps,
		Logger:       slogPrintf{logger},
		InsecureAuth: true,
	}
	if opts.TLSConfig != nil && !opts.ImplicitTLS {
		srvOpts.TLSConfig = opts.TLSConfig
	}
	s.srv = imapserver.New(srvOpts)
	for _, u := range opts.Users {
		if err := s.AddUser(u.Username, u.Password); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("loopback: listen: %w", err)
	}
	var implicit *tls.Config
	if opts.ImplicitTLS {
		implicit = opts.TLSConfig
		s.tls = true
	}
	s.ln = newTracker(ln, implicit)
	s.addr = ln.Addr().String()
	if opts.TLSConfig != nil {
		// The helper connections trust whatever the server presents: they
		// only ever talk to this very process.
		s.client = &tls.Config{InsecureSkipVerify: true}
	}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(s.ln); err != nil {
			logger.Debug("loopback imap: serve ended", "err", err)
		}
	}()
	return s, nil
}

// Addr is the host:port the server listens on.
func (s *IMAPServer) Addr() string { return s.addr }

// AddUser creates an account with an empty INBOX.
func (s *IMAPServer) AddUser(username, password string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[username]; ok {
		return fmt.Errorf("loopback: user %q exists", username)
	}
	u := imapmemserver.NewUser(username, password)
	if err := u.Create("INBOX", nil); err != nil {
		return fmt.Errorf("loopback: create INBOX: %w", err)
	}
	s.mem.AddUser(u)
	s.users[username] = &memUser{user: u, password: password}
	return nil
}

// CreateFolder makes a folder of a user directly in the store, past any
// RefuseCreate (a folder that clients may not make but that exists).
func (s *IMAPServer) CreateFolder(username, folder string) error {
	u, err := s.user(username)
	if err != nil {
		return err
	}
	return u.user.Create(folder, nil)
}

// DeleteFolder removes a folder of a user and the messages in it.
func (s *IMAPServer) DeleteFolder(username, folder string) error {
	u, err := s.user(username)
	if err != nil {
		return err
	}
	return u.user.Delete(folder)
}

func (s *IMAPServer) user(username string) (*memUser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[username]
	if !ok {
		return nil, fmt.Errorf("loopback: no user %q", username)
	}
	return u, nil
}

// rawReader is an imap.LiteralReader over a byte slice.
type rawReader struct {
	*bytes.Reader
	n int64
}

func (r rawReader) Size() int64 { return r.n }

// Append stores a raw message in a folder of a user (INBOX if folder is
// empty) with the given flags, and returns the UID it was given.
func (s *IMAPServer) Append(username, folder string, raw []byte, flags ...imap.Flag) (imap.UID, error) {
	return s.AppendAt(username, folder, raw, time.Time{}, flags...)
}

// AppendAt is Append with the message's INTERNALDATE, the time the server
// says it received the message (now when at is zero), as an APPEND with a
// date sets it.
func (s *IMAPServer) AppendAt(username, folder string, raw []byte, at time.Time, flags ...imap.Flag) (imap.UID, error) {
	u, err := s.user(username)
	if err != nil {
		return 0, err
	}
	if folder == "" {
		folder = "INBOX"
	}
	data, err := u.user.Append(folder, rawReader{bytes.NewReader(raw), int64(len(raw))}, &imap.AppendOptions{Flags: flags, Time: at})
	if err != nil {
		return 0, fmt.Errorf("loopback: append to %s: %w", folder, err)
	}
	return data.UID, nil
}

// StoredMessage is a message as the loopback IMAP server holds it.
type StoredMessage struct {
	// UID is the message's UID in its folder.
	UID imap.UID
	// Flags are the message's flags, keywords included.
	Flags []imap.Flag
	// Raw is the full message.
	Raw []byte
}

// dial opens a helper client session logged in as the user.
func (s *IMAPServer) dial(username string) (*imapclient.Client, error) {
	u, err := s.user(username)
	if err != nil {
		return nil, err
	}
	var c *imapclient.Client
	opts := &imapclient.Options{TLSConfig: s.client}
	if s.tls {
		c, err = imapclient.DialTLS(s.addr, opts)
	} else {
		c, err = imapclient.DialInsecure(s.addr, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("loopback: dial: %w", err)
	}
	if err := c.Login(username, u.password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("loopback: login: %w", err)
	}
	return c, nil
}

// Folders lists a user's folders in name order.
func (s *IMAPServer) Folders(username string) ([]string, error) {
	c, err := s.dial(username)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		return nil, fmt.Errorf("loopback: list: %w", err)
	}
	names := make([]string, 0, len(list))
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	sort.Strings(names)
	return names, nil
}

// Messages lists the messages of a user's folder in UID order, without
// changing their flags.
func (s *IMAPServer) Messages(username, folder string) ([]StoredMessage, error) {
	c, err := s.dial(username)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	sel, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("loopback: select %s: %w", folder, err)
	}
	if sel.NumMessages == 0 {
		return nil, nil
	}
	var seq imap.SeqSet
	seq.AddRange(1, sel.NumMessages)
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(seq, &imap.FetchOptions{UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, fmt.Errorf("loopback: fetch %s: %w", folder, err)
	}
	out := make([]StoredMessage, 0, len(bufs))
	for _, b := range bufs {
		out = append(out, StoredMessage{UID: b.UID, Flags: b.Flags, Raw: b.FindBodySection(section)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UID < out[j].UID })
	return out, nil
}

// UIDValidity returns the current UIDVALIDITY of a user's folder.
func (s *IMAPServer) UIDValidity(username, folder string) (uint32, error) {
	c, err := s.dial(username)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	st, err := c.Status(folder, &imap.StatusOptions{UIDValidity: true}).Wait()
	if err != nil {
		return 0, fmt.Errorf("loopback: status %s: %w", folder, err)
	}
	return st.UIDValidity, nil
}

// ResetUIDValidity deletes a user's folder and creates it again with the
// same messages (and flags) in the same order: the folder gets a new
// UIDVALIDITY and its messages new UIDs, as after a server migration.
func (s *IMAPServer) ResetUIDValidity(username, folder string) error {
	msgs, err := s.Messages(username, folder)
	if err != nil {
		return err
	}
	u, err := s.user(username)
	if err != nil {
		return err
	}
	s.ln.dropAll() // sessions holding the old folder open must reconnect
	if err := u.user.Delete(folder); err != nil {
		return fmt.Errorf("loopback: delete %s: %w", folder, err)
	}
	if err := u.user.Create(folder, nil); err != nil {
		return fmt.Errorf("loopback: create %s: %w", folder, err)
	}
	for _, m := range msgs {
		if _, err := s.Append(username, folder, m.Raw, m.Flags...); err != nil {
			return err
		}
	}
	return nil
}

// CutConnectionsAfter lets every connection open now write n more bytes and
// then closes it, so a client loses the connection in the middle of a
// response. It returns how many connections were armed.
func (s *IMAPServer) CutConnectionsAfter(n int64) int { return s.ln.cutAfter(n) }

// DropConnections closes every open client connection at once and returns
// how many there were.
func (s *IMAPServer) DropConnections() int { return s.ln.dropAll() }

// OpenConnections reports how many client connections are open.
func (s *IMAPServer) OpenConnections() int { return s.ln.open() }

// Close stops the server and closes every connection.
func (s *IMAPServer) Close() error {
	err := s.srv.Close()
	// Closed at once after Start, the server may not have its listener
	// yet (Serve not started): closing it ends Serve then.
	s.ln.Close()
	<-s.done
	s.ln.dropAll()
	if err != nil {
		return fmt.Errorf("loopback: close imap: %w", err)
	}
	return nil
}

// Shutdown is Close bounded by ctx, for callers that hold a context.
func (s *IMAPServer) Shutdown(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("loopback: shutdown imap: %w", ctx.Err())
	}
}
