package verify

import (
	"bytes"
	"strings"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// verifyDetachedForm handles a multipart/mixed root holding an order file
// and its detached signature FILE.asc or FILE.sig, and beside them, at most,
// notes (the mail's own text: inline text/plain, text/html or a
// multipart/alternative of them) and public key attachments, which are never
// read as orders and are returned as ignored. Anything else beside them, or
// a second file or signature, is refused; when the signature verifies over
// the file it names, the refusal says who signed.
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
			return nil, reject(ReasonWrappedSignature, "multipart/mixed root holds a signed part instead of being one")
		}
		return nil, reject(ReasonUnsigned, "multipart/mixed without a detached signature")
	}
	if len(sigs) > 1 {
		return nil, reject(ReasonMultipleSignatures, "%d detached signatures", len(sigs))
	}
	sigPart := sigs[0]
	sname := fileName(sigPart)
	var file *entity
	var files, others []*entity
	var ignored []string
	for _, c := range rest {
		switch kindOf(c) {
		case kindNote, kindPubKey:
			ignored = append(ignored, describePart(c))
			continue
		case kindFile:
			files = append(files, c)
		default:
			if !isAttachment(c) {
				others = append(others, c)
				continue
			}
			files = append(files, c)
		}
		if n := fileName(c); n != "" && (sname == n+".asc" || sname == n+".sig") {
			if file != nil {
				return nil, reject(ReasonBadStructure, "two attachments named %q", n)
			}
			file = c
		}
	}
	if file == nil {
		if len(files) == 1 && fileName(files[0]) == "" {
			return nil, reject(ReasonBadStructure, "order file has no file name")
		}
		return nil, reject(ReasonBadStructure, "the signature %q names no attached file (want FILE and FILE.asc)", sname)
	}
	if strings.HasPrefix(file.mediaType, "multipart/") || strings.HasPrefix(file.mediaType, "message/") {
		return nil, reject(ReasonWrappedSignature, "signed file is a %s", file.mediaType)
	}
	sigBytes, rej := decodeBody(sigPart)
	if rej != nil {
		return nil, rej
	}
	sp, rej := readSignature(sigBytes, lim)
	if rej != nil {
		return nil, rej
	}
	data, rej := decodeBody(file)
	if rej != nil {
		return nil, rej
	}
	c, signed, cs, rej := checkDetachedFile(sp, data, entityCharset(file), keys, at, lim)
	if rej != nil {
		return nil, rej
	}
	fname := fileName(file)
	if len(files) > 1 || len(others) > 0 {
		// Which of several files are the orders is plain from the
		// signature's name, but a mail that holds others besides is
		// refused: the player may believe they count.
		extra := len(files) - 1 + len(others)
		r := fill(&Result{Form: FormDetached, Covered: signed, FileName: fname}, c, sp)
		return nil, reject(ReasonBadStructure, "besides %s and its signature the mail holds %d more attachment(s); send the order file and its signature alone (a note in the mail's text is fine)", Escape(fname), extra).by(r)
	}
	return fill(&Result{Form: FormDetached, Signed: signed, Covered: signed, FileName: fname, Charset: cs, Ignored: ignored}, c, sp), nil
}

// checkDetachedFile checks a detached signature over an attached file as
// received and, failing that, as mail transport may have changed it: its
// 8bit text's LF line ends turned into CRLF, or the whole text recoded from
// UTF-8 into the charset it declares (mutt does, to its send_charset), or
// both. The signature covers the file as saved; the variant it verifies
// over is the order file, with the charset those bytes are in.
func checkDetachedFile(sp *sigPacket, data []byte, cs string, keys openpgp.KeyRing, at time.Time, lim Limits) (*checked, []byte, string, *Rejection) {
	c, rej := checkSignature(sp, data, keys, at, lim)
	if rej == nil || rej.Reason != ReasonBadSignature {
		return c, data, cs, rej
	}
	type variant struct {
		b  []byte
		cs string
	}
	var vs []variant
	if bytes.Contains(data, []byte("\r\n")) {
		vs = append(vs, variant{bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), cs})
	}
	if !isUTF8Label(cs) {
		if text, err := DecodeText(data, cs); err == nil {
			vs = append(vs, variant{[]byte(text), ""})
			if strings.Contains(text, "\r\n") {
				vs = append(vs, variant{[]byte(strings.ReplaceAll(text, "\r\n", "\n")), ""})
			}
		}
	}
	for _, v := range vs {
		if c2, rej2 := checkSignature(sp, v.b, keys, at, lim); rej2 == nil {
			return c2, v.b, v.cs, nil
		}
	}
	return nil, nil, "", rej
}
