// Package loopback runs real mail servers in-process on 127.0.0.1 for tests
// and for the `skagerrak demo` command.
//
// StartIMAP serves go-imap's in-memory backend (imapserver with
// imapmemserver): users with passwords, an INBOX and any folders the client
// creates. The server can be started without MOVE or UIDPLUS to exercise a
// client's fallbacks, can cut the connections it has open after a number of
// bytes (a connection dropped in the middle of a response), and can give a
// mailbox a new UIDVALIDITY. Test code appends raw messages and lists folders
// and their messages through the server's own IMAP protocol.
//
// StartSMTP serves go-smtp with a backend that keeps every message it
// accepts together with its envelope (MAIL FROM, RCPT TO) and hands them out
// per recipient. It can require AUTH PLAIN, offer STARTTLS or implicit TLS,
// and can be told to answer the next transactions with a 4xx or a 5xx.
//
// SelfSignedTLS makes a throwaway certificate for 127.0.0.1 and localhost
// and the matching client configuration, so both servers can be tested with
// STARTTLS and implicit TLS without touching the system trust store.
//
// Everything listens on 127.0.0.1:0; Close stops the listener and every open
// connection. Nothing here is meant to face a network.
package loopback
