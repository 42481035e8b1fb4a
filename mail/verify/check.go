package verify

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// ReadKeys reads armored public keys (one or more per reader, e.g. the
// --key files of `skagerrak check`) into one key list.
func ReadKeys(armored ...io.Reader) (openpgp.EntityList, error) {
	var all openpgp.EntityList
	for i, r := range armored {
		el, err := openpgp.ReadArmoredKeyRing(r)
		if err != nil {
			return nil, fmt.Errorf("verify: key file %d: %w", i+1, err)
		}
		all = append(all, el...)
	}
	return all, nil
}

// Check verifies raw like Verify and returns a human report for the
// `skagerrak check MESSAGE.eml --key K.asc --at TIME` command, together with
// the Verify error (nil when accepted) so that the caller can set the exit
// status. Every hostile value in the report is escaped. See FormatReport for
// the format.
func Check(raw []byte, keys openpgp.KeyRing, at time.Time) (string, error) {
	res, err := Verify(raw, keys, at)
	if err == nil {
		text, terr := res.Text()
		if terr == nil {
			if ce := ControlError(text); ce != nil {
				terr = ce
			}
		}
		if terr != nil {
			err = terr // signed, but the daemon refuses it with a reply
		}
	}
	return FormatReport(res, err, at), err
}

// FormatReport renders the outcome of Verify as the report of Check. An
// accepted message gives:
//
//	result:      accepted
//	received:    2026-11-29T12:00:00Z
//	form:        pgp-mime
//	signer:      0123...CDEF (primary key fingerprint)
//	hash:        SHA256
//	signed at:   2026-11-29T11:59:00Z (claimed by the sender)
//	identity:    <the canonical identity, hex (see Result.Identity)>
//	signed:      <n> bytes, sha256 <hex>
//	file:        orders.txt          (attachments only)
//	armor:       Comment: ...        (one line per armor header)
//	charset:     iso-8859-1 (...)    (a charset other than UTF-8 decoded)
//	label:       koi8-r (...)        (a label outside the signature, not used)
//	ignored:     a note (text/plain) (one line per part not read)
//
// and a rejected one:
//
//	result:      rejected
//	received:    2026-11-29T12:00:00Z
//	reason:      bad-signature
//	detail:      ...
//	signer:      0123...CDEF (...)   (the signature verified, the form did not)
//	restored:    1 NUL bytes ...      (put back where a server sent 0x80 for them)
//
// Keys are padded to a fixed column; every line ends with "\n".
func FormatReport(res *Result, err error, at time.Time) string {
	var b strings.Builder
	line := func(k, v string) { fmt.Fprintf(&b, "%-12s %s\n", k+":", v) }
	if err != nil || res == nil {
		line("result", "rejected")
		line("received", at.UTC().Format(time.RFC3339))
		var rej *Rejection
		var te *TextError
		switch {
		case errors.As(err, &rej):
			line("reason", rej.Reason)
			line("detail", Escape(rej.Detail))
			if rej.Signer != nil {
				line("signer", rej.Signer.Fingerprint+" (the signature verified: the signer gets a reply saying why)")
			}
		case errors.As(err, &te) && res != nil:
			line("reason", "unreadable-text")
			line("detail", Escape(te.Error()))
			line("signer", res.Fingerprint+" (the signature verified: the signer gets a reply saying why)")
			line("charset", orNone(res.Charset))
			if res.RestoredNULs > 0 {
				line("restored", fmt.Sprintf("%d NUL bytes the mail server passed on as 0x80 (the signature holds over NULs)", res.RestoredNULs))
			}
		case err != nil:
			line("reason", "error")
			line("detail", Escape(err.Error()))
		}
		return b.String()
	}
	line("result", "accepted")
	line("received", at.UTC().Format(time.RFC3339))
	line("form", res.Form)
	line("signer", res.Fingerprint)
	line("hash", res.Hash)
	line("signed at", res.SigTime.UTC().Format(time.RFC3339)+" (claimed by the sender)")
	line("identity", fmt.Sprintf("%x", res.Identity))
	line("signed", fmt.Sprintf("%d bytes, sha256 %x", len(res.Signed), sha256.Sum256(res.Signed)))
	if res.FileName != "" {
		line("file", Escape(res.FileName))
	}
	for _, h := range res.ArmorHeaders {
		line("armor", Escape(h))
	}
	if !isUTF8Label(res.Charset) {
		line("charset", Escape(res.Charset)+" (decoded to UTF-8 after the signature check)")
	}
	if d := res.Declared; d != "" && !(isUTF8Label(d) && isUTF8Label(res.Charset)) && !strings.EqualFold(d, res.Charset) {
		read := "UTF-8"
		if !isUTF8Label(res.Charset) {
			read = res.Charset
		}
		line("label", Escape(d)+" (outside the signature, so not trusted: the text is read as "+read+")")
	}
	for _, ig := range res.Ignored {
		line("ignored", ig)
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "none declared"
	}
	return Escape(s)
}
