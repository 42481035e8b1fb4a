// Package savedmail reads mail a player saved: single messages (.eml
// files), Maildir folders and mbox files, for `skagerrak verify
// --receipts`. It only splits stored mail into whole RFC 5322 messages,
// byte for byte as they were kept; it checks no signature and reads no
// header.
//
// What a path may be:
//
//   - a file whose first line starts "From " is an mbox: each line
//     starting "From " at the start of the file or after an empty line
//     begins a message; the empty line before it ends the previous one.
//     A body line quoted as ">From " (or ">>From ", mboxrd) loses one ">",
//     as mboxo and mboxrd writers (mutt, Python's mailbox, Thunderbird)
//     add one. skagerrak's own mail never holds a line starting "From "
//     (compose quoted-printable-encodes it), so its signatures survive
//     either writer.
//   - any other file is one message (a saved .eml).
//   - a directory with a cur or new subdirectory is a Maildir: every file
//     in cur/ and new/ is one message (tmp/ holds mail still being
//     delivered and is skipped), and its Maildir++ subfolders (.Name/)
//     are read too.
//   - any other directory is read file by file, recursively: .eml files
//     are messages, .mbox files and files that start like an mbox are
//     mboxes, Maildirs inside are Maildirs, and everything else (the
//     .txt, .png and .json copies the demo keeps beside each .eml) is
//     skipped and counted.
//
// Hidden files (names starting ".") other than Maildir++ folders are
// skipped, as mail clients keep their indexes there.
package savedmail

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MaxMessageBytes bounds one message; a longer one is an error naming it.
const MaxMessageBytes = 32 << 20

// Message is one saved mail.
type Message struct {
	// Where names it for people: the file, or the mbox and the message's
	// number and first line in it.
	Where string
	// Raw is the message as stored (for an mbox, without its "From " line
	// and with the ">From " quoting undone).
	Raw []byte
}

// Read returns every message under each path, in path order, then in name
// order (mbox messages in file order). skipped counts the files of plain
// directories that are not mail.
func Read(paths ...string) (msgs []Message, skipped int, err error) {
	r := &reader{}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, 0, fmt.Errorf("savedmail: %w", err)
		}
		if st.IsDir() {
			err = r.dir(p)
		} else {
			err = r.file(p, false)
		}
		if err != nil {
			return nil, 0, err
		}
	}
	return r.msgs, r.skipped, nil
}

type reader struct {
	msgs    []Message
	skipped int
}

// isMaildir reports whether dir has a cur or new subdirectory.
func isMaildir(dir string) bool {
	for _, sub := range []string{"cur", "new"} {
		if st, err := os.Stat(filepath.Join(dir, sub)); err == nil && st.IsDir() {
			return true
		}
	}
	return false
}

func (r *reader) dir(dir string) error {
	if isMaildir(dir) {
		return r.maildir(dir)
	}
	ents, err := readDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case strings.HasPrefix(e.Name(), "."):
			if e.IsDir() && isMaildir(p) {
				if err := r.maildir(p); err != nil {
					return err
				}
			}
		case e.IsDir():
			if err := r.dir(p); err != nil {
				return err
			}
		case e.Type().IsRegular():
			if err := r.file(p, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// maildir reads cur/ and new/ of a Maildir and its Maildir++ subfolders.
func (r *reader) maildir(dir string) error {
	for _, sub := range []string{"cur", "new"} {
		d := filepath.Join(dir, sub)
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		ents, err := readDir(d)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") || !e.Type().IsRegular() {
				continue
			}
			p := filepath.Join(d, e.Name())
			b, err := readBounded(p)
			if err != nil {
				return err
			}
			r.msgs = append(r.msgs, Message{Where: p, Raw: b})
		}
	}
	ents, err := readDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() && strings.HasPrefix(e.Name(), ".") && isMaildir(p) {
			if err := r.maildir(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// file reads one file: an mbox if it starts like one, else one message.
// In a plain directory (inDir) only .eml files and mboxes are mail.
func (r *reader) file(path string, inDir bool) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("savedmail: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(5)
	if string(head) == "From " {
		return r.mbox(path, br)
	}
	name := strings.ToLower(path)
	if inDir && !strings.HasSuffix(name, ".eml") {
		r.skipped++
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(br, MaxMessageBytes+1))
	if err != nil {
		return fmt.Errorf("savedmail: %s: %w", path, err)
	}
	if len(b) > MaxMessageBytes {
		return fmt.Errorf("savedmail: %s: a message over %d bytes", path, MaxMessageBytes)
	}
	r.msgs = append(r.msgs, Message{Where: path, Raw: b})
	return nil
}

// mbox splits an mbox into its messages.
func (r *reader) mbox(path string, br *bufio.Reader) error {
	var (
		cur       bytes.Buffer
		n, line   int
		start     int
		prevEmpty = true
		open      bool
	)
	flush := func() {
		if !open {
			return
		}
		b := cur.Bytes()
		// The empty line before the next "From " line (or the end of
		// the file) separates messages; it is not part of the message.
		switch {
		case bytes.HasSuffix(b, []byte("\r\n\r\n")):
			b = b[:len(b)-2]
		case bytes.HasSuffix(b, []byte("\n\n")):
			b = b[:len(b)-1]
		}
		r.msgs = append(r.msgs, Message{Where: fmt.Sprintf("%s, message %d (line %d)", path, n, start), Raw: append([]byte(nil), b...)})
		cur.Reset()
	}
	for {
		l, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: keep reading it whole.
			rest, err2 := br.ReadBytes('\n')
			l = append(append([]byte(nil), l...), rest...)
			err = err2
		}
		if len(l) > 0 {
			line++
			body := bytes.TrimRight(l, "\r\n")
			switch {
			case prevEmpty && bytes.HasPrefix(l, []byte("From ")):
				flush()
				n++
				start, open = line, true
			default:
				if unquoted(body) {
					l = l[1:]
				}
				if cur.Len()+len(l) > MaxMessageBytes {
					return fmt.Errorf("savedmail: %s, message %d (line %d): over %d bytes", path, n, start, MaxMessageBytes)
				}
				cur.Write(l)
			}
			prevEmpty = len(body) == 0
		}
		if err == io.EOF {
			flush()
			return nil
		}
		if err != nil {
			return fmt.Errorf("savedmail: %s: %w", path, err)
		}
	}
}

// unquoted reports whether a body line is a quoted "From " line (">From ",
// ">>From ", ...), which loses one ">".
func unquoted(l []byte) bool {
	i := 0
	for i < len(l) && l[i] == '>' {
		i++
	}
	return i > 0 && bytes.HasPrefix(l[i:], []byte("From "))
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("savedmail: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxMessageBytes+1))
	if err != nil {
		return nil, fmt.Errorf("savedmail: %s: %w", path, err)
	}
	if len(b) > MaxMessageBytes {
		return nil, fmt.Errorf("savedmail: %s: a message over %d bytes", path, MaxMessageBytes)
	}
	return b, nil
}

func readDir(dir string) ([]os.DirEntry, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("savedmail: %w", err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	return ents, nil
}
