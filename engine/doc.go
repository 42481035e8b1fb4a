// Package engine is the rules-engine core of skagerrak: the contract every
// ruleset implements (Ruleset), the deterministic dice (Dice), and helpers
// that every rulebook needs (hex grids, area graphs, dice tables).
//
// The engine is pure. It does no I/O, reads no clock, starts no goroutines
// and never depends on map iteration order. Given the same state, orders and
// dice, a ruleset returns byte-for-byte the same next state. Packages under
// engine/<game> implement one rulebook each and import only this package.
//
// A ruleset plugs in by writing its functions against its own types, its
// state, a side's view and a side's orders (TypedRules; TypedBook for a
// full rulebook with reports, maps and a rules listing), and registering
// the adapter around them (Typed, Book), which implements Ruleset and the
// optional interfaces: the JSON decoding and every type check happen
// there, once. A rulebook builds its map once (DrawMap, a Drawing such as
// a picture.HexMap), and Book both draws it (Picture) and digests it
// (MapDigest) from that. Its data files are read through a Pack from its
// embedded data/ folder, the rules listing from data/rules.txt.
//
// A ruleset builds on a small kit: its fog-of-war record is a Journal of
// entries that each say which sides see them (a View takes the entries For
// its side); its turn is a Sequence of stages (name, order-table kind,
// title, who owes orders); and what each rules revision changed is a named
// Change, which the code asks for (rev.Has(change)) and the revision list
// is built from (RevisionsOf). Small shared pieces live here too rather
// than in each ruleset: SortedKeys and SortedHexes (walking a map in a
// fixed order), Find, Queue (the path searches' priority queue),
// Phase.Awaits and WithoutFailed (a scripted player's orders less the
// lines the parser refused).
package engine
