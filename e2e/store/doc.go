// Package store holds the end-to-end tests of where a host keeps its
// games: every checked-in game imported into PostgreSQL and exported byte
// for byte (skagerrak store migrate, import, export, verify), a log that
// does not verify refused, and a game moved from files to PostgreSQL and
// back. They run the built binary with the test rulesets
// (binarytest.MainTestRules) on private PostgreSQL clusters (pgtest).
package store
