package verify

import (
	"bytes"
	"strings"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// verifyDetachedForm handles a multipart/mixed root holding an order file
// and its detached signature FILE.asc or FILE.sig.
//
// The name rule: a part is known by every name it carries (Content-Disposition
// filename and Content-Type name, which clients fill differently), and the
// signature is first tried over the attachments one of whose names is one
// of its own names without .asc or .sig. Names are outside the signature,
// where anyone may change them in a copy, so they only choose the order of
// the tries: failing those, the signature is tried over every other part
// that is not multipart (attachments, then inline text), and the part it
// verifies over is the order file. Every other part is never read as
// orders and is returned as ignored. Two signature parts are refused (with
// the signer named when one of them verifies).
func verifyDetachedForm(root *entity, keys openpgp.KeyRing, at time.Time, lim Limits) (*Result, *Rejection) {
	var sigs, rest []*entity
	for _, c := range root.children {
		if len(c.children) == 0 && looksLikeSignature(c) {
			sigs = append(sigs, c)
		} else {
			rest = append(rest, c)
		}
	}
	if len(sigs) == 0 {
		if signatureMarks(root) {
			return nil, wrapped(root, keys, at, lim, "multipart/mixed root holds a signed part instead of being one")
		}
		return nil, reject(ReasonUnsigned, "multipart/mixed without a detached signature")
	}
	if len(sigs) > 1 {
		rej := reject(ReasonMultipleSignatures, "%d detached signatures: attach the order file and its one signature", len(sigs))
		for _, s := range sigs {
			if r, _ := detachedOver(s, rest, keys, at, lim); r != nil {
				return nil, rej.around(r)
			}
		}
		return nil, rej
	}
	return detachedOver(sigs[0], rest, keys, at, lim)
}

// detachedOver checks one detached signature part over the other parts of
// the message, in the order of the name rule (see verifyDetachedForm).
func detachedOver(sigPart *entity, rest []*entity, keys openpgp.KeyRing, at time.Time, lim Limits) (*Result, *Rejection) {
	named, others := candidates(sigPart, rest)
	sigBytes, rej := decodeBody(sigPart)
	if rej != nil {
		return nil, rej
	}
	sp, rej := readSignature(sigBytes, lim)
	if rej != nil {
		return nil, rej
	}
	var first *Rejection
	for _, file := range append(named, others...) {
		data, rej := decodeBody(file)
		if rej != nil {
			continue
		}
		c, signed, rej := checkDetachedFile(sp, data, entityCharset(file), keys, at, lim)
		if rej != nil {
			if first == nil || first.Reason == ReasonBadSignature {
				first = rej
			}
			continue
		}
		var ignored []string
		for _, o := range rest {
			if o != file {
				ignored = append(ignored, describePart(o))
			}
		}
		return fill(&Result{Form: FormDetached, Signed: signed, Covered: signed, FileName: fileName(file), Charset: unsignedCharset(signed), Declared: declared(file), Ignored: ignored}, c, sp), nil
	}
	if first != nil && (first.Reason != ReasonBadSignature || len(named) > 0) {
		return nil, first
	}
	for _, c := range rest {
		if strings.HasPrefix(c.mediaType, "multipart/") || strings.HasPrefix(c.mediaType, "message/") {
			return nil, reject(ReasonWrappedSignature, "the signature names no part it verifies over, and a %s part holds more parts", c.mediaType)
		}
	}
	return nil, reject(ReasonBadStructure, "the signature %q names no attached file it verifies over (want FILE and FILE.asc)", fileName(sigPart))
}

// candidates sorts the parts a detached signature may cover: named are
// those one of whose names the signature's names give (FILE for FILE.asc
// or FILE.sig), others the remaining leaf parts, attachments before
// inline text. Public keys, multiparts and messages are never candidates.
func candidates(sigPart *entity, rest []*entity) (named, others []*entity) {
	want := map[string]bool{}
	for _, n := range fileNames(sigPart) {
		for _, suf := range sigSuffixes {
			if len(n) > len(suf) && strings.EqualFold(n[len(n)-len(suf):], suf) {
				want[n[:len(n)-len(suf)]] = true
			}
		}
	}
	var inline []*entity
	for _, c := range rest {
		if len(c.children) > 0 || strings.HasPrefix(c.mediaType, "multipart/") || strings.HasPrefix(c.mediaType, "message/") || kindOf(c) == kindPubKey {
			continue
		}
		isNamed := false
		for _, n := range fileNames(c) {
			isNamed = isNamed || want[n]
		}
		switch {
		case isNamed:
			named = append(named, c)
		case isAttachment(c):
			others = append(others, c)
		default:
			inline = append(inline, c)
		}
	}
	return named, append(others, inline...)
}

// checkDetachedFile checks a detached signature over an attached file as
// received and, failing that, as mail transport may have changed it: its
// 8bit text's LF line ends turned into CRLF, or the whole text recoded from
// UTF-8 into the charset the part declares (mutt does, to its
// send_charset), or both. The signature covers the file as saved; the
// variant it verifies over is the order file. The label only suggests
// what to try: whatever it says, only bytes the signature covers come back.
func checkDetachedFile(sp *sigPacket, data []byte, cs string, keys openpgp.KeyRing, at time.Time, lim Limits) (*checked, []byte, *Rejection) {
	c, rej := checkSignature(sp, data, keys, at, lim)
	if rej == nil || rej.Reason != ReasonBadSignature {
		return c, data, rej
	}
	var vs [][]byte
	if bytes.Contains(data, []byte("\r\n")) {
		vs = append(vs, bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	}
	if !isUTF8Label(cs) {
		if text, err := DecodeText(data, cs); err == nil {
			vs = append(vs, []byte(text))
			if strings.Contains(text, "\r\n") {
				vs = append(vs, []byte(strings.ReplaceAll(text, "\r\n", "\n")))
			}
		}
	}
	for _, v := range vs {
		if c2, rej2 := checkSignature(sp, v, keys, at, lim); rej2 == nil {
			return c2, v, nil
		}
	}
	return nil, nil, rej
}
