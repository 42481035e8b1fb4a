// Package bounce tells automatic mail from mail a person wrote, and reads
// delivery status notifications, so that the adjudicator never answers a
// robot (no mail loops) and learns which of its own mails did not arrive.
//
// Automatic mail is, after RFC 3834 and what trackers do in practice: mail
// with an Auto-Submitted field other than "no"; a multipart/report (a DSN,
// RFC 3464, or an MDN); mail from mailer-daemon or postmaster, or with an
// empty return path; mail with Precedence bulk, junk or list, or with
// X-Auto-Response-Suppress, X-Autoreply or X-Autorespond (Exchange and
// vacation responders that omit Auto-Submitted).
//
// A delivery status notification (multipart/report;
// report-type=delivery-status, or any multipart holding a
// message/delivery-status part, as OpenSMTPD 6.8 sends it) is read for the Message-ID of the mail it
// reports on (from the returned message or its headers, else from the
// DSN's In-Reply-To and References) and, per recipient, the action
// (failed, delayed, ...), the status code and the remote server's
// diagnostic.
package bounce

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"net/mail"
	"strings"

	"github.com/emersion/go-message/textproto"
)

// Info is what Triage found.
type Info struct {
	// Auto is set for automatic mail, which must never be answered.
	Auto bool
	// Why names the field that made it automatic.
	Why string
	// Report is the delivery status notification, when it is one.
	Report *Report
	// From is the address of the From: field when it names exactly one
	// (anyone can write it: never proof of who sent the mail).
	From string
}

// Report is a delivery status notification (RFC 3464).
type Report struct {
	// MessageIDs are the candidate Message-IDs of the mail reported on,
	// with angle brackets, best first.
	MessageIDs []string
	// Recipients are the per-recipient fields.
	Recipients []Recipient
}

// Recipient is one per-recipient block of a DSN.
type Recipient struct {
	// Recipient is the Final-Recipient address (or Original-Recipient).
	Recipient string
	// Action is failed, delayed, delivered, relayed or expanded.
	Action string
	// Status is the RFC 3463 status code, such as 5.1.1.
	Status string
	// Diagnostic is the Diagnostic-Code text, if any.
	Diagnostic string
}

// maxScan bounds the bytes read from one message.
const maxScan = 1 << 20

// Triage looks at a raw message's header, and at its body when it is a
// report. It never fails: what it cannot read is not a report.
func Triage(raw []byte) Info {
	if len(raw) > maxScan {
		raw = raw[:maxScan]
	}
	hdr, body, err := readHeader(raw)
	if err != nil {
		return Info{}
	}
	info := Info{From: fromAddress(hdr.Get("From"))}
	mt, params, _ := mime.ParseMediaType(hdr.Get("Content-Type"))
	mt = strings.ToLower(mt)
	switch {
	case autoSubmitted(hdr.Get("Auto-Submitted")):
		info.Auto, info.Why = true, "Auto-Submitted: "+strings.TrimSpace(hdr.Get("Auto-Submitted"))
	case mt == "multipart/report":
		info.Auto, info.Why = true, "a multipart/report"
	case robotAddress(hdr.Get("From")) || robotAddress(hdr.Get("Sender")):
		info.Auto, info.Why = true, "from "+strings.TrimSpace(hdr.Get("From"))
	case strings.TrimSpace(hdr.Get("Return-Path")) == "<>":
		info.Auto, info.Why = true, "an empty return path"
	case bulk(hdr.Get("Precedence")):
		info.Auto, info.Why = true, "Precedence: "+strings.TrimSpace(hdr.Get("Precedence"))
	default:
		for _, f := range []string{"X-Auto-Response-Suppress", "X-Autoreply", "X-Autorespond"} {
			if hdr.Has(f) {
				info.Auto, info.Why = true, f
				return info
			}
		}
		return info
	}
	if strings.HasPrefix(mt, "multipart/") {
		// OpenSMTPD 6.8 sends its DSN as multipart/mixed around the same
		// message/delivery-status part that RFC 3464 puts in a
		// multipart/report: the part decides.
		if r := readReport(hdr, body, params["boundary"]); r.status {
			info.Report = &r.Report
		}
	}
	return info
}

