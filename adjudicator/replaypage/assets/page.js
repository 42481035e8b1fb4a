"use strict";
// Stepping through the phases.
(function () {
  const sections = Array.from(document.querySelectorAll("section.phase"));
  const links = Array.from(document.querySelectorAll("#list a"));
  const slider = document.getElementById("slider");
  const where = document.getElementById("where");
  let cur = -1;
  function show(i) {
    i = Math.max(0, Math.min(sections.length - 1, i));
    if (i === cur) return;
    if (cur >= 0) { sections[cur].hidden = true; links[cur].classList.remove("on"); }
    cur = i;
    const s = sections[i];
    for (const img of s.querySelectorAll("img.map:not([src])")) {
      img.src = "data:image/png;base64," + MAPS[Number(img.dataset.map)];
    }
    s.hidden = false;
    links[i].classList.add("on");
    slider.value = String(i);
    where.textContent = (i + 1) + " of " + sections.length + ": " + s.dataset.id;
    document.body.dataset.phase = s.dataset.id;
  }
  document.getElementById("prev").onclick = () => show(cur - 1);
  document.getElementById("next").onclick = () => show(cur + 1);
  slider.oninput = () => show(Number(slider.value));
  for (const a of links) a.onclick = (e) => { e.preventDefault(); show(Number(a.dataset.i)); };
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range" && e.target.type !== "checkbox") return;
    if (e.key === "ArrowLeft") { e.preventDefault(); show(cur - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); show(cur + 1); }
  });
  // One map at a time: clicking a side's name shows that side's map.
  let side = 0;
  function pick() {
    for (const v of document.querySelectorAll(".views")) {
      v.querySelectorAll("figure").forEach((f, j) => f.classList.toggle("shown", j === side));
    }
  }
  document.getElementById("one").onchange = (e) => { document.body.classList.toggle("one", e.target.checked); pick(); };
  document.querySelectorAll("figcaption").forEach((c) => c.onclick = () => {
    const figs = Array.from(c.closest(".views").children);
    side = (figs.indexOf(c.parentElement) + 1) % figs.length;
    pick();
  });
  slider.max = String(sections.length - 1);
  const m = /^#p(\d+)$/.exec(location.hash);
  show(m ? Number(m[1]) : 0);
})();

