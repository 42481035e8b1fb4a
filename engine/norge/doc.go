// Package norge is the ruleset of "Norge: the first battle between the
// Germans and the Allies": a strategic hex map for naval and air units, six
// tactical hex maps and four mini maps for land units, 10 turns, secret
// submarine positions and convoy contents.
package norge