// fromAddress is the one address a From: field names, or "".
func fromAddress(v string) string {
	addrs, err := mail.ParseAddressList(v)
	if err != nil || len(addrs) != 1 {
		return ""
	}
	return addrs[0].Address
}

func autoSubmitted(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	if i := strings.IndexByte(v, ';'); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v != "" && v != "no"
}

func bulk(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "bulk", "junk", "list":
		return true
	}
	return false
}

// robotAddress reports whether an address field names mailer-daemon or
// postmaster.
func robotAddress(v string) bool {
	if strings.TrimSpace(v) == "" {
		return false
	}
	addrs, err := mail.ParseAddressList(v)
	if err != nil {
		l := strings.ToLower(v)
		return strings.Contains(l, "mailer-daemon") || strings.Contains(l, "postmaster@")
	}
	for _, a := range addrs {
		local, _, _ := strings.Cut(strings.ToLower(a.Address), "@")
		if local == "mailer-daemon" || local == "postmaster" {
			return true
		}
	}
	return false
}

func readHeader(raw []byte) (textproto.Header, []byte, error) {
	br := bufio.NewReader(bytes.NewReader(raw))
	h, err := textproto.ReadHeader(br)
	if err != nil {
		return textproto.Header{}, nil, err
	}
	rest, err := io.ReadAll(br)
	return h, rest, err
}

// report is a Report and whether a delivery-status part was there.
type report struct {
	Report
	status bool
}

// readReport reads the parts of a multipart/report (or mixed).
func readReport(top textproto.Header, body []byte, boundary string) *report {
	rep := &report{}
	if boundary == "" {
		return rep
	}
	mr := textproto.NewMultipartReader(bytes.NewReader(body), boundary)
	for {
		p, err := mr.NextPart()
		if err != nil {
			break
		}
		mt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		data, err := io.ReadAll(io.LimitReader(p, maxScan))
		if err != nil && !errors.Is(err, io.EOF) {
			break
		}
		switch strings.ToLower(mt) {
		case "message/delivery-status", "message/global-delivery-status":
			rep.status = true
			rep.Recipients = append(rep.Recipients, recipients(data)...)
		case "message/rfc822", "text/rfc822-headers", "message/rfc822-headers", "message/global", "message/global-headers":
			if h, _, err := readHeader(data); err == nil {
				if id := strings.TrimSpace(h.Get("Message-Id")); id != "" {
					rep.MessageIDs = append(rep.MessageIDs, id)
				}
			}
		}
	}
	for _, f := range []string{"In-Reply-To", "References"} {
		rep.MessageIDs = append(rep.MessageIDs, strings.Fields(top.Get(f))...)
	}
	return rep
}

// recipients reads the per-recipient blocks of a message/delivery-status
// body: the per-message block first, then one block per recipient, each a
// header block ended by an empty line.
func recipients(data []byte) []Recipient {
	var out []Recipient
	br := bufio.NewReader(bytes.NewReader(data))
	for first := true; ; first = false {
		h, err := textproto.ReadHeader(br)
		if err != nil && h.Len() == 0 {
			break
		}
		if !first || h.Has("Final-Recipient") {
			if r := recipient(h); r.Recipient != "" || r.Action != "" {
				out = append(out, r)
			}
		}
		if err != nil {
			break
		}
		if _, err := br.Peek(1); err != nil {
			break
		}
	}
	return out
}

func recipient(h textproto.Header) Recipient {
	addr := func(f string) string {
		v := strings.TrimSpace(h.Get(f))
		if _, a, ok := strings.Cut(v, ";"); ok {
			v = strings.TrimSpace(a)
		}
		return strings.Trim(v, "<>")
	}
	r := Recipient{Recipient: addr("Final-Recipient"), Action: strings.ToLower(strings.TrimSpace(h.Get("Action"))),
		Status: strings.TrimSpace(h.Get("Status")), Diagnostic: strings.TrimSpace(h.Get("Diagnostic-Code"))}
	if r.Recipient == "" {
		r.Recipient = addr("Original-Recipient")
	}
	if _, d, ok := strings.Cut(r.Diagnostic, ";"); ok {
		r.Diagnostic = strings.TrimSpace(d)
	}
	return r
}