// Checking the log: the hash chain, the dice commitment and every roll.
const verifier = (function () {
  const enc = new TextEncoder();
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  function unhex(s) {
    const b = new Uint8Array(s.length / 2);
    for (let i = 0; i < b.length; i++) b[i] = parseInt(s.substr(2 * i, 2), 16);
    return b;
  }
  function concat(...parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) { out.set(p, o); o += p.length; }
    return out;
  }
  const sha256 = async (b) => new Uint8Array(await crypto.subtle.digest("SHA-256", b));
  class Bad extends Error {
    constructor(seq, type, why) { super("record " + seq + (type ? " (" + type + ")" : "") + ": " + why); this.seq = seq; }
  }
  const ZERO = "0".repeat(64);
  const TAIL = /^,"hash":"([0-9a-f]{64})"\}$/;

  // chain checks every record's seq, link and hash; it returns the records.
  async function chain(bytes) {
    const dec = new TextDecoder("utf-8", { fatal: true });
    const recs = [];
    let prev = ZERO, start = 0;
    while (start < bytes.length) {
      const nl = bytes.indexOf(10, start);
      const seq = recs.length + 1;
      if (nl < 0) throw new Bad(seq, "", "the log ends in an incomplete record");
      const line = bytes.subarray(start, nl);
      start = nl + 1;
      let rec;
      try { rec = JSON.parse(dec.decode(line)); } catch (e) { throw new Bad(seq, "", "the record is not JSON"); }
      const tail = line.length >= 75 ? TAIL.exec(dec.decode(line.subarray(line.length - 75))) : null;
      if (!tail) throw new Bad(seq, rec.type, "the record does not end in its hash");
      if (rec.seq !== seq) throw new Bad(seq, rec.type, "it says it is record " + rec.seq);
      if (rec.prev !== prev) throw new Bad(seq, rec.type, "it does not name the hash of the record before");
      const canonical = concat(line.subarray(0, line.length - 75), enc.encode("}"));
      if (hex(await sha256(concat(unhex(prev), canonical))) !== tail[1]) {
        throw new Bad(seq, rec.type, "its hash does not match its content: the record was changed");
      }
      prev = tail[1];
      recs.push(rec);
    }
    return recs;
  }

  async function seed(secret, game, phase, digest) {
    const k = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const msg = concat(enc.encode(game), new Uint8Array([0]), enc.encode(phase), new Uint8Array([0]), digest);
    return new Uint8Array(await crypto.subtle.sign("HMAC", k, msg));
  }

  async function checkRolls(rng, rolls, seq, type, what) {
    rolls.forEach((r, i) => {
      const got = rollDie(rng, r.sides);
      if (got !== r.value) {
        throw new Bad(seq, type, what + " roll " + (i + 1) + " (" + (r.why || "") + ") is " + r.value + " in the log, but the committed dice give " + got);
      }
    });
    return rolls.length;
  }

  // dice checks the commitment and re-derives every roll; it returns
  // how many rolls it checked, or a sentence saying why it checked none.
  async function dice(recs) {
    const created = recs[0].data, ended = recs.find((r) => r.type === "GameEnded");
    if (!ended) return "the dice secret is published when the game ends";
    const secret = unhex(ended.data.secret);
    if (hex(await sha256(secret)) !== created.secret_commitment) {
      throw new Bad(ended.seq, ended.type, "the published dice secret does not match the commitment of record 1");
    }
    if (created.dice === "manual") return "the dice were supplied by hand (manual dice): skagerrak verify checks them";
    let n = await checkRolls(new ChaCha8(await seed(secret, created.game, "setup", new Uint8Array(32))), created.setup_rolls || [], 1, "GameCreated", "set-up");
    for (const r of recs) {
      if (r.type !== "PhaseResolved") continue;
      const rng = new ChaCha8(await seed(secret, created.game, r.data.phase, unhex(r.data.orders_digest)));
      n += await checkRolls(rng, r.data.rolls || [], r.seq, r.type, "phase " + r.data.phase + ":");
    }
    return n;
  }

  // ordersDigests checks, for every phase resolved with each side's own
  // orders, that the digest which seeded its dice is that of the orders
  // the log accepted (the last of each side owing orders); it returns how
  // many phases it checked and how many it could not (default orders,
  // which only the rules can write out).
  async function ordersDigests(recs) {
    let owes = [], orders = {}, checked = 0, defaulted = 0;
    for (const r of recs) {
      if (r.type === "PhaseOpened") { owes = r.data.owes || []; orders = {}; }
      if (r.type === "OrdersAccepted") orders[r.data.side] = r.data.text;
      if (r.type !== "PhaseResolved") continue;
      if ((r.data.defaulted || []).length > 0) { defaulted++; continue; }
      const parts = [];
      for (const side of [...owes].sort()) {
        const text = enc.encode(orders[side] || "");
        parts.push(enc.encode(enc.encode(side).length + ":" + side + text.length + ":"), text);
      }
      if (hex(await sha256(concat(...parts))) !== r.data.orders_digest) {
        throw new Bad(r.seq, r.type, "the orders the log accepted for phase " + r.data.phase + " are not those whose digest seeded its dice");
      }
      checked++;
    }
    return { checked, defaulted };
  }

  // shown checks that the rolls this page shows are the log's.
  function shown(recs) {
    const bySeq = new Map(recs.map((r) => [r.seq, r]));
    for (const s of document.querySelectorAll("section.phase[data-seq]")) {
      const seq = Number(s.dataset.seq || 0);
      const r = seq ? bySeq.get(seq) : recs[0];
      if (!r) continue;
      const logged = (seq ? r.data.rolls : r.data.setup_rolls) || [];
      const vals = Array.from(s.querySelectorAll("table.rolls td.v"), (td) => Number(td.textContent));
      if (vals.length !== logged.length || vals.some((v, i) => v !== logged[i].value)) {
        throw new Bad(r.seq, r.type, "the rolls this page shows for phase " + s.dataset.id + " are not the log's");
      }
    }
  }

  async function run(b64) {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const recs = await chain(bytes);
    if (recs.length === 0 || recs[0].type !== "GameCreated") throw new Bad(1, "", "the log does not begin with GameCreated");
    // Each check stops at its first failure; the page names the first
    // record any of them fails.
    const fails = [];
    const attempt = async (check) => {
      try { return await check(); } catch (e) { if (!(e instanceof Bad)) throw e; fails.push(e); }
    };
    const digests = await attempt(() => ordersDigests(recs));
    const rolls = await attempt(() => dice(recs));
    await attempt(() => shown(recs));
    const signatures = await attempt(() => openpgp.all(recs, (r, why) => { throw new Bad(r.seq, r.type, why); }));
    if (fails.length) throw fails.reduce((a, b) => (b.seq < a.seq ? b : a));
    return { records: recs.length, rolls, digests, signatures };
  }
  return { run };
})();

(async function () {
  const box = document.getElementById("verify");
  if (!LOG) return;
  const t0 = performance.now();
  try {
    const r = await verifier.run(LOG);
    const rolls = typeof r.rolls === "number" ? r.rolls + " rolls" : "rolls not checked (" + r.rolls + ")";
    box.className = "ok";
    const sigs = typeof r.signatures === "number" ? r.signatures + (r.signatures === 1 ? " signature" : " signatures") : "signatures not checked (" + r.signatures + ")";
    box.textContent = "verified: " + r.records + " records, " + sigs + ", " + rolls +
      " (the hash chain, every player signature against the key the log registered, the dice commitment and every roll re-derived from the published secret, in this page); " +
      "the orders of " + r.digests.checked + " phases are those whose digest seeded their dice" +
      (r.digests.defaulted ? " (" + r.digests.defaulted + " phases with default orders not checked here)" : "") + ". " +
      "Not checked in this page: the rules' resolutions; run skagerrak verify on the log for those.";
    document.body.dataset.verified = "yes";
  } catch (e) {
    box.className = "bad";
    box.textContent = "NOT VERIFIED: " + e.message;
    document.body.dataset.verified = "no";
    if (e.seq) document.body.dataset.badRecord = String(e.seq);
  }
  document.body.dataset.verifyMs = String(Math.round(performance.now() - t0));
})();
