package verify

import (
	"bytes"
	"errors"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// The three accepted forms of a signed message.
const (
	// FormPGPMIME is RFC 3156 multipart/signed at the root of the message.
	FormPGPMIME = "pgp-mime"
	// FormDetached is a multipart/mixed root holding exactly an order file
	// and its detached signature FILE.asc or FILE.sig.
	FormDetached = "detached"
	// FormClearsigned is a text/plain root whose body is exactly one
	// cleartext-signed block (gpg --clearsign).
	FormClearsigned = "clearsigned"
)

// Result describes an accepted message.
type Result struct {
	// Form is FormPGPMIME, FormDetached or FormClearsigned.
	Form string
	// Signed is the order file: the decoded signed text body or the single
	// text attachment of a PGP/MIME message, the attached file of the
	// detached form, or the dash-unescaped cleartext of a clearsigned body.
	// Nothing outside these bytes is covered by the signature. Line ends:
	// a PGP/MIME body is decoded from the canonical form, so its text has
	// CRLF; a clearsigned cleartext has LF (trailing whitespace, which the
	// format does not sign, removed); attachments are byte for byte.
	Signed []byte
	// Covered is exactly the byte string the signature was verified over
	// (for PGP/MIME the CRLF-canonical first part with its MIME headers; for
	// clearsigned the canonical cleartext), so that a replay can check the
	// signature again with VerifyDetached.
	Covered []byte
	// Signature is the binary signature packet.
	Signature []byte
	// FileName is the order file's name for attachments (hostile: pass it
	// through Escape before logging), empty for a body.
	FileName string
	// ArmorHeaders are the armor header lines of the signature ("Comment:
	// ...") in key order; they are not signed (hostile: Escape them).
	ArmorHeaders []string
	// Fingerprint is the upper-case hex fingerprint of the signer's primary
	// key, whatever subkey made the signature.
	Fingerprint string
	// Identity is the canonical identity of the signed message: SHA-256
	// over the signer's primary fingerprint, the signature's hashed part
	// and the digest it signs (see the package documentation). Every
	// re-encoding of the same signature gives the same Identity; only the
	// key holder can make a new one.
	Identity [32]byte
	// PacketHash is the SHA-256 of the binary signature packet, which
	// anyone can change without breaking the signature: the idempotency
	// key of game logs written before Identity, kept to check them.
	PacketHash [32]byte
	// SigTime is the creation time the signature claims (chosen by the
	// sender; never used for deadlines).
	SigTime time.Time
	// Hash is the OpenPGP name of the signature's hash, e.g. "SHA256".
	Hash string
	// RestoredNULs counts the 0x80 bytes made NUL again because only so
	// the signature verified: an IMAP server without BINARY passes NUL
	// on as 0x80 (Dovecot does). Signed holds the NULs, which ControlError
	// refuses, so the signer hears what to change.
	RestoredNULs int
	// Charset is the charset Signed is read in, "" for UTF-8: Text
	// decodes Signed from it. For PGP/MIME it is the charset the order
	// file's part declares, inside the signature. The detached and the
	// cleartext forms carry their label outside the signature, where
	// anyone may change it: their text is read as UTF-8 when it is valid
	// UTF-8 and as Windows-1252 otherwise, whatever the label says
	// (Declared), so that every copy of one signed message reads alike.
	Charset string
	// Declared is the charset label outside the signature (detached and
	// cleartext forms), not trusted; "" for PGP/MIME and for none.
	Declared string
	// Ignored describes each part beside the order file that was not read
	// as orders (a cover note, a public key attachment), for the reply.
	Ignored []string
}

// errZeroTime is returned for a zero receipt time.
var errZeroTime = errors.New("verify: zero receipt time")

// Verify checks the raw RFC 5322 message under the default limits; see
// VerifyWithLimits.
func Verify(raw []byte, keys openpgp.KeyRing, at time.Time) (*Result, error) {
	return VerifyWithLimits(raw, keys, at, Limits{})
}

// VerifyWithLimits decides whether raw is a message signed in one of the
// three accepted forms by a key of keys, judged at the receipt time at. It
// returns the Result, or a *Rejection naming the reason for every message it
// refuses. The only other error is a zero `at`, a caller's bug (go-crypto
// would skip all time checks). It never panics on any input.
func VerifyWithLimits(raw []byte, keys openpgp.KeyRing, at time.Time, lim Limits) (*Result, error) {
	if at.IsZero() {
		// go-crypto skips every time check for a zero time.
		return nil, errZeroTime
	}
	lim = lim.withDefaults()
	res, rej := verify(raw, keys, at, lim)
	if rej != nil && rej.Reason == ReasonBadSignature {
		// A server without IMAP BINARY may have passed NULs on as 0x80.
		if fixed, n := restoreNULs(raw); n > 0 {
			if r, rej2 := verify(fixed, keys, at, lim); rej2 == nil {
				r.RestoredNULs = n
				return r, nil
			}
		}
	}
	if rej != nil {
		return nil, rej
	}
	return res, nil
}

// VerifyDetached checks a binary signature packet over covered (a replay of
// Result.Covered and Result.Signature) under the same policy as Verify.
func VerifyDetached(covered, signature []byte, keys openpgp.KeyRing, at time.Time) (*Result, error) {
	if at.IsZero() {
		return nil, errZeroTime
	}
	if keys == nil {
		keys = openpgp.EntityList{}
	}
	lim := DefaultLimits()
	raw, sig, rej := onePacket(signature, lim, false)
	if rej != nil {
		return nil, rej
	}
	c, rej := checkSignature(&sigPacket{raw: raw, sig: sig}, covered, keys, at, lim)
	if rej != nil {
		return nil, rej
	}
	return fill(&Result{Covered: covered, Signed: covered}, c, &sigPacket{raw: raw}), nil
}

// VerifyEnvelope checks only the RFC 3156 envelope of raw, a multipart/signed
// root, under the same signature and time policy as Verify, without
// requiring the signed part to hold an order file: Result.Signed and
// Result.Covered are both the whole signed MIME entity (CRLF-canonical, its
// header included). It is for reading the host's reports, whose signed part
// may carry any attachments; orders always go through Verify.
func VerifyEnvelope(raw []byte, keys openpgp.KeyRing, at time.Time, lim Limits) (*Result, error) {
	if at.IsZero() {
		return nil, errZeroTime
	}
	lim = lim.withDefaults()
	if len(raw) > lim.MaxMessageBytes {
		return nil, reject(ReasonTooLarge, "message of %d bytes exceeds %d", len(raw), lim.MaxMessageBytes)
	}
	if keys == nil {
		keys = openpgp.EntityList{}
	}
	root, rej := (&parser{lim: lim}).parse(raw, 0)
	if rej != nil {
		return nil, rej
	}
	if root.mediaType != "multipart/signed" {
		if signatureMarks(root) {
			return nil, reject(ReasonWrappedSignature, "root is %s, not multipart/signed", root.mediaType)
		}
		return nil, reject(ReasonUnsigned, "root is %s, not multipart/signed", root.mediaType)
	}
	res, rej := verifyPGPMIME(root, keys, at, lim, true)
	if rej != nil {
		return nil, rej
	}
	return res, nil
}

func verify(raw []byte, keys openpgp.KeyRing, at time.Time, lim Limits) (*Result, *Rejection) {
	if len(raw) > lim.MaxMessageBytes {
		return nil, reject(ReasonTooLarge, "message of %d bytes exceeds %d", len(raw), lim.MaxMessageBytes)
	}
	if keys == nil {
		keys = openpgp.EntityList{}
	}
	p := &parser{lim: lim}
	root, rej := p.parse(raw, 0)
	if rej != nil {
		return nil, rej
	}
	switch root.mediaType {
	case "multipart/signed":
		return verifyPGPMIME(root, keys, at, lim, false)
	case "multipart/mixed":
		return verifyDetachedForm(root, keys, at, lim)
	case "text/plain":
		return verifyClearsigned(root, keys, at, lim)
	}
	if signatureMarks(root) {
		return nil, wrapped(root, keys, at, lim, "root is "+root.mediaType+", not a signature envelope")
	}
	return nil, reject(ReasonUnsigned, "root is %s without a signature", root.mediaType)
}

// wrapped is the wrapped-signature refusal of a message whose signed
// message sits inside other MIME (a multipart, a forwarded message/rfc822):
// when a multipart/signed inside verifies, its signer is told how to send
// it (see Rejection.Around).
func wrapped(root *entity, keys openpgp.KeyRing, at time.Time, lim Limits, detail string) *Rejection {
	rej := reject(ReasonWrappedSignature, "%s: send the signed message itself, with nothing added around it (not forwarded, not attached, no text before it)", detail)
	if r := innerSigned(root, keys, at, lim, 0); r != nil {
		return rej.around(r)
	}
	return rej
}

// innerSigned finds the first PGP/MIME message inside e that verifies.
func innerSigned(e *entity, keys openpgp.KeyRing, at time.Time, lim Limits, depth int) *Result {
	if depth > lim.MaxDepth {
		return nil
	}
	for _, c := range e.children {
		if c.mediaType == "multipart/signed" {
			if r, rej := verifyPGPMIME(c, keys, at, lim, false); rej == nil {
				return r
			}
		}
		if c.mediaType == "message/rfc822" {
			if body, rej := decodeBody(c); rej == nil {
				if inner, rej := (&parser{lim: lim}).parse(body, depth+1); rej == nil && inner.mediaType == "multipart/signed" {
					if r, rej := verifyPGPMIME(inner, keys, at, lim, false); rej == nil {
						return r
					}
				}
			}
		}
		if r := innerSigned(c, keys, at, lim, depth+1); r != nil {
			return r
		}
	}
	return nil
}

// fill copies the outcome of a signature check into r.
func fill(r *Result, c *checked, sp *sigPacket) *Result {
	r.Signature = sp.raw
	r.Fingerprint = c.fingerprint
	r.Identity, r.PacketHash = c.identity, c.packetHash
	r.SigTime = c.sigTime
	r.Hash = c.hash
	if sp.armor != nil {
		r.ArmorHeaders = armorSummary(sp.armor)
	}
	return r
}

// verifyPGPMIME handles an RFC 3156 multipart/signed root.
func verifyPGPMIME(root *entity, keys openpgp.KeyRing, at time.Time, lim Limits, envelopeOnly bool) (*Result, *Rejection) {
	if proto := root.params["protocol"]; !strings.EqualFold(proto, "application/pgp-signature") {
		return nil, reject(ReasonBadStructure, "multipart/signed protocol %q, want application/pgp-signature", proto)
	}
	if len(root.children) != 2 {
		return nil, reject(ReasonBadStructure, "multipart/signed with %d parts, want 2", len(root.children))
	}
	if t := root.children[1].mediaType; t != "application/pgp-signature" {
		return nil, reject(ReasonBadStructure, "second part of multipart/signed is %s, want application/pgp-signature", t)
	}
	sigBytes, rej := decodeBody(root.children[1])
	if rej != nil {
		return nil, rej
	}
	sp, rej := readSignature(sigBytes, lim)
	if rej != nil {
		return nil, rej
	}
	if micalg, ok := root.params["micalg"]; ok && strings.TrimSpace(micalg) != "" {
		want := "pgp-" + strings.ToLower(hashNameOrWeak(sp))
		if !strings.EqualFold(strings.TrimSpace(micalg), want) {
			return nil, reject(ReasonMicalgMismatch, "micalg %q but the signature uses %s", micalg, want)
		}
	}
	covered := canonicalCRLF(root.children[0].raw)
	c, rej := checkSignature(sp, covered, keys, at, lim)
	if rej != nil && rej.Reason == ReasonBadSignature && !envelopeOnly {
		// RFC 3156 signs the CRLF form; a client signing in one pass
		// with encryption (mutt through GPGME) signs the entity as it
		// wrote it, with LF line ends. Only bytes signed come back.
		lf := bytes.ReplaceAll(covered, []byte("\r\n"), []byte("\n"))
		if c2, rej2 := checkSignature(sp, lf, keys, at, lim); rej2 == nil {
			c, rej, covered = c2, nil, lf
		}
	}
	if rej != nil {
		return nil, rej
	}
	if envelopeOnly {
		return fill(&Result{Form: FormPGPMIME, Signed: covered, Covered: covered}, c, sp), nil
	}
	// Read the order file from the canonical bytes, so that a message stored
	// with LF line ends gives the same Signed bytes as one with CRLF.
	// From here on the signer is known: a refusal says who signed.
	signedPart, rej := (&parser{lim: lim}).parse(covered, 1)
	if rej != nil {
		return nil, rej.by(fill(&Result{Form: FormPGPMIME, Covered: covered}, c, sp))
	}
	file, ignored, rej := orderFromSigned(signedPart)
	if rej != nil {
		return nil, rej.by(fill(&Result{Form: FormPGPMIME, Covered: covered}, c, sp))
	}
	body, rej := decodeBody(file)
	if rej != nil {
		return nil, rej.by(fill(&Result{Form: FormPGPMIME, Covered: covered}, c, sp))
	}
	name := ""
	if file != signedPart {
		name = fileName(file)
	}
	r := &Result{Form: FormPGPMIME, Signed: body, Covered: covered, FileName: name, Charset: entityCharset(file), Ignored: ignored}
	return fill(r, c, sp), nil
}

// hashNameOrWeak names the signature's hash for the micalg comparison.
func hashNameOrWeak(sp *sigPacket) string {
	if n, ok := hashNames[sp.sig.Hash]; ok {
		return n
	}
	if n, ok := weakHashNames[sp.sig.Hash]; ok {
		return n
	}
	return sp.sig.Hash.String()
}

// sigSuffixes are the accepted names of a detached signature file.
var sigSuffixes = []string{".asc", ".sig"}

// looksLikeSignature reports whether a part of a multipart/mixed root is a
// detached signature.
func looksLikeSignature(e *entity) bool {
	if e.mediaType == "application/pgp-signature" {
		return true
	}
	for _, name := range fileNames(e) {
		name = strings.ToLower(name)
		for _, s := range sigSuffixes {
			if strings.HasSuffix(name, s) {
				return true
			}
		}
	}
	return false
}

var (
	clearBegin = []byte("-----BEGIN PGP SIGNED MESSAGE-----")
	anyBegin   = []byte("-----BEGIN PGP ")
)

// verifyClearsigned handles a text/plain root that must be exactly one
// cleartext-signed block with only whitespace around it.
func verifyClearsigned(root *entity, keys openpgp.KeyRing, at time.Time, lim Limits) (*Result, *Rejection) {
	body, rej := decodeBody(root)
	if rej != nil {
		return nil, rej
	}
	cs := entityCharset(root)
	res, rej := clearsigned(body, keys, at, lim)
	if rej != nil && (rej.Reason == ReasonBadStructure || rej.Reason == ReasonMultipleSignatures) {
		// Text around the block, or a second block: if the first block
		// alone verifies, its signer hears what to send.
		if block := firstBlock(body); block != nil {
			if r, rej2 := clearsigned(block, keys, at, lim); rej2 == nil {
				rej.Detail += ": send the signed block alone, from -----BEGIN PGP SIGNED MESSAGE----- to -----END PGP SIGNATURE-----, with nothing before or after it"
				return nil, rej.around(r)
			}
		}
	}
	if rej != nil && rej.Reason == ReasonBadSignature && !isUTF8Label(cs) {
		// A client that recodes the text for transport (mutt, to its
		// send_charset) breaks a signature made over the UTF-8 file;
		// decoded back to UTF-8 it is the text that was signed.
		if text, err := DecodeText(body, cs); err == nil {
			if res2, rej2 := clearsigned([]byte(text), keys, at, lim); rej2 == nil {
				res2.Charset, res2.Declared = unsignedCharset(res2.Signed), cs
				return res2, nil
			}
		}
	}
	if rej != nil {
		return nil, rej
	}
	res.Charset, res.Declared = unsignedCharset(res.Signed), cs
	return res, nil
}

// firstBlock cuts the first cleartext-signed block out of body, nil if
// there is none whole.
func firstBlock(body []byte) []byte {
	i := bytes.Index(body, clearBegin)
	if i < 0 || (i > 0 && body[i-1] != '\n') {
		return nil
	}
	j := bytes.Index(body[i:], []byte(armorSigEnd))
	if j < 0 {
		return nil
	}
	return body[i : i+j+len(armorSigEnd)]
}

// VerifyClearsignedFile checks a file that must be exactly one
// cleartext-signed block (gpg --clearsign) with only whitespace around it,
// under the same rules as a cleartext-signed mail body: for order files
// given on the command line. It returns a *Rejection on failure.
func VerifyClearsignedFile(data []byte, keys openpgp.KeyRing, at time.Time) (*Result, error) {
	if len(data) > DefaultLimits().MaxMessageBytes {
		return nil, reject(ReasonTooLarge, "file of %d bytes exceeds %d", len(data), DefaultLimits().MaxMessageBytes)
	}
	if at.IsZero() {
		return nil, errZeroTime
	}
	if keys == nil {
		keys = openpgp.EntityList{}
	}
	res, rej := clearsigned(data, keys, at, DefaultLimits())
	if rej != nil {
		return nil, rej
	}
	return res, nil
}

// clearsigned verifies a text that must be one cleartext-signed block.
func clearsigned(body []byte, keys openpgp.KeyRing, at time.Time, lim Limits) (*Result, *Rejection) {
	n := countLines(body, clearBegin)
	if n == 0 {
		if bytes.Contains(body, anyBegin) {
			return nil, reject(ReasonBadStructure, "text body holds OpenPGP armor that is not a cleartext signature")
		}
		return nil, reject(ReasonUnsigned, "text body without a cleartext signature")
	}
	if n > 1 {
		return nil, reject(ReasonMultipleSignatures, "%d cleartext-signed blocks in the body", n)
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if !bytes.HasPrefix(trimmed, clearBegin) {
		return nil, reject(ReasonBadStructure, "text before the cleartext-signed block")
	}
	switch countLines(body, []byte(armorSigBegin)) {
	case 0:
		return nil, reject(ReasonBadStructure, "cleartext-signed block without its signature")
	case 1:
	default:
		return nil, reject(ReasonMultipleSignatures, "more than one signature block in the body")
	}
	// The cleartext: every line between the header block and the signature
	// that starts with a dash must be dash-escaped.
	if rej := checkDashEscapes(trimmed); rej != nil {
		return nil, rej
	}
	blk, rest := clearsign.Decode(trimmed)
	if blk == nil {
		return nil, reject(ReasonBadStructure, "malformed cleartext-signed block (armor headers other than Hash, or no signature)")
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, reject(ReasonBadStructure, "text after the cleartext-signed block")
	}
	sigBin, err := readAllLimited(blk.ArmoredSignature.Body, lim.MaxSignatureBytes)
	if err != nil {
		return nil, err
	}
	if blk.ArmoredSignature.Type != "PGP SIGNATURE" {
		return nil, reject(ReasonBadStructure, "armor type %q instead of PGP SIGNATURE", blk.ArmoredSignature.Type)
	}
	raw, sig, rej := onePacket(sigBin, lim, true)
	if rej != nil {
		return nil, rej
	}
	sp := &sigPacket{raw: raw, sig: sig, armor: blk.ArmoredSignature.Header}
	for _, h := range blk.Headers.Values("Hash") {
		if !strings.EqualFold(h, hashNameOrWeak(sp)) {
			return nil, reject(ReasonMicalgMismatch, "Hash: header %q but the signature uses %s", h, hashNameOrWeak(sp))
		}
	}
	c, rej := checkSignature(sp, blk.Bytes, keys, at, lim)
	if rej != nil {
		return nil, rej
	}
	return fill(&Result{Form: FormClearsigned, Signed: blk.Plaintext, Covered: blk.Bytes}, c, sp), nil
}

// checkDashEscapes requires every cleartext line that starts with "-" to be
// dash-escaped ("- "), as RFC 4880 7.1 demands; the only unescaped dash lines
// allowed are the armor lines themselves.
func checkDashEscapes(block []byte) *Rejection {
	lines := bytes.Split(block, []byte("\n"))
	inText := false
	for i, line := range lines {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if i == 0 {
			continue // the BEGIN line
		}
		if !inText {
			if len(bytes.TrimSpace(line)) == 0 {
				inText = true
			}
			continue
		}
		if bytes.Equal(line, []byte(armorSigBegin)) {
			return nil
		}
		if bytes.HasPrefix(line, []byte("-")) && !bytes.HasPrefix(line, []byte("- ")) {
			return reject(ReasonBadStructure, "cleartext line %d starts with an unescaped dash", i+1)
		}
	}
	return nil
}

// countLines counts the lines of b that start with marker.
func countLines(b, marker []byte) int {
	n := 0
	for _, line := range bytes.Split(b, []byte("\n")) {
		if bytes.HasPrefix(line, marker) {
			n++
		}
	}
	return n
}
