package imapbox

import (
	"bytes"

	"github.com/emersion/go-imap/v2"
)

// nulStandIn is the byte Dovecot sends in a BODY[] literal where the stored
// message holds a NUL, which an IMAP literal may not carry (RFC 3501 4.3).
const nulStandIn = 0x80

// fetchBinary fetches again, with BINARY.PEEK[] (RFC 3516), every message
// whose BODY[] bytes hold the byte a server puts in place of a NUL, where
// the server offers BINARY. A literal8 carries NUL bytes, so a signed part
// holding one arrives as it was signed.
//
// BINARY[] of a whole message also removes the transfer encoding of every
// part (Dovecot rewrites base64 and quoted-printable parts to binary and
// says so in their headers), which would change the bytes a PGP/MIME
// signature covers. So the BINARY[] bytes are taken only when they are the
// BODY[] bytes with NULs where the stand-ins were; otherwise the BODY[]
// bytes stay, and the message is judged as the server sent it.
func (b *Box) fetchBinary(s *session, cands []uint32, msgs map[uint32]*Message) error {
	if !s.caps.Has(imap.CapBinary) && !s.caps.Has(imap.CapIMAP4rev2) {
		return nil
	}
	var set imap.UIDSet
	n := 0
	for _, u := range cands {
		if m := msgs[u]; m != nil && m.Raw != nil && bytes.IndexByte(m.Raw, nulStandIn) >= 0 {
			set.AddNum(imap.UID(u))
			n++
		}
	}
	if n == 0 {
		return nil
	}
	section := &imap.FetchItemBinarySection{Peek: true}
	cmd := s.c.Fetch(set, &imap.FetchOptions{UID: true, BinarySection: []*imap.FetchItemBinarySection{section}})
	return b.readBodies(cmd, "fetch binary", func(uid uint32, bin []byte, _ bool) {
		m := msgs[uid]
		if m == nil || m.Raw == nil || bin == nil {
			return
		}
		if onlyNULsDiffer(m.Raw, bin) {
			b.log.Info("message holds NUL bytes: taken from BINARY[]", "uid", uid)
			m.Raw = bin
		} else if !bytes.Equal(m.Raw, bin) {
			b.log.Debug("BINARY[] decoded more than NULs: BODY[] kept", "uid", uid)
		}
	})
}

// onlyNULsDiffer reports whether bin is body with some stand-in bytes
// turned into NULs, and nothing else changed.
func onlyNULsDiffer(body, bin []byte) bool {
	if len(body) != len(bin) {
		return false
	}
	for i := range body {
		if body[i] != bin[i] && (body[i] != nulStandIn || bin[i] != 0) {
			return false
		}
	}
	return true
}
