"use strict";
// Checking the players' signatures of the log in the page: a port of what
// mail/verify checks (the three mail forms, OpenPGP signature and key
// packets, the signer's key as the log registered it), with the browser's
// WebCrypto doing the hashing and the public-key arithmetic.
const openpgp = (function () {
  const enc = new TextEncoder();
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  class Refused extends Error {}
  class Mismatch extends Refused {} // the record says other than its signed message
  const no = (why) => { throw new Refused(why); };
  const differs = (why) => { throw new Mismatch(why); };
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  function concat(...parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) { out.set(p, o); o += p.length; }
    return out;
  }
  const latin1 = (b) => { let s = ""; for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192)); return s; };
  const bytesOf = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  function indexOf(b, pat, from) {
    const first = pat[0];
    for (let i = b.indexOf(first, from || 0); i >= 0 && i + pat.length <= b.length; i = b.indexOf(first, i + 1)) {
      let k = 1;
      while (k < pat.length && b[i + k] === pat[k]) k++;
      if (k === pat.length) return i;
    }
    return -1;
  }
  function replaceAll(b, from, to) {
    const out = [];
    let i = 0, j;
    while ((j = indexOf(b, from, i)) >= 0) { out.push(b.subarray(i, j), to); i = j + from.length; }
    out.push(b.subarray(i));
    return concat(...out);
  }
  const CRLF = bytesOf("\r\n"), LF = bytesOf("\n");
  // base64 decodes as Go's StdEncoding does what verify hands it: padded,
  // with line breaks, blanks and tabs left out.
  function base64(s) {
    const t = s.replace(/[\r\n \t]/g, "");
    if (t.length % 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(t)) no("bad base64");
    try { return bytesOf(atob(t)); } catch (e) { return no("bad base64"); }
  }
  const be = (b, o, n) => { let v = 0; for (let i = 0; i < n; i++) v = v * 256 + b[o + i]; return v; };
  const u32 = (n) => new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

  // --- MIME, as mail/verify/mime.go parses it ---
  function lines(b) { // [start, end without CR/LF, next]
    const out = [];
    for (let pos = 0; pos < b.length;) {
      const nl = b.indexOf(10, pos), next = nl < 0 ? b.length : nl + 1;
      let end = nl < 0 ? b.length : nl;
      out.push([pos, end, next]);
      pos = next;
    }
    return out;
  }
  const trimCR = (b, s, e) => (e > s && b[e - 1] === 13 ? e - 1 : e);
  function splitHeader(raw) {
    for (const [s, e, n] of lines(raw)) if (trimCR(raw, s, e) === s) return [raw.subarray(0, s), raw.subarray(n)];
    return [raw, raw.subarray(raw.length)];
  }
  // header reads a MIME header as go-message's textproto does: a field
  // name of printable ASCII without a colon, folded lines unfolded.
  function header(b) {
    const fields = [];
    const ls = latin1(b).split(/\r?\n/);
    if (/^[ \t]/.test(ls[0] || "")) no("unreadable MIME header: it begins with a folded line");
    for (const line of ls) {
      if (line === "") continue;
      if (/^[ \t]/.test(line)) { if (fields.length) fields[fields.length - 1][1] += line; continue; }
      const i = line.indexOf(":");
      if (i < 0) no("unreadable MIME header line");
      const key = line.slice(0, i).replace(/^[ \t]+|[ \t]+$/g, "");
      if (/[^\x21-\x7e]/.test(key)) no("unreadable MIME header: a malformed field name");
      if (key) fields.push([key.toLowerCase(), line.slice(i + 1)]);
    }
    const all = (k) => fields.filter((f) => f[0] === k).map((f) => f[1].trim());
    return { all, get: (k) => all(k)[0] || "" };
  }
  // mediaType is Go's mime.ParseMediaType: a type/subtype of tokens, then
  // parameters (tokens or quoted strings, RFC 2231 continuations and
  // encodings), or an error.
  const TOKEN = "[!#$%&'*+\\-.0-9A-Z^_`a-z{|}~]+";
  const PARAM = new RegExp("^\\s*;\\s*(" + TOKEN + ")\\s*=\\s*(" + TOKEN + '|"((?:[^"\\\\\\r\\n]|\\\\[^\\r\\n])*)")');
  function quoted(q) {
    return q.replace(/\\([^])/g, (m, c) => ('()<>@,;:\\"/[]?='.includes(c) ? c : m));
  }
  function percent(v) {
    if (/%(?![0-9a-fA-F]{2})/.test(v)) return null;
    return new TextDecoder().decode(bytesOf(v.replace(/%([0-9a-fA-F]{2})/g, (m, h) => String.fromCharCode(parseInt(h, 16)))));
  }
  function enc2231(v) {
    const m = /^([^']*)'[^']*'(.*)$/s.exec(v);
    return m && ["us-ascii", "utf-8"].includes(m[1].toLowerCase()) ? percent(m[2]) : null;
  }
  function mediaType(v) {
    const base = v.split(";")[0], type = base.trim().toLowerCase();
    if (!new RegExp("^" + TOKEN + "(/" + TOKEN + ")?$").test(type)) no("unparsable media type");
    const params = {}, cont = {};
    for (let rest = v.slice(base.length); rest.trim() !== "";) {
      const m = PARAM.exec(rest);
      if (!m) { if (rest.trim() === ";") break; no("unparsable media type: an invalid parameter"); }
      const key = m[1].toLowerCase(), value = m[3] !== undefined ? quoted(m[3]) : m[2];
      const star = key.indexOf("*"), map = star < 0 ? params : (cont[key.slice(0, star)] = cont[key.slice(0, star)] || {});
      if (key in map && map[key] !== value) no("unparsable media type: a parameter given twice");
      map[key] = value;
      rest = rest.slice(m[0].length);
    }
    for (const [k, pieces] of Object.entries(cont)) {
      if ((k + "*") in pieces) { const d = enc2231(pieces[k + "*"]); if (d !== null) params[k] = d; continue; }
      let out = "", valid = false;
      for (let n = 0; ; n++) {
        if ((k + "*" + n) in pieces) { valid = true; out += pieces[k + "*" + n]; continue; }
        const e = pieces[k + "*" + n + "*"];
        if (e === undefined) break;
        valid = true;
        out += (n === 0 ? enc2231(e) : percent(e)) || "";
      }
      if (valid) params[k] = out;
    }
    return [type, params];
  }
  function parse(raw, depth) {
    if (depth > 8) no("MIME nesting too deep");
    const [hb, body] = splitHeader(raw);
    const h = header(hb);
    for (const k of ["content-type", "content-transfer-encoding", "content-disposition"]) {
      if (h.all(k).length > 1) no(k + " appears more than once");
    }
    const e = { raw, h, body, type: "text/plain", params: {}, children: [] };
    if (h.get("content-type")) [e.type, e.params] = mediaType(h.get("content-type"));
    if (e.type.startsWith("multipart/")) {
      if (!["", "7bit", "8bit", "binary"].includes(h.get("content-transfer-encoding").toLowerCase())) no("transfer-encoded multipart");
      e.children = splitMultipart(body, e.params.boundary || "").map((p) => parse(p, depth + 1));
    }
    return e;
  }
  function splitMultipart(body, boundary) {
    if (!boundary || boundary.length > 70) no("multipart boundary missing or too long");
    const dash = bytesOf("--" + boundary), parts = [];
    let start = -1;
    for (let pos = 0; pos <= body.length;) {
      const nl = body.indexOf(10, pos), next = nl < 0 ? body.length + 1 : nl + 1;
      const end = trimCR(body, pos, nl < 0 ? body.length : nl);
      if (end - pos >= dash.length && dash.every((c, i) => body[pos + i] === c)) {
        let rest = latin1(body.subarray(pos + dash.length, end));
        const closing = rest.startsWith("--");
        if (closing) rest = rest.slice(2);
        if (/^[ \t]*$/.test(rest)) {
          if (start >= 0) {
            let e = pos;
            if (e > 0 && body[e - 1] === 10) { e--; if (e > 0 && body[e - 1] === 13) e--; }
            parts.push(body.subarray(start, Math.max(e, start)));
          }
          if (closing) return parts.length ? parts : no("multipart without parts");
          start = Math.min(next, body.length);
        }
      }
      pos = next;
    }
    return no("multipart without close delimiter");
  }
  function quotedPrintable(b) {
    const out = [];
    for (const [s, , n] of lines(b)) {
      const whole = b.subarray(s, n);
      let e = whole.length;
      while (e > 0 && [32, 9, 13, 10].includes(whole[e - 1])) e--;
      let line = Array.from(whole.subarray(0, e));
      if (line[line.length - 1] === 61) {
        line.pop();
      } else if (whole[whole.length - 1] === 10) {
        line.push(...(whole.length > 1 && whole[whole.length - 2] === 13 ? [13, 10] : [10]));
      }
      for (let i = 0; i < line.length; i++) {
        const c = line[i];
        if (c === 61) {
          const h = String.fromCharCode(line[i + 1] || 0, line[i + 2] || 0);
          if (/^[0-9A-Fa-f]{2}$/.test(h)) { out.push(parseInt(h, 16)); i += 2; continue; }
          if (i + 1 < line.length && line[i + 1] !== 13 && line[i + 1] !== 10) { out.push(61); continue; }
          no("bad quoted-printable body");
        }
        if (c < 32 && c !== 9 && c !== 13 && c !== 10) no("bad quoted-printable body");
        if (c === 127) no("bad quoted-printable body");
        out.push(c);
      }
    }
    return new Uint8Array(out);
  }
  function decodeBody(e) {
    switch (e.h.get("content-transfer-encoding").toLowerCase()) {
      case "": case "7bit": case "8bit": case "binary": return e.body;
      case "quoted-printable": return quotedPrintable(e.body);
      case "base64": return base64(latin1(e.body));
    }
    return no("unknown Content-Transfer-Encoding");
  }
  function encodedWords(s) {
    return s.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (w, cs, t, text) => {
      try {
        const b = t.toLowerCase() === "b" ? base64(text) : bytesOf(text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (m, h) => String.fromCharCode(parseInt(h, 16))));
        return decodeText(b, cs);
      } catch (err) { return w; }
    });
  }
  function fileNames(e) {
    const names = [];
    const add = (n) => { if (n && n.includes("=?")) n = encodedWords(n); if (n && !names.includes(n)) names.push(n); };
    const cd = e.h.get("content-disposition");
    if (cd) { try { add(mediaType(cd)[1].filename); } catch (err) { /* as Go: an unparsable disposition names nothing */ } }
    add(e.params.name);
    return names;
  }
  function isAttachment(e) {
    const cd = e.h.get("content-disposition");
    if (cd) { try { if (mediaType(cd)[0] === "attachment") return true; } catch (err) { /* as Go */ } }
    return fileNames(e).length > 0;
  }
  function kindOf(e) {
    if (e.type === "application/pgp-keys") return "key";
    if (e.type === "multipart/alternative") {
      if (e.children.some((c) => c.children.length || (c.type !== "text/plain" && c.type !== "text/html"))) return "other";
      return isAttachment(e) ? "other" : "note";
    }
    if (e.children.length || e.type.startsWith("multipart/") || !e.type.startsWith("text/")) return "other";
    if (isAttachment(e)) return "file";
    return e.type === "text/plain" || e.type === "text/html" ? "note" : "other";
  }
  function orderFromSigned(e) {
    if (e.type === "text/plain") return e;
    if (e.type !== "multipart/mixed") no("the signed part is " + e.type);
    const kinds = e.children.map(kindOf);
    if (kinds.includes("other")) no("a part inside the signed multipart/mixed is neither the order file nor a note");
    const files = e.children.filter((c, i) => kinds[i] === "file"), notes = e.children.filter((c, i) => kinds[i] !== "file");
    if (files.length === 1) return files[0];
    if (files.length === 0 && notes.length === 1 && notes[0].type === "text/plain") return notes[0];
    return no("the signed multipart/mixed holds no single order file");
  }
  const charsetOf = (e) => (e.params.charset || "").trim();
  const isUTF8Label = (cs) => ["", "us-ascii", "ascii", "utf-8", "utf8"].includes(cs.trim().toLowerCase());
  // decodeText reads bytes in a charset as verify.DecodeText does.
  function decodeText(b, cs) {
    const label = cs.trim().toLowerCase();
    if (isUTF8Label(label)) { try { return utf8.decode(b); } catch (e) { return no("the text is not UTF-8"); } }
    if (["iso-8859-1", "iso8859-1", "latin1", "iso_8859-1", "l1", "iso-ir-100", "cp819", "ibm819", "csisolatin1"].includes(label)) return latin1(b);
    let d;
    try { d = new TextDecoder(label, { fatal: true }); } catch (e) { return no("the charset " + cs + " is not one the page can read"); }
    let t;
    try { t = d.decode(b); } catch (e) { return no("the text does not decode as " + cs); }
    // Go's Windows-1252 leaves five bytes undefined, which WHATWG's maps
    // to C1 controls; verify refuses a byte the charset does not define.
    if (/\uFFFD/.test(t) || (d.encoding === "windows-1252" && /[\x81\x8d\x8f\x90\x9d]/.test(t))) no("a byte " + cs + " does not define");
    return t;
  }
  const unsignedCharset = (b) => { try { utf8.decode(b); return ""; } catch (e) { return "windows-1252"; } };

  // --- OpenPGP packets (RFC 9580) ---
  function packets(b) {
    const out = [];
    for (let o = 0; o < b.length;) {
      const start = o, t = b[o++];
      if (!(t & 0x80)) no("not an OpenPGP packet");
      let tag, len;
      if (t & 0x40) {
        tag = t & 0x3f;
        const l = b[o++];
        if (l < 192) len = l;
        else if (l < 224) len = ((l - 192) << 8) + b[o++] + 192;
        else if (l === 255) { len = be(b, o, 4); o += 4; } else no("partial-length packet");
      } else {
        tag = (t >> 2) & 15;
        const n = [1, 2, 4, 0][t & 3];
        len = n ? be(b, o, n) : b.length - o;
        o += n;
      }
      // go-crypto reads a packet longer than what is left as far as its
      // fields go: what it needs must be there (see signature, mpi).
      if (o + len > b.length) len = b.length - o;
      out.push({ tag, body: b.subarray(o, o + len), raw: b.subarray(start, o + len) });
      o += len;
    }
    return out;
  }
  function dearmor(text, type) {
    const ls = text.split(/\r?\n/).map((l) => l.trim());
    const i = ls.findIndex((l) => l.startsWith("-----BEGIN PGP ") && l.endsWith("-----"));
    if (i < 0 || ls[i] !== "-----BEGIN " + type + "-----") no("no " + type + " armor");
    let j = i + 1;
    while (j < ls.length && ls[j] !== "") j++;
    let body = "";
    for (j++; j < ls.length; j++) {
      if (ls[j].startsWith("-----END") || (ls[j].length === 5 && ls[j][0] === "=")) return base64(body);
      if (ls[j].length > 96 || /[ \t]/.test(ls[j])) no("bad armor: a line go-crypto refuses");
      body += ls[j];
    }
    return no("armor without its end");
  }
  const truncated = () => no("a truncated OpenPGP packet");
  function mpi(b, o) {
    if (o + 2 > b.length) truncated();
    const n = Math.ceil(be(b, o, 2) / 8);
    if (o + 2 + n > b.length) truncated();
    return [b.subarray(o + 2, o + 2 + n), o + 2 + n];
  }
  function subpackets(b) {
    const out = [];
    for (let o = 0; o < b.length;) {
      let len = b[o++];
      if (len >= 192 && len < 255) len = ((len - 192) << 8) + b[o++] + 192;
      else if (len === 255) { len = be(b, o, 4); o += 4; }
      if (!(len >= 1) || o + len > b.length) no("a truncated signature subpacket");
      out.push({ type: b[o] & 0x7f, body: b.subarray(o + 1, o + len) });
      o += len;
    }
    return out;
  }
  const HASHES = { 8: "SHA-256", 9: "SHA-384", 10: "SHA-512" };
  const HASH_NAMES = { 1: "MD5", 2: "SHA1", 3: "RIPEMD160", 8: "SHA256", 9: "SHA384", 10: "SHA512", 11: "SHA224", 12: "SHA3-256", 14: "SHA3-512" };
  function signature(body) {
    const v = body[0];
    if (v !== 4 && v !== 6) no("signature version " + v);
    const n = v === 4 ? 2 : 4;
    const hl = be(body, 4, n), hashedEnd = 4 + n + hl;
    if (hashedEnd + n > body.length) truncated();
    const ul = be(body, hashedEnd, n), unhashedEnd = hashedEnd + n + ul;
    if (unhashedEnd + 2 > body.length) truncated();
    const s = { version: v, type: body[1], algo: body[2], hash: body[3], hashed: subpackets(body.subarray(4 + n, hashedEnd)),
      unhashed: subpackets(body.subarray(hashedEnd + n, unhashedEnd)), tag: body.subarray(unhashedEnd, unhashedEnd + 2) };
    s.suffix = concat(body.subarray(0, hashedEnd), new Uint8Array([v, 0xff]), u32(hashedEnd));
    let o = unhashedEnd + 2;
    s.salt = new Uint8Array(0);
    if (v === 6) { s.salt = body.subarray(o + 1, o + 1 + body[o]); o += 1 + body[o]; }
    if (o > body.length) truncated();
    s.material = body.subarray(o);
    const sub = (t) => s.hashed.find((p) => p.type === t);
    s.created = sub(2) ? be(sub(2).body, 0, 4) : 0;
    s.expires = sub(3) ? be(sub(3).body, 0, 4) : 0;
    s.keyExpires = sub(9) ? be(sub(9).body, 0, 4) : 0;
    s.flags = sub(27) ? sub(27).body[0] : undefined;
    s.reason = sub(29) ? sub(29).body[0] : undefined;
    // The issuer is the key ID the last issuer subpacket names (hashed
    // area first), as go-crypto reads it.
    s.issuer = "";
    s.hashed.map((p) => [p, true]).concat(s.unhashed.map((p) => [p, false])).forEach(([p, hashed]) => {
      if (p.type === 16) {
        if (v > 4 && hashed) no("an issuer key ID subpacket in a v6 signature");
        if (p.body.length !== 8) no("an issuer subpacket of bad length");
        if (v === 4) s.issuer = hex(p.body);
      } else if (p.type === 33) {
        const fv = p.body[0], l = p.body.length - 1;
        if (!p.body.length || (fv >= 5 ? l !== 32 : l !== 20)) no("an issuer fingerprint of bad length");
        s.issuer = hex(fv >= 5 ? p.body.subarray(1, 9) : p.body.subarray(13, 21));
      }
    });
    const emb = s.hashed.concat(s.unhashed).find((p) => p.type === 32);
    s.embedded = emb ? emb.body : null;
    return s;
  }
  // A public key or subkey packet.
  async function publicKey(body) {
    const v = body[0];
    const k = { version: v, created: be(body, 1, 4), algo: body[5], body };
    let o = 6;
    if (v === 6) o += 4; else if (v !== 4) no("key version " + v);
    const prefix = v === 4 ? concat(new Uint8Array([0x99, body.length >> 8, body.length & 255])) : concat(new Uint8Array([0x9b]), u32(body.length));
    k.hashed = concat(prefix, body);
    const fp = new Uint8Array(await crypto.subtle.digest(v === 4 ? "SHA-1" : "SHA-256", k.hashed));
    k.fingerprint = fp;
    k.id = hex(v === 4 ? fp.subarray(12) : fp.subarray(0, 8));
    if (k.algo === 1 || k.algo === 3) {
      let n, e;
      [n, o] = mpi(body, o);
      [e, o] = mpi(body, o);
      k.rsa = { n, e };
    } else if (k.algo === 19 || k.algo === 22) {
      k.oid = hex(body.subarray(o + 1, o + 1 + body[o]));
      [k.point] = mpi(body, o + 1 + body[o]);
    } else if (k.algo === 27) {
      k.point = body.subarray(o, o + 32);
    }
    return k;
  }
  const CURVES = { "2a8648ce3d030107": ["P-256", 32], "2b81040022": ["P-384", 48], "2b81040023": ["P-521", 66] };
  const ED25519 = "2b06010401da470f01";
  const pad = (b, n) => (b.length >= n ? b.subarray(b.length - n) : concat(new Uint8Array(n - b.length), b));
  const b64url = (b) => btoa(latin1(b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

  // verifyRaw checks the public-key arithmetic of sig by key over input (the
  // bytes hashed) whose digest is given.
  async function verifyRaw(key, sig, input, digest) {
    const hash = HASHES[sig.hash], m = sig.material, S = crypto.subtle;
    if (sig.algo !== key.algo && !(sig.algo === 22 && key.algo === 22)) no("the signature's algorithm is not its key's");
    if (key.algo === 1 || key.algo === 3) {
      const k = await S.importKey("jwk", { kty: "RSA", n: b64url(key.rsa.n), e: b64url(key.rsa.e), ext: true }, { name: "RSASSA-PKCS1-v1_5", hash }, false, ["verify"]);
      return S.verify("RSASSA-PKCS1-v1_5", k, pad(mpi(m, 0)[0], key.rsa.n.length), input);
    }
    if (key.algo === 19) {
      const c = CURVES[key.oid] || no("an ECDSA curve the page does not know");
      const k = await S.importKey("raw", key.point, { name: "ECDSA", namedCurve: c[0] }, false, ["verify"]);
      const [r, o] = mpi(m, 0), [s] = mpi(m, o);
      return S.verify({ name: "ECDSA", hash }, k, concat(pad(r, c[1]), pad(s, c[1])), input);
    }
    let point, sigBytes;
    if (key.algo === 22) {
      if (key.oid !== ED25519 || key.point[0] !== 0x40) no("an EdDSA curve the page does not know");
      point = key.point.subarray(1);
      const [r, o] = mpi(m, 0), [s] = mpi(m, o);
      sigBytes = concat(pad(r, 32), pad(s, 32));
    } else if (key.algo === 27) {
      point = key.point;
      sigBytes = m.subarray(0, 64);
    } else {
      return no("public-key algorithm " + key.algo + " (the page checks RSA, ECDSA and Ed25519)");
    }
    const k = await S.importKey("raw", point, { name: "Ed25519" }, false, ["verify"]);
    return S.verify({ name: "Ed25519" }, k, sigBytes, digest);
  }

  // canonicalText is go-crypto's text-signature canonicalisation: a LF not
  // after a CR becomes CRLF (a CR swallows the byte after it).
  function canonicalText(b) {
    const out = [];
    let s = 0;
    for (const c of b) {
      if (s === 1) s = 0;
      else if (c === 13) s = 1;
      else if (c === 10) { out.push(13); }
      out.push(c);
    }
    return new Uint8Array(out);
  }
  // check verifies sig by key over data (hashed in text mode for a text
  // signature) and returns the digest; it refuses what verify refuses as
  // weak and what the page cannot compute.
  async function check(key, sig, data) {
    if ([1, 2, 3].includes(sig.hash)) no("signature hash " + HASH_NAMES[sig.hash] + " is not accepted (weak-hash)");
    if (!HASHES[sig.hash]) no("signature hash " + (HASH_NAMES[sig.hash] || sig.hash) + ", which the page cannot compute: check it with skagerrak verify");
    const input = concat(sig.salt, sig.type === 1 ? canonicalText(data) : data, sig.suffix);
    const digest = new Uint8Array(await crypto.subtle.digest(HASHES[sig.hash], input));
    if (digest[0] !== sig.tag[0] || digest[1] !== sig.tag[1]) return null;
    return (await verifyRaw(key, sig, input, digest)) ? digest : null;
  }

  // --- the registered certificate ---
  // cert reads an armored public key and checks its self-signatures once:
  // user ID certifications, direct-key signatures, revocations, subkey
  // bindings (with the signing subkey's back signature).
  async function cert(armored) {
    const ps = packets(dearmor(armored, "PGP PUBLIC KEY BLOCK"));
    if (!ps.length || ps[0].tag !== 6) no("the registered key is not an OpenPGP public key");
    const primary = await publicKey(ps[0].body);
    const c = { primary, selfSigs: [], revocations: [], subkeys: [] };
    let uid = null, sub = null;
    for (const p of ps.slice(1)) {
      if (p.tag === 13 || p.tag === 17) { uid = concat(new Uint8Array([p.tag === 13 ? 0xb4 : 0xd1]), u32(p.body.length), p.body); sub = null; continue; }
      if (p.tag === 14) { sub = { key: await publicKey(p.body), bindings: [], revocations: [] }; c.subkeys.push(sub); uid = null; continue; }
      if (p.tag !== 2) continue;
      let s;
      try { s = signature(p.body); } catch (e) { continue; }
      if (!HASHES[s.hash]) continue;
      if (sub) {
        const data = concat(primary.hashed, sub.key.hashed);
        if (s.type === 0x18 && (await check(primary, s, data))) {
          if (s.flags !== undefined && s.flags & 2) {
            let back = null;
            try { back = s.embedded && signature(s.embedded); } catch (e) { back = null; }
            if (!back || back.type !== 0x19 || !HASHES[back.hash] || !(await check(sub.key, back, data))) continue;
          }
          sub.bindings.push(s);
        }
        if (s.type === 0x28 && (await check(primary, s, data))) sub.revocations.push(s);
      } else if (uid && s.type >= 0x10 && s.type <= 0x13) {
        if (await check(primary, s, concat(primary.hashed, uid))) c.selfSigs.push(s);
      } else if (!uid && s.type === 0x1f) {
        if (await check(primary, s, primary.hashed)) c.selfSigs.push(s);
      } else if (!uid && s.type === 0x20) {
        if (await check(primary, s, primary.hashed)) c.revocations.push(s);
      }
    }
    c.fingerprint = hex(primary.fingerprint).toUpperCase();
    return c;
  }
  // revokedAt is go-crypto's Revoked: a revocation without reason, or
  // for no reason, compromise or an unknown one, revokes for all time;
  // another takes effect when made (for a subkey, if made after its
  // binding).
  const revokedAt = (revs, t, binding) => revs.some((r) => [undefined, 0, 2, 200].includes(r.reason) ||
    (!expired(r.created, r.expires, t) && (!binding || binding.created <= r.created)));
  const latest = (sigs, t) => sigs.filter((s) => s.created <= t).sort((a, b) => b.created - a.created)[0];
  // expired is go-crypto's KeyExpired or SigExpired of a key or signature
  // created at `created` with the lifetime `life` (0: none) at t.
  const expired = (created, life, t) => created > t || (life > 0 && t > created + life);
  // usable finds the key that made sig in the certificate, valid at t.
  // strong refuses what verify's keyStrength does: RSA under 2048 bits,
  // DSA and ElGamal.
  function strong(k) {
    if ([16, 17, 20].includes(k.algo)) no("public key algorithm " + k.algo + " is not accepted (weak-key)");
    if (k.rsa && k.rsa.n.length * 8 - Math.clz32(k.rsa.n[0]) + 24 < 2048) no("RSA key under 2048 bits (weak-key)");
    return k;
  }
  function usable(c, sig, t) {
    const p = strong(c.primary);
    if (revokedAt(c.revocations, t)) no("signing key revoked (revoked-key)");
    const self = latest(c.selfSigs, t) || no("the registered key has no valid self-signature at " + new Date(t * 1000).toISOString());
    if (expired(p.created, self.keyExpires, t) || expired(self.created, self.expires, t)) no("signing key expired (expired-key)");
    const isIssuer = (k) => sig.issuer === k.id;
    if (isIssuer(p)) {
      if (self.flags !== undefined && !(self.flags & 2)) no("the primary key may not sign");
      return p;
    }
    for (const s of c.subkeys) {
      if (!isIssuer(s.key)) continue;
      const b = latest(s.bindings, t) || no("the signing subkey has no valid binding");
      if (revokedAt(s.revocations, t, b)) no("signing subkey revoked (revoked-key)");
      if (b.flags === undefined || !(b.flags & 2)) no("the subkey may not sign");
      if (expired(s.key.created, b.keyExpires, t) || expired(b.created, b.expires, t)) no("signing subkey expired (expired-key)");
      return strong(s.key);
    }
    return no("issuer key " + sig.issuer.toUpperCase() + " is not the registered key's (unknown-key)");
  }

  // --- a signed message ---
  // one reads a signature part: one armored block (or binary) holding one
  // signature packet, or (in mail) one compressed packet around it.
  async function one(b, compressed = true) {
    const t = latin1(b).trim();
    if (t.startsWith("-----BEGIN PGP")) {
      if (t.split("-----BEGIN PGP").length !== 2) no("more than one armored block in the signature part (multiple-signatures)");
      if (!t.startsWith("-----BEGIN PGP SIGNATURE-----") || !t.endsWith("-----END PGP SIGNATURE-----")) no("the signature part is not one PGP SIGNATURE block");
      b = dearmor(t, "PGP SIGNATURE");
    }
    let ps = packets(b);
    if (compressed && ps.length === 1 && ps[0].tag === 8) ps = packets(await inflate(ps[0].body));
    if (ps.length !== 1 || ps[0].tag !== 2) no("the signature part is not one signature packet");
    return { raw: ps[0].raw, sig: signature(ps[0].body) };
  }
  // inflate opens a compressed packet (ZIP or ZLIB; BZip2 is left to
  // verify), its output bounded to 64 KiB as verify bounds it.
  async function inflate(body) {
    const kind = { 1: "deflate-raw", 2: "deflate" }[body[0]];
    if (body[0] === 0) return body.subarray(1);
    if (!kind) no("a signature compressed with BZip2, which the page does not open: check it with skagerrak verify");
    const r = new Blob([body.subarray(1)]).stream().pipeThrough(new DecompressionStream(kind)).getReader();
    const out = [];
    let n = 0;
    for (;;) {
      let c;
      try { c = await r.read(); } catch (e) { return no("a bad compressed packet"); }
      if (c.done) return concat(...out);
      n += c.value.length;
      if (n > 65536) no("the compressed signature expands beyond 65536 bytes (too-large)");
      out.push(c.value);
    }
  }
  // verifyOver applies the policy to one signature packet over data, at
  // the receipt time `at` (seconds): what verify's checkSignature does.
  async function verifyOver(sp, data, c, at) {
    const sig = sp.sig;
    if (sig.type !== 0 && sig.type !== 1) no("not a document signature");
    if (!sig.issuer) no("the signature names no issuer key (no-issuer)");
    if (sig.created > at + 600) no("signature made after it was received (future-signature)");
    const judge = Math.max(at, sig.created);
    if (expired(sig.created, sig.expires, judge)) no("signature expired before receipt (expired-signature)");
    const key = usable(c, sig, sig.created);
    const digest = await check(key, sig, data);
    if (!digest) return null;
    usable(c, sig, at);
    const fp = c.primary.fingerprint;
    const id = new Uint8Array(await crypto.subtle.digest("SHA-256", concat(enc.encode("skagerrak signature identity 1\0"),
      new Uint8Array([fp.length]), fp, u32(sig.suffix.length), sig.suffix, new Uint8Array([digest.length]), digest)));
    return { fingerprint: c.fingerprint, identity: "sig1:" + hex(id), packet: hex(new Uint8Array(await crypto.subtle.digest("SHA-256", sp.raw))), created: sig.created, hash: HASH_NAMES[sig.hash] };
  }
  // firstOver tries the byte strings in turn: the first the signature
  // verifies over is the signed one.
  async function firstOver(sp, datas, c, at) {
    for (const d of datas) {
      const r = await verifyOver(sp, d, c, at);
      if (r) return Object.assign(r, { covered: d });
    }
    return no("the message is not what was signed (bad-signature)");
  }
  const canonicalCRLF = (b) => replaceAll(replaceAll(b, CRLF, LF), LF, CRLF);
  async function pgpMIME(root, c, at) {
    if ((root.params.protocol || "").toLowerCase() !== "application/pgp-signature" || root.children.length !== 2 || root.children[1].type !== "application/pgp-signature") {
      no("not an RFC 3156 multipart/signed");
    }
    const sp = await one(decodeBody(root.children[1]));
    const micalg = (root.params.micalg || "").trim();
    if (micalg && micalg.toLowerCase() !== "pgp-" + (HASH_NAMES[sp.sig.hash] || "").toLowerCase()) no("micalg is not the signature's hash");
    const covered = canonicalCRLF(root.children[0].raw);
    const r = await firstOver(sp, [covered, replaceAll(covered, CRLF, LF)], c, at);
    const file = orderFromSigned(parse(r.covered, 1));
    return Object.assign(r, { form: "pgp-mime", signed: decodeBody(file), charset: charsetOf(file) });
  }
  function looksLikeSignature(e) {
    return e.type === "application/pgp-signature" || fileNames(e).some((n) => /\.(asc|sig)$/i.test(n));
  }
  async function detached(root, c, at) {
    const sigs = root.children.filter((e) => !e.children.length && looksLikeSignature(e));
    if (sigs.length !== 1) no(sigs.length ? "two detached signatures" : "no detached signature");
    const sp = await one(decodeBody(sigs[0]));
    const candidates = root.children.filter((e) => e !== sigs[0] && !e.children.length && !e.type.startsWith("multipart/") && !e.type.startsWith("message/") && kindOf(e) !== "key");
    for (const file of candidates) {
      let data;
      try { data = decodeBody(file); } catch (e) { continue; }
      const vs = [data];
      if (indexOf(data, CRLF) >= 0) vs.push(replaceAll(data, CRLF, LF));
      const cs = charsetOf(file);
      if (!isUTF8Label(cs)) {
        try {
          const t = enc.encode(decodeText(data, cs));
          vs.push(t);
          if (indexOf(t, CRLF) >= 0) vs.push(replaceAll(t, CRLF, LF));
        } catch (e) { /* as verify: only bytes the signature covers come back */ }
      }
      for (const v of vs) {
        const r = await verifyOver(sp, v, c, at);
        if (r) return Object.assign(r, { form: "detached", covered: v, signed: v, charset: unsignedCharset(v) });
      }
    }
    return no("the detached signature verifies over no part of the mail (bad-signature)");
  }
  const BEGIN = "-----BEGIN PGP SIGNED MESSAGE-----", SIGBEGIN = "-----BEGIN PGP SIGNATURE-----";
  // clearsigned checks a text that must be one gpg --clearsign block with
  // only whitespace around it, as verify's clearsigned and go-crypto's
  // clearsign.Decode read it.
  async function clearsigned(body, c, at) {
    const text = latin1(body);
    const starts = (m) => text.split("\n").filter((l) => l.startsWith(m)).length;
    if (starts(BEGIN) !== 1) no(starts(BEGIN) ? "more than one cleartext-signed block" : "no cleartext-signed block");
    if (!text.replace(/^[ \t\r\n]+/, "").startsWith(BEGIN)) no("text before the cleartext-signed block");
    if (starts(SIGBEGIN) !== 1) no("not one signature block");
    const ls = text.replace(/^[ \t\r\n]+/, "").split("\n").map((l) => l.replace(/\r$/, ""));
    if (ls[0] !== BEGIN) no("text after the BEGIN line");
    let i = 1;
    const hashes = [];
    for (; i < ls.length && ls[i].trim() !== ""; i++) {
      const m = /^\s*Hash\s*:(.*)$/.exec(ls[i]);
      if (!m || /[^\x20-\x7e]/.test(ls[i])) no("an armor header other than Hash");
      hashes.push(...m[1].split(",").map((h) => h.trim().toUpperCase()));
    }
    const plain = [];
    for (i++; i < ls.length && ls[i] !== SIGBEGIN; i++) {
      if (ls[i].startsWith("-") && !ls[i].startsWith("- ")) no("a cleartext line starts with an unescaped dash");
      plain.push((ls[i].startsWith("- ") ? ls[i].slice(2) : ls[i]).replace(/[ \t]+$/, ""));
    }
    if (i >= ls.length) no("no signature block");
    const sigText = ls.slice(i).join("\n");
    const end = sigText.indexOf("-----END PGP SIGNATURE-----");
    if (end < 0 || sigText.slice(end + 27).trim() !== "") no("text after the cleartext-signed block");
    const sp = await one(bytesOf(sigText.slice(0, end + 27)));
    if (hashes.some((h) => h !== HASH_NAMES[sp.sig.hash])) no("the Hash: header is not the signature's hash");
    const covered = bytesOf(plain.join("\r\n")), signed = bytesOf(plain.join("\n"));
    const r = await firstOver(sp, [covered], c, at);
    return Object.assign(r, { form: "clearsigned", signed, charset: unsignedCharset(signed) });
  }
  async function mail(raw, c, at) {
    const root = parse(raw, 0);
    if (root.type === "multipart/signed") return pgpMIME(root, c, at);
    if (root.type === "multipart/mixed") return detached(root, c, at);
    if (root.type !== "text/plain") no("the mail is " + root.type + ", none of the signed forms");
    const body = decodeBody(root), cs = charsetOf(root);
    try {
      return await clearsigned(body, c, at);
    } catch (e) {
      if (!(e instanceof Refused) || !/bad-signature/.test(e.message) || isUTF8Label(cs)) throw e;
      return clearsigned(enc.encode(decodeText(body, cs)), c, at);
    }
  }

  // --- the log's signed records ---
  function seconds(s) {
    const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(s || "");
    if (!m) return NaN;
    return Date.parse(m[1] + m[3]) / 1000 + (m[2] ? Number("0" + m[2]) : 0);
  }
  // signedOf gives what a record claims was signed, or null for a record
  // that carries no signature verify checks.
  function signedOf(r) {
    const d = r.data;
    if (r.type === "OrdersAccepted") return d.source === "unsigned" ? null : Object.assign({ side: d.side }, d);
    if (r.type === "RefereeMail") return Object.assign({ side: "referee", source: d.source || "mail" }, d);
    if (r.type === "PlayerMail") return ((!d.raw && d.source !== "file") || d.text_bytes) ? null : Object.assign({}, d);
    return null;
  }
  async function record(r, who, certs) {
    const d = signedOf(r);
    if (!d) return false;
    const p = who[d.side] || differs("orders of an unknown side " + d.side);
    if (!certs.has(p.key)) certs.set(p.key, cert(p.key).catch((e) => e));
    const c = await certs.get(p.key);
    if (c instanceof Error) throw c;
    const at = seconds(r.time);
    const raw = d.raw ? base64(d.raw) : new Uint8Array(0);
    let got;
    if (d.source === "mail") got = await mail(raw, c, at);
    else if (!d.signature) got = await clearsigned(raw, c, at);
    else {
      const signed = enc.encode(d.text);
      got = Object.assign(await firstOver(await one(enc.encode(d.signature), false), [signed], c, at), { signed, charset: "" });
    }
    let text;
    if (d.charset) {
      if (d.charset.toLowerCase() !== got.charset.toLowerCase()) differs("the orders were decoded from " + d.charset + ", but the signed message is read as " + JSON.stringify(got.charset));
      text = decodeText(got.signed, got.charset);
    } else {
      try { text = utf8.decode(got.signed); } catch (e) { text = null; }
    }
    if (text !== d.text) differs("the recorded text is not what the signed message holds");
    if (got.fingerprint !== d.fingerprint) differs("the recorded signer " + d.fingerprint + " is not the key that signed, " + got.fingerprint);
    const key = /^sig1:/.test(d.key) ? got.identity : got.packet;
    if (key !== d.key) differs("the recorded message identity is not the signature's");
    if (d.sig_time && seconds(d.sig_time) !== got.created) differs("the recorded signature time is not the signature's");
    return got;
  }
  // standIn says whether the registered keys are stand-ins that sign
  // nothing (the scripted players of the test logs), not OpenPGP keys.
  const standIn = (who) => Object.values(who).every((p) => !/-----BEGIN PGP PUBLIC KEY BLOCK-----/.test(p.key || ""));

  // all checks every signed record of the log in order; it returns how
  // many it checked, or a sentence saying why it checked none. A failure
  // is thrown as fail(record, why).
  async function all(recs, fail) {
    const who = {}, certs = new Map();
    const created = recs[0].data;
    for (const p of created.players || []) who[p.side] = p;
    if (created.referee) who.referee = created.referee;
    if (standIn(who)) return "the players' registered keys are stand-ins, not OpenPGP keys: nothing was signed";
    let n = 0;
    for (const r of recs) {
      if (r.type === "SideChanged") who[r.data.player.side] = r.data.player;
      try {
        if (await record(r, who, certs)) n++;
      } catch (e) {
        if (e instanceof Mismatch) fail(r, e.message);
        if (e instanceof Refused || e instanceof DOMException || e instanceof TypeError || e instanceof RangeError) fail(r, "the signature does not verify: " + e.message);
        throw e;
      }
    }
    return n;
  }
  return { all, record, mail, cert, canonicalText, canonicalCRLF, parse, decodeBody, quotedPrintable, decodeText, seconds };
})();
