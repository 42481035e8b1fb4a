package verify

import (
	"bytes"
	"strings"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// verifyDetachedForm handles a multipart/mixed root holding an order file
// and its detached signature FILE.asc or FILE.sig. Every other part (the
// mail's own text, a public key, any other attachment) is never read as
// orders and is returned as ignored; a second signature, or a second file
// of the name the signature gives, is refused.
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
	c, signed, rej := checkDetachedFile(sp, data, entityCharset(file), keys, at, lim)
	if rej != nil {
		return nil, rej
	}
	// The signature names its file, so which attachment holds the orders
	// is plain; whatever else came along is outside the signature, which
	// anyone can change in a copy: it is listed as not read, never a reason
	// to refuse what the signature covers.
	for _, o := range files {
		if o != file {
			ignored = append(ignored, describePart(o))
		}
	}
	for _, o := range others {
		ignored = append(ignored, describePart(o))
	}
	return fill(&Result{Form: FormDetached, Signed: signed, Covered: signed, FileName: fileName(file), Charset: unsignedCharset(signed), Declared: declared(file), Ignored: ignored}, c, sp), nil
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
