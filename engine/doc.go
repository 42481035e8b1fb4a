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
//
// # Adding a ruleset
//
// A ruleset is a package engine/<name>, named as its Name (the tests
// look there for the tests its rules listing names). Inside it:
//
//   - its State, View and Orders types and the TypedBook functions
//     around them, registered in an init function:
//     func init() { engine.Register(Ruleset{}) }, where Ruleset embeds
//     engine.Book (ruleset.go in each rulebook);
//   - its data pack, data/ (a Pack): data/rules.txt gives every section's
//     status and the tests that show it;
//   - its verbs: the table in verbs.go (Verbs: name, aliases, rule, usage,
//     arguments, phases, example), which the guide and order forms print,
//     and one parse function a verb in orderverbs.go, bound by a Driver;
//   - a scripted player (Play), which the demo, the golden mails and the
//     whole-game tests play with;
//   - a test that runs enginetest.Conformance on it.
//
// Outside its folder, one line registers it everywhere: its import in
// engine/rulesets/rulesets.go, which the command and every test that
// walks the registered rulesets import (TestEveryRulesetFolderIsImported
// names a folder missing there). Then its test data, which the tests ask
// for by name when it is missing: its golden mails
// (go test ./adjudicator -run Golden -update writes
// adjudicator/testdata/golden/<name> and its line of the render-revision
// stamp), and a finished demo game of each revision under
// cmd/skagerrak/testdata/logs (see the README there). README's table of
// games lists it.
package engine
