package intake

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
	"github.com/chromedp/chromedp"

	"skagerrak/adjudicator"
	"skagerrak/adjudicator/replaypage"
	"skagerrak/internal/browsertest"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/gpgtest"
	"skagerrak/mail/verify"
)

// TestReplayPageNamesAForgedSignedOrder changes one byte of the order text
// inside one signed mail of a game played by signed mail, and hashes the
// chain again as a forger would: the chain and the orders digests still
// check, so only the page's signature check can catch it, and the page
// must name that record, though a roll of a later record is changed too.
func TestReplayPageNamesAForgedSignedOrder(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(hosttest.CheckedInLogs(t), "kriegsmarine-r2-demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	lines = lines[:len(lines)-1]
	forged := -1
	for i, l := range lines {
		if strings.Contains(l, `"type":"OrdersAccepted"`) && strings.Contains(l, `"source":"mail"`) && i > len(lines)/3 {
			lines[i] = forgeSignedOrder(t, l)
			forged = i
			break
		}
	}
	if forged < 0 {
		t.Fatal("no order accepted by mail in the log")
	}
	// A later roll changed too, which the dice check finds: the page
	// still names the first record that fails, the forged order.
	for i := len(lines) - 1; i > forged; i-- {
		if strings.Contains(lines[i], `"type":"PhaseResolved"`) && strings.Contains(lines[i], `"value":`) {
			j := strings.Index(lines[i], `"value":`) + len(`"value":`)
			lines[i] = lines[i][:j] + "9" + lines[i][j:] // 1 becomes 91, 6 becomes 96
			break
		}
	}
	for i := forged; i < len(lines); i++ {
		lines[i] = hosttest.Rehash(t, strings.TrimSuffix(lines[i-1], "\n"), strings.TrimSuffix(lines[i], "\n")) + "\n"
	}
	p := &replaypage.Page{Game: "forged", Log: []byte(strings.Join(lines, ""))}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "forged.html")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Browser(t, func(any) {})
	verdict := browsertest.OpenPage(t, ctx, "file://"+file)
	want := fmt.Sprintf("NOT VERIFIED: record %d (OrdersAccepted): the signature does not verify", forged+1)
	t.Logf("the page says: %s", verdict)
	if !strings.HasPrefix(verdict, want) {
		t.Errorf("the page with a forged order in record %d says %q, want it to begin %q", forged+1, verdict, want)
	}
}

// forgeSignedOrder changes the case of one letter of the order text in a
// record's signed mail (data.raw), leaving the recorded text as it was.
func forgeSignedOrder(t *testing.T, line string) string {
	t.Helper()
	const key = `"raw":"`
	i := strings.Index(line, key) + len(key)
	j := i + strings.IndexByte(line[i:], '"')
	msg, err := base64.StdEncoding.DecodeString(line[i:j])
	if err != nil {
		t.Fatal(err)
	}
	k := bytes.Index(msg, []byte("\nPhase: "))
	if k < 0 {
		t.Fatalf("no order text in the mail:\n%s", msg)
	}
	msg[k+len("\nPhase: ")] ^= 0x20
	return line[:i] + base64.StdEncoding.EncodeToString(msg) + line[j:]
}

// sigOrder is an order file with a dash line (dash-escaped when
// clearsigned) and a letter outside ASCII (for the charset shapes).
const sigOrder = "Game: sig\nPhase: T01\nSide: allied\n- first the fleet\nmove Bodø Narvik\n"

// sigFixture is one signed message as a player's client sends it.
type sigFixture struct {
	name, uid string
	raw       []byte // the mail; for a file, the file (or the cleartext file)
	signature string // a signed file's armored signature
	file      bool
}

