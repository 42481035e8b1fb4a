"use strict";
// The maps: MAPS[i] is map i as stored (see mapframes.go): either the
// whole map (p, a PNG), or its size (w, h), the rows it copies from an
// earlier map (b, runs r of {y, n, from}) and the parts where other pixels
// are (c, {x, y, w, h}), stacked in the PNG, transparent where the rows
// gave the pixel. A map is rebuilt
// on a canvas when its phase is shown (the next phase's are rebuilt
// ahead), and the few last rebuilt are kept for the next phase's maps,
// which copy from them.
const mapPictures = (function () {
  const KEEP = 8;
  const kept = new Map(); // index -> promise of its canvas, oldest first
  async function decode(b64) {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    return img;
  }
  async function rebuild(i) {
    const m = MAPS[i];
    const base = m.b >= 0 ? picture(m.b) : null;
    const img = await decode(m.p);
    const c = document.createElement("canvas");
    c.width = base ? m.w : img.naturalWidth;
    c.height = base ? m.h : img.naturalHeight;
    const ctx = c.getContext("2d");
    if (!base) {
      ctx.drawImage(img, 0, 0);
      return c;
    }
    const b = await base;
    const w = Math.min(c.width, b.width);
    for (const [y, n, from] of m.r || []) ctx.drawImage(b, 0, from, w, n, 0, y, w, n);
    let sy = 0;
    for (const [x, y, pw, ph] of m.c || []) {
      ctx.drawImage(img, 0, sy, pw, ph, x, y, pw, ph);
      sy += ph;
    }
    return c;
  }
  // picture returns (a promise of) map i rebuilt on a canvas of its own.
  function picture(i) {
    let p = kept.get(i);
    if (p) kept.delete(i);
    else p = rebuild(i);
    kept.set(i, p);
    while (kept.size > KEEP) kept.delete(kept.keys().next().value);
    return p;
  }
  // show draws the maps of a section onto its canvases, unless the
  // section is hidden again meanwhile; once painted it marks the section
  // drawn (and how long it took, in ms), then ahead once the next
  // section's maps are rebuilt.
  async function show(section) {
    const t0 = performance.now();
    for (const cv of section.querySelectorAll("canvas.map")) {
      if (cv.dataset.drawn) continue;
      const c = await picture(Number(cv.dataset.map));
      if (section.hidden) return;
      if (c.isConnected) { // the same map shown twice here: a copy
        cv.width = c.width;
        cv.height = c.height;
        cv.getContext("2d").drawImage(c, 0, 0);
        cv.dataset.drawn = "yes";
        continue;
      }
      // The rebuilt canvas itself takes the placeholder's place (no copy),
      // until the section is hidden.
      c.className = cv.className;
      c.dataset.map = cv.dataset.map;
      c.dataset.drawn = "yes";
      c.setAttribute("role", "img");
      c.setAttribute("aria-label", cv.getAttribute("aria-label"));
      c.placeholder = cv;
      cv.replaceWith(c);
    }
    await new Promise(requestAnimationFrame); // painted
    if (section.hidden) return;
    section.dataset.drawn = "yes";
    section.dataset.ms = String(Math.round(performance.now() - t0));
    // The next phase's maps, rebuilt ahead while the player reads.
    const next = section.nextElementSibling;
    const ahead = next ? Array.from(next.querySelectorAll("canvas.map"), (cv) => picture(Number(cv.dataset.map))) : [];
    await Promise.all(ahead);
    section.dataset.ahead = "yes";
  }
  // hide lets go of a hidden section's pictures.
  function hide(section) {
    for (const cv of section.querySelectorAll("canvas.map")) {
      delete cv.dataset.drawn;
      if (cv.placeholder) {
        cv.replaceWith(cv.placeholder);
        cv.placeholder = null;
        continue;
      }
      cv.width = 0;
      cv.height = 0;
    }
    delete section.dataset.drawn;
    delete section.dataset.ms;
    delete section.dataset.ahead;
  }
  return { show, hide, picture };
})();
