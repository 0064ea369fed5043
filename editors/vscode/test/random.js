// SplitMix64, the project's one seeded generator (Sources/Seeded/SplitMix64.swift), in
// JavaScript with BigInt, so a seed printed by a failing test replays it.
'use strict';

const mask = (1n << 64n) - 1n;

class SplitMix64 {
  constructor(seed) { this.state = BigInt(seed) & mask; }

  /** The next 64 random bits, as a non-negative Number below 2^53 (the low bits are dropped). */
  next() {
    this.state = (this.state + 0x9E3779B97F4A7C15n) & mask;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & mask;
    return Number((z ^ (z >> 31n)) >> 11n);
  }
}

module.exports = { SplitMix64 };