// TestReplayPageSignaturesAgreeWithGo has the page's script check one
// record of each shape a player's client sends, signed by GnuPG with
// Ed25519, RSA, ECDSA P-256 and an Ed25519 signing subkey: PGP/MIME (plain
// text, mutt's ISO-8859-1 quoted-printable, Thunderbird's attachment with
// a note and a key), detached .asc and .sig (a text-mode signature, CRLF
// line ends from transport, mutt's recoding to ISO-8859-1), cleartext
// (UTF-8 and Windows-1252 bytes), and signed files; and go-crypto's v4
// and v6 keys' signed files and compressed detached signatures (ZIP,
// ZLIB). The page must find the
// bytes verify found signed (the canonical covered bytes and the order
// file), the signer and the identity; and must refuse each record with
// its text changed, its mail changed by one byte, or under another key.
func TestReplayPageSignaturesAgreeWithGo(t *testing.T) {
	g := gpgtest.New(t)
	keys := map[string]string{}
	for _, k := range []struct{ uid, algo string }{{"Ed <ed@example.org>", "ed25519"}, {"Rsa <rsa@example.org>", "rsa3072"}, {"Ec <ec@example.org>", "nistp256"}} {
		g.GenKey(k.uid, k.algo, "sign", "1d")
		keys[k.uid] = string(g.ExportPublic(k.uid))
	}
	const subUID = "Sub <sub@example.org>"
	fpr := g.GenKey(subUID, "ed25519", "cert", "1d")
	g.Run(nil, "--quick-add-key", fpr, "ed25519", "sign", "1d")
	keys[subUID] = string(g.ExportPublic(subUID))

	var fixtures []sigFixture
	for uid := range keys {
		fixtures = append(fixtures, sigShapes(t, g, uid)...)
	}
	fixtures = append(fixtures, goSignedFiles(t, keys)...)
	at := time.Now().UTC()
	type want struct {
		Covered, Signed, Fingerprint, Identity string
	}
	var recs []map[string]any
	var wants []want
	for _, f := range fixtures {
		ks, err := wiring.Verifier{}.Keys([]string{keys[f.uid]})
		if err != nil {
			t.Fatalf("the key of %s: %v", f.uid, err)
		}
		var v adjudicator.Verified
		var r *verify.Result
		switch {
		case !f.file:
			v, err = wiring.Verifier{}.VerifyMail(f.raw, ks, at)
			if err == nil {
				r, err = verify.Verify(f.raw, keyring(ks), at)
			}
		case f.signature != "":
			v, err = wiring.Verifier{}.VerifyFile(f.raw, f.signature, ks, at)
			if err == nil {
				r, err = verify.VerifyDetached(f.raw, dearmored(t, f.signature), keyring(ks), at)
			}
		default:
			v, err = wiring.Verifier{}.VerifyFile(f.raw, "", ks, at)
			if err == nil {
				r, err = verify.VerifyClearsignedFile(f.raw, keyring(ks), at)
			}
		}
		if err != nil {
			t.Fatalf("%s (%s): verify refuses it: %v", f.name, f.uid, err)
		}
		text := v.Text
		if text == "" {
			text = string(v.Signed)
		}
		data := map[string]any{"side": f.uid, "text": text, "source": "mail", "fingerprint": v.Fingerprint, "key": v.Key, "sig_time": v.SigTime.UTC().Format(time.RFC3339), "charset": v.Charset}
		if f.file {
			data["source"] = "file"
		}
		if f.signature == "" {
			data["raw"] = f.raw
		} else {
			data["signature"] = f.signature
		}
		recs = append(recs, map[string]any{"seq": len(recs) + 2, "type": "OrdersAccepted", "time": at.Format(time.RFC3339Nano), "data": data})
		wants = append(wants, want{b64(r.Covered), b64(r.Signed), r.Fingerprint, v.Key})
	}
	ctx := browsertest.Browser(t, func(any) {})
	file := filepath.Join(t.TempDir(), "page.html")
	var b bytes.Buffer
	if err := (&replaypage.Page{Game: "fixtures"}).Write(&b); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, b.Bytes(), 0o644)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	recsJSON, _ := json.Marshal(recs)
	whoJSON, _ := json.Marshal(whoOf(keys))
	type got struct {
		want
		Err string
	}
	results, err := chromedp.Run(ctx, chromedp.Evaluate[[]got](`(async () => {
		const b64 = (b) => btoa(Array.from(b, (x) => String.fromCharCode(x)).join(""));
		const out = [];
		for (const r of `+string(recsJSON)+`) {
			try {
				const g = await openpgp.record(r, `+string(whoJSON)+`, new Map());
				out.push({Covered: b64(g.covered), Signed: b64(g.signed), Fingerprint: g.fingerprint, Identity: g.identity});
			} catch (e) { out.push({Err: String(e.message)}); }
		}
		return out;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fixtures {
		if results[i].Err != "" || results[i].want != wants[i] {
			t.Errorf("%s (%s): the page finds %+v, verify %+v", f.name, f.uid, results[i], wants[i])
		}
	}
	t.Logf("%d shapes checked in the page as verify checks them", len(fixtures))
	refusals(t, ctx, recs, keys, fixtures)
}

// refusals has the page check each record changed: its text, one byte of
// its mail inside the order, or registered under another key.
func refusals(t *testing.T, ctx context.Context, recs []map[string]any, keys map[string]string, fixtures []sigFixture) {
	t.Helper()
	var bad []map[string]any
	var why, reason []string
	other := whoOf(keys)
	uids := slices.Sorted(maps.Keys(keys))
	for i, r := range recs {
		data := r["data"].(map[string]any)
		with := func(k string, v any, what, because string) {
			d := maps.Clone(data)
			d[k] = v
			bad = append(bad, map[string]any{"seq": r["seq"], "type": r["type"], "time": r["time"], "data": d})
			why = append(why, fixtures[i].name+" ("+fixtures[i].uid+"): "+what)
			reason = append(reason, because)
		}
		textChanged := "the recorded text is not what the signed message holds"
		if fixtures[i].signature != "" {
			textChanged = "(bad-signature)" // the text is what the signature covers
		}
		with("text", strings.Replace(data["text"].(string), "Narvik", "Narvig", 1), "the text changed", textChanged)
		if raw, ok := data["raw"].([]byte); ok {
			if k := bytes.Index(raw, []byte("\nPhase: ")); k >= 0 {
				forged := bytes.Clone(raw)
				forged[k+len("\nPhase: ")] ^= 0x20
				with("raw", forged, "one byte of the order in the mail changed", "(bad-signature)")
			}
		}
		next := uids[(slices.Index(uids, fixtures[i].uid)+1)%len(uids)]
		with("side", next, "another side's key", "is not the registered key's (unknown-key)")
	}
	recsJSON, _ := json.Marshal(bad)
	whoJSON, _ := json.Marshal(other)
	errs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(async () => {
		const out = [];
		for (const r of `+string(recsJSON)+`) {
			try { await openpgp.record(r, `+string(whoJSON)+`, new Map()); out.push(""); } catch (e) { out.push(String(e.message) || "refused"); }
		}
		return out;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range errs {
		if !strings.Contains(e, reason[i]) {
			t.Errorf("%s: the page says %q, want %q", why[i], e, reason[i])
		}
	}
	t.Logf("%d changed records refused, e.g. %q", len(errs), errs[0])
}

func whoOf(keys map[string]string) map[string]map[string]string {
	who := map[string]map[string]string{}
	for uid, k := range keys {
		who[uid] = map[string]string{"side": uid, "key": k}
	}
	return who
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func dearmored(t *testing.T, s string) []byte {
	t.Helper()
	blk, err := armor.Decode(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(blk.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goSignedFiles signs sigOrder as a file with go-crypto's keys: the
// demo's (a v4 EdDSA key) and a v6 Ed25519 key (RFC 9580: salted
// signatures, SHA-256 fingerprints), in binary and text mode.
func goSignedFiles(t *testing.T, keys map[string]string) []sigFixture {
	t.Helper()
	v4, err := compose.GenerateKey("Go v4", "v4@example.org", time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	v6, err := openpgp.NewEntity("Go v6", "", "v6@example.org", &packet.Config{V6Keys: true, Algorithm: packet.PubKeyAlgoEd25519, Time: func() time.Time { return time.Now().Add(-time.Hour) }})
	if err != nil || v6.PrimaryKey.Version != 6 {
		t.Fatalf("a v6 key: %v", err)
	}
	var fs []sigFixture
	for _, k := range []struct {
		uid string
		e   *openpgp.Entity
	}{{"Go v4 <v4@example.org>", v4}, {"Go v6 <v6@example.org>", v6}} {
		pub, err := compose.ArmorPublicKey(k.e)
		if err != nil {
			t.Fatal(err)
		}
		keys[k.uid] = string(pub)
		for _, text := range []bool{false, true} {
			var sig bytes.Buffer
			if err := openpgp.ArmoredDetachSign(&sig, []*openpgp.Entity{k.e}, strings.NewReader(sigOrder), &openpgp.SignParams{TextSig: text}); err != nil {
				t.Fatal(err)
			}
			fs = append(fs, sigFixture{name: fmt.Sprintf("signed file (text mode %v)", text), uid: k.uid, raw: []byte(sigOrder), signature: sig.String(), file: true})
		}
		for _, algo := range []packet.CompressionAlgo{packet.CompressionZIP, packet.CompressionZLIB} {
			fs = append(fs, sigFixture{name: fmt.Sprintf("detached .sig compressed (%d)", algo), uid: k.uid, raw: compressedSigMail(t, k.e, algo)})
		}
	}
	return fs
}

// compressedSigMail is a mail with sigOrder attached and its signature
// as one compressed packet around the signature packet.
func compressedSigMail(t *testing.T, e *openpgp.Entity, algo packet.CompressionAlgo) []byte {
	t.Helper()
	var sig, z bytes.Buffer
	if err := openpgp.DetachSign(&sig, []*openpgp.Entity{e}, strings.NewReader(sigOrder), nil); err != nil {
		t.Fatal(err)
	}
	w, err := packet.SerializeCompressed(nopCloser{&z}, algo, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(sig.Bytes())
	w.Close()
	return []byte("From: p@example.org\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"z\"\r\n\r\n" +
		"--z\r\nContent-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\n\r\n" + sigOrder +
		"\r\n--z\r\nContent-Type: application/octet-stream; name=\"orders.txt.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64(z.Bytes()) + "\r\n--z--\r\n")
}

// sigShapes signs sigOrder with uid's key in each shape clients send.
func sigShapes(t *testing.T, g *gpgtest.GPG, uid string) []sigFixture {
	t.Helper()
	crlf := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n") }
	latin1 := func(s string) []byte {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r))
		}
		return b
	}
	qp := func(b []byte) string {
		var s strings.Builder
		w := quotedprintable.NewWriter(&s)
		w.Write(b)
		w.Close()
		return s.String()
	}
	hdr := "From: player@example.org\r\nTo: host@example.org\r\nSubject: orders\r\nMIME-Version: 1.0\r\n"
	pgpMIME := func(inner string, hash string) []byte {
		sig := g.DetachSign(uid, []byte(inner), true, "--digest-algo", hash)
		return []byte(hdr + "Content-Type: multipart/signed; micalg=pgp-" + strings.ToLower(hash) + ";\r\n protocol=\"application/pgp-signature\"; boundary=\"b1\"\r\n\r\n" +
			"This is an OpenPGP/MIME signed message.\r\n--b1\r\n" + inner + "\r\n--b1\r\n" +
			"Content-Type: application/pgp-signature; name=\"signature.asc\"\r\n\r\n" + crlf(string(sig)) + "\r\n--b1--\r\n")
	}
	mixed := func(parts ...string) []byte {
		s := hdr + "Content-Type: multipart/mixed; boundary=\"m1\"\r\n\r\n"
		for _, p := range parts {
			s += "--m1\r\n" + p + "\r\n"
		}
		return []byte(s + "--m1--\r\n")
	}
	attach := func(ctype, name, cte, body string) string {
		return "Content-Type: " + ctype + "; name=\"" + name + "\"\r\nContent-Disposition: attachment; filename=\"" + name + "\"\r\nContent-Transfer-Encoding: " + cte + "\r\n\r\n" + body
	}
	note := "Content-Type: text/plain; charset=utf-8\r\n\r\nMy orders are attached.\r\n"
	file := []byte(sigOrder)
	asc := string(g.DetachSign(uid, file, true))
	textSig := g.DetachSign(uid, file, false, "--textmode")
	clear := g.Clearsign(uid, file)
	win := latin1(sigOrder)
	fs := []sigFixture{
		{name: "PGP/MIME text", raw: pgpMIME(crlf("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"+sigOrder), "SHA512")},
		{name: "PGP/MIME mutt ISO-8859-1 quoted-printable", raw: pgpMIME(crlf("Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\n"+qp(win)), "SHA256")},
		{name: "PGP/MIME Thunderbird attachment, note and key", raw: pgpMIME(crlf("Content-Type: multipart/mixed; boundary=\"tb\";\n protected-headers=\"v1\"\nSubject: orders\n\n--tb\n"+note+"\n--tb\n"+
			attach("text/plain; charset=UTF-8", "orders.txt", "base64", base64.StdEncoding.EncodeToString(file))+"\n--tb\n"+
			attach("application/pgp-keys", "OpenPGP_0x1.asc", "7bit", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n-----END PGP PUBLIC KEY BLOCK-----\n")+"\n--tb--\n"), "SHA256")},
		{name: "detached .asc", raw: mixed(note, attach("text/plain; charset=utf-8", "orders.txt", "8bit", sigOrder), attach("application/pgp-signature", "orders.txt.asc", "7bit", asc))},
		{name: "detached .sig text mode, CRLF from transport", raw: mixed(note, attach("text/plain; charset=utf-8", "orders.txt", "8bit", crlf(sigOrder)), attach("application/octet-stream", "orders.txt.sig", "base64", base64.StdEncoding.EncodeToString(textSig)))},
		{name: "detached .asc, mutt recoding to ISO-8859-1", raw: mixed(note, attach("text/plain; charset=iso-8859-1", "orders.txt", "quoted-printable", qp(win)), attach("application/pgp-signature", "orders.txt.asc", "7bit", asc))},
		{name: "cleartext", raw: []byte(hdr + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + crlf(string(clear)))},
		{name: "cleartext Windows-1252 bytes", raw: append([]byte(hdr+"Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"), g.Clearsign(uid, win)...)},
		{name: "signed file", raw: file, signature: asc, file: true},
		{name: "cleartext-signed file", raw: clear, file: true},
	}
	for i := range fs {
		fs[i].uid = uid
	}
	return fs
}

// TestReplayPageTextPiecesAgreeWithGo compares the page's text pieces with
// the Go code verify relies on, over awkward inputs: go-crypto's
// canonical text of a text-mode signature (a CR swallows the byte after
// it), RFC 3156's CRLF form, Go's quoted-printable reader (soft breaks,
// trailing blanks, a lone '=', lower-case hex, bad bytes) and verify's
// reading of a text in its charset.
func TestReplayPageTextPiecesAgreeWithGo(t *testing.T) {
	inputs := []string{"", "a\nb", "a\r\nb\n", "\n\n", "a\rb\n", "a\r\r\nb", "\r\n\r", "\r", "x\n\r\n\r\r\n\n",
		"caf=C3=A9 =\r\nsoft", "trailing  \t\r\nnext=\nsoft=", "a = b =3d =3D\n", "bad =ZZ end\n", "=\n", "end=", "ctl \x01 byte\n", "=e9t=E9\n", "8bit \xe9\n"}
	var canon, crlf, qp []string
	for _, in := range inputs {
		var b bytes.Buffer
		w := openpgp.NewCanonicalTextWriteCloser(nopCloser{&b})
		w.Write([]byte(in))
		canon = append(canon, b64(b.Bytes()))
		crlf = append(crlf, b64(bytes.ReplaceAll(bytes.ReplaceAll([]byte(in), []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))))
		out, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(in)))
		if err != nil {
			qp = append(qp, "error")
		} else {
			qp = append(qp, b64(out))
		}
	}
	texts := []struct{ in, charset string }{{"Bod\xf8", "iso-8859-1"}, {"\x80 \x9f", "ISO-8859-1"}, {"\x80 \xa4", "windows-1252"}, {"\xa4", "iso-8859-15"}, {"Bodø", "utf-8"}, {"Bod\xf8", "utf-8"}, {"Bod\xf8", ""}, {"x", "x-unknown"}, {"\x81", "windows-1252"}}
	var decoded []string
	for _, c := range texts {
		s, err := verify.DecodeText([]byte(c.in), c.charset)
		if err != nil {
			s = "error"
		}
		decoded = append(decoded, s)
	}
	ctx := browsertest.Browser(t, func(any) {})
	file := filepath.Join(t.TempDir(), "page.html")
	var b bytes.Buffer
	if err := (&replaypage.Page{Game: "pieces"}).Write(&b); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, b.Bytes(), 0o644)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	// Passed as base64: JSON strings would not keep bytes that are not UTF-8.
	var in64 []string
	for _, in := range inputs {
		in64 = append(in64, b64([]byte(in)))
	}
	var texts64 [][2]string
	for _, c := range texts {
		texts64 = append(texts64, [2]string{b64([]byte(c.in)), c.charset})
	}
	inJSON, _ := json.Marshal(in64)
	textsJSON, _ := json.Marshal(texts64)
	type pieces struct{ Canon, CRLF, QP, Decoded []string }
	got, err := chromedp.Run(ctx, chromedp.Evaluate[pieces](`(() => {
		const bytes = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));
		const b64 = (b) => btoa(Array.from(b, (x) => String.fromCharCode(x)).join(""));
		const tryOr = (f) => { try { return f(); } catch (e) { return "error"; } };
		const ins = `+string(inJSON)+`.map((s) => bytes(atob(s)));
		return {
			Canon: ins.map((b) => b64(openpgp.canonicalText(b))),
			CRLF: ins.map((b) => b64(openpgp.canonicalCRLF(b))),
			QP: ins.map((b) => tryOr(() => b64(openpgp.quotedPrintable(b)))),
			Decoded: `+string(textsJSON)+`.map(([s, cs]) => tryOr(() => openpgp.decodeText(bytes(atob(s)), cs))),
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range inputs {
		if got.Canon[i] != canon[i] || got.CRLF[i] != crlf[i] || got.QP[i] != qp[i] {
			t.Errorf("%q: the page's canonical text %s, CRLF form %s, quoted-printable %s; Go's %s, %s, %s", in, got.Canon[i], got.CRLF[i], got.QP[i], canon[i], crlf[i], qp[i])
		}
	}
	for i, c := range texts {
		if got.Decoded[i] != decoded[i] {
			t.Errorf("%q in %q: the page reads %q, verify %q", c.in, c.charset, got.Decoded[i], decoded[i])
		}
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// TestReplayPageChecksEncryptedAndCommandMail plays a game's mail through
// the host: orders signed and encrypted to the host (logged decrypted), a
// player's signed command moving its address (PlayerMail, SideChanged),
// orders signed in clear after; the page checks as many signatures in its
// log as verify does.
func TestReplayPageChecksEncryptedAndCommandMail(t *testing.T) {
	p := newPlayerMail(t)
	at := p.SignAt(allied0)
	m := compose.Message{From: allied0, To: hosttest.HostAddr, Subject: "orders", MessageID: "<enc-1@players.test>", Date: at, Text: "Game: g000\nPhase: T01\nSide: allied\nadvance 1\n"}
	raw, err := compose.SignEncrypt(m, p.Players[allied0], p.HostKey, at)
	if err != nil {
		t.Fatal(err)
	}
	p.appendRaw(raw)
	if a, _, _ := pollEncrypted(t, p.Env); a != 1 {
		t.Fatalf("encrypted orders: %d accepted", a)
	}
	p.send(allied0, "address allied-new@players.test\n")
	p.pass()
	p.Order(t, 0, "allied", "T01", "advance 2")
	p.Order(t, 0, "german", "T01", "advance 1")
	p.pass()
	rep, err := verifyGame(p.Env, "g000")
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(p.DataDir(), "g000", adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"PlayerMail", "SideChanged", `"encrypted":true`} {
		if !bytes.Contains(log, []byte(typ)) {
			t.Fatalf("the log holds no %s", typ)
		}
	}
	if rep.Signatures != 4 {
		t.Fatalf("verify checked %d signatures, want 4", rep.Signatures)
	}
	browsertest.PageChecksAsVerify(t, filepath.Join(p.DataDir(), "g000"), rep.Signatures)
}

// TestReplayPageRefusesRevokedAndExpiredKeys: a signed file recorded as
// received when the registered key had expired, or registered with its
// revocation (GnuPG's own certificate, no reason: for all time), or an
// RSA key of 1,024 bits, is refused by verify and by the page alike.
func TestReplayPageRefusesRevokedAndExpiredKeys(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Second)
	// A key valid for an hour from two hours ago; a file signed in it.
	short, err := openpgp.NewEntity("Short", "", "short@example.org", &packet.Config{KeyLifetimeSecs: 3600, Algorithm: packet.PubKeyAlgoEdDSA, Time: func() time.Time { return now.Add(-2 * time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	shortPub, _ := compose.ArmorPublicKey(short)
	signedAt := now.Add(-90 * time.Minute)
	var sig bytes.Buffer
	if err := openpgp.ArmoredDetachSign(&sig, []*openpgp.Entity{short}, strings.NewReader(sigOrder), &openpgp.SignParams{Config: &packet.Config{Time: func() time.Time { return signedAt }}}); err != nil {
		t.Fatal(err)
	}
	// A GnuPG key and its revocation certificate, imported.
	g := gpgtest.New(t)
	const uid = "Gone <gone@example.org>"
	fpr := g.GenKey(uid, "ed25519", "sign", "1d")
	clear := g.Clearsign(uid, []byte(sigOrder))
	live := string(g.ExportPublic(uid))
	rev, err := os.ReadFile(filepath.Join(g.Home, "openpgp-revocs.d", fpr+".rev"))
	if err != nil {
		t.Fatal(err)
	}
	g.Run(bytes.ReplaceAll(rev, []byte(":-----BEGIN"), []byte("-----BEGIN")), "--import")
	revoked := string(g.ExportPublic(uid))
	const weakUID = "Weak <weak@example.org>"
	g.GenKey(weakUID, "rsa1024", "sign", "1d")
	weakClear, weak := g.Clearsign(weakUID, []byte(sigOrder)), string(g.ExportPublic(weakUID))
	received := time.Now().UTC().Add(time.Second) // after GnuPG's keys and signatures, to the second

	cases := []struct {
		name, key, signature string
		file                 []byte
		signed, at           time.Time
		verify, page         string
	}{
		{"received after the key expired", string(shortPub), sig.String(), []byte(sigOrder), signedAt.Add(time.Minute), now, "expired", "(expired-key)"},
		{"the key revoked for no reason", revoked, "", clear, received, received, "revoked", "(revoked-key)"},
		{"an RSA key of 1,024 bits", weak, "", weakClear, received, received, "weak", "(weak-key)"},
	}
	var recs []map[string]any
	who := map[string]map[string]string{}
	for i, c := range cases {
		side := fmt.Sprint("side", i)
		good := string(shortPub)
		if c.signature == "" {
			good = live
		}
		ks, _ := wiring.Verifier{}.Keys([]string{good})
		v, err := wiring.Verifier{}.VerifyFile(c.file, c.signature, ks, c.signed)
		if c.key == weak {
			v, err = adjudicator.Verified{Signed: []byte(sigOrder), Fingerprint: g.Fingerprint(weakUID), Key: "sig1:" + strings.Repeat("0", 64)}, nil
		}
		if err != nil {
			t.Fatalf("%s: the file as signed: %v", c.name, err)
		}
		bad, _ := wiring.Verifier{}.Keys([]string{c.key})
		if _, err := (wiring.Verifier{}).VerifyFile(c.file, c.signature, bad, c.at); err == nil || !strings.Contains(err.Error(), c.verify) {
			t.Fatalf("%s: verify says %v, want %q", c.name, err, c.verify)
		}
		data := map[string]any{"side": side, "text": string(v.Signed), "source": "file", "fingerprint": v.Fingerprint, "key": v.Key, "sig_time": v.SigTime.UTC().Format(time.RFC3339)}
		if c.signature != "" {
			data["signature"] = c.signature
		} else {
			data["raw"] = c.file
		}
		recs = append(recs, map[string]any{"seq": 2, "type": "OrdersAccepted", "time": c.at.Format(time.RFC3339Nano), "data": data})
		who[side] = map[string]string{"side": side, "key": c.key}
	}
	ctx := browsertest.Browser(t, func(any) {})
	file := filepath.Join(t.TempDir(), "page.html")
	var b bytes.Buffer
	if err := (&replaypage.Page{Game: "keys"}).Write(&b); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, b.Bytes(), 0o644)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	recsJSON, _ := json.Marshal(recs)
	whoJSON, _ := json.Marshal(who)
	errs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(async () => {
		const out = [];
		for (const r of `+string(recsJSON)+`) {
			try { await openpgp.record(r, `+string(whoJSON)+`, new Map()); out.push("accepted"); } catch (e) { out.push(String(e.message)); }
		}
		return out;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if !strings.Contains(errs[i], c.page) {
			t.Errorf("%s: the page says %q, want %q", c.name, errs[i], c.page)
		}
	}
}

// TestReplayPageAgreesWithGoOnMangledMail mangles signed mails of each
// shape, Ed25519 and RSA (a byte changed to one that means something to MIME, armor or
// the cleartext format, a line dropped or doubled) and has verify and the
// page read each: the page must accept only what verify accepts, finding
// the same signed bytes and identity, and should accept all of it.
func TestReplayPageAgreesWithGoOnMangledMail(t *testing.T) {
	g := gpgtest.New(t)
	ctx := browsertest.Browser(t, func(any) {})
	for _, algo := range []string{"ed25519", "rsa3072"} {
		t.Run(algo, func(t *testing.T) { mangledAgree(t, ctx, g, algo) })
	}
}

// mangledAgree has verify and the page read 600 mangled mails signed by
// a key of the algorithm (see TestReplayPageAgreesWithGoOnMangledMail).
func mangledAgree(t *testing.T, ctx context.Context, g *gpgtest.GPG, algo string) {
	uid := "Mangled " + algo + " <m@example.org>"
	g.GenKey(uid, algo, "sign", "1d")
	armored := string(g.ExportPublic(uid))
	var mails [][]byte
	for _, f := range sigShapes(t, g, uid) {
		if !f.file {
			mails = append(mails, f.raw)
		}
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(algo))))
	const special = "\r\n \t-=:;\"'/*%?_.ABab0189+"
	var mangled [][]byte
	for range 600 {
		m := bytes.Clone(mails[rng.IntN(len(mails))])
		switch lines := bytes.SplitAfter(m, []byte("\n")); rng.IntN(3) {
		case 0:
			m[rng.IntN(len(m))] = special[rng.IntN(len(special))]
		case 1:
			i := rng.IntN(len(lines))
			m = bytes.Join(slices.Delete(lines, i, i+1), nil)
		default:
			i := rng.IntN(len(lines))
			m = bytes.Join(slices.Insert(lines, i, lines[i]), nil)
		}
		mangled = append(mangled, m)
	}
	at := time.Now().UTC().Add(time.Second)
	ks, err := wiring.Verifier{}.Keys([]string{armored})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "page.html")
	var b bytes.Buffer
	if err := (&replaypage.Page{Game: "mangled"}).Write(&b); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, b.Bytes(), 0o644)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	var in []string
	for _, m := range mangled {
		in = append(in, b64(m))
	}
	inJSON, _ := json.Marshal(in)
	keyJSON, _ := json.Marshal(armored)
	type read struct{ Covered, Signed, Identity, Err string }
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]read](`(async () => {
		const b64 = (b) => btoa(Array.from(b, (x) => String.fromCharCode(x)).join(""));
		const c = await openpgp.cert(`+string(keyJSON)+`);
		const out = [];
		for (const m of `+string(inJSON)+`) {
			try {
				const g = await openpgp.mail(Uint8Array.from(atob(m), (x) => x.charCodeAt(0)), c, `+fmt.Sprint(at.Unix())+`);
				out.push({Covered: b64(g.covered), Signed: b64(g.signed), Identity: g.identity});
			} catch (e) { out.push({Err: String(e.message) || "refused"}); }
		}
		return out;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	accepted, both := 0, 0
	for i, m := range mangled {
		r, err := verify.Verify(m, keyring(ks), at)
		switch {
		case err != nil && got[i].Err == "":
			t.Errorf("mangled mail %d: the page accepts it, verify refuses it: %v\n%s", i, err, m)
		case err == nil && got[i].Err != "":
			t.Errorf("mangled mail %d: verify accepts it, the page refuses it: %s\n%s", i, got[i].Err, m)
		case err == nil:
			accepted++
			if want := (read{b64(r.Covered), b64(r.Signed), adjudicator.IdentityKey(r.Identity), ""}); got[i] != want {
				t.Errorf("mangled mail %d: the page reads %+v, verify %+v", i, got[i], want)
			}
		default:
			both++
		}
	}
	t.Logf("%d mangled mails: %d accepted by both alike, %d refused by both", len(mangled), accepted, both)
}

// keyring is the key set's keys as go-crypto takes them.
func keyring(ks adjudicator.KeySet) openpgp.EntityList {
	el, _ := ks.(openpgp.EntityList)
	return el
}
