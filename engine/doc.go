// Package engine is the rules-engine core of skagerrak: the contract every
// ruleset implements (Ruleset), the deterministic dice (Dice), and helpers
// that every rulebook needs (hex grids, area graphs, dice tables).
//
// The engine is pure. It does no I/O, reads no clock, starts no goroutines
// and never depends on map iteration order. Given the same state, orders and
// dice, a ruleset returns byte-for-byte the same next state. Packages under
// engine/<game> implement one rulebook each and import only this package.
package engine
