// ChaCha8Rand, the generator of Go's math/rand/v2 ChaCha8, written after
// its specification (C2SP chacha8rand): four ChaCha8 blocks at a time with
// the key added back to words 4-11 only, words interleaved by block, and a
// new key taken from the last four words of every sixteenth block.
"use strict";

function chacha8Block(key, out, counter) {
  const x = new Uint32Array(16);
  const rotl = (v, n) => ((v << n) | (v >>> (32 - n))) >>> 0;
  const qr = (a, b, c, d) => {
    x[a] = (x[a] + x[b]) >>> 0; x[d] = rotl(x[d] ^ x[a], 16);
    x[c] = (x[c] + x[d]) >>> 0; x[b] = rotl(x[b] ^ x[c], 12);
    x[a] = (x[a] + x[b]) >>> 0; x[d] = rotl(x[d] ^ x[a], 8);
    x[c] = (x[c] + x[d]) >>> 0; x[b] = rotl(x[b] ^ x[c], 7);
  };
  for (let lane = 0; lane < 4; lane++) {
    x.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
    x.set(key, 4);
    x[12] = (counter + lane) >>> 0;
    x[13] = 0; x[14] = 0; x[15] = 0;
    for (let r = 0; r < 4; r++) {
      qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
      qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
    }
    for (let j = 0; j < 16; j++) {
      out[j * 4 + lane] = j >= 4 && j < 12 ? (x[j] + key[j - 4]) >>> 0 : x[j];
    }
  }
}

class ChaCha8 {
  // seed: 32 bytes.
  constructor(seed) {
    const dv = new DataView(seed.buffer, seed.byteOffset, 32);
    this.key = new Uint32Array(8);
    for (let i = 0; i < 8; i++) this.key[i] = dv.getUint32(4 * i, true);
    this.buf = new Uint32Array(64);
    this.c = 0;
    this.i = 0;
    this.n = 32;
    chacha8Block(this.key, this.buf, 0);
  }
  // uint64 returns the next 64 bits as a BigInt.
  uint64() {
    while (this.i >= this.n) this.refill();
    const k = this.i++;
    return BigInt(this.buf[2 * k]) | (BigInt(this.buf[2 * k + 1]) << 32n);
  }
  refill() {
    this.c += 4;
    if (this.c === 16) {
      this.key = this.buf.slice(56, 64);
      this.c = 0;
    }
    chacha8Block(this.key, this.buf, this.c);
    this.i = 0;
    this.n = this.c === 12 ? 28 : 32;
  }
}

const U64MAX = (1n << 64n) - 1n;

// rollDie is engine.SeededDice.Roll: rejection sampling on the raw output.
function rollDie(rng, sides) {
  const n = BigInt(sides);
  const limit = U64MAX - (U64MAX % n);
  let v;
  do { v = rng.uint64(); } while (v >= limit);
  return Number(v % n) + 1;
}
