// Package replaylogs holds the end-to-end tests of the replay page on the
// finished games kept for every ruleset revision, under
// cmd/skagerrak/testdata/logs: each page, opened in headless Chromium, verifies its log record
// for record as skagerrak verify does, and a manual-dice game's says it
// did not derive the rolls. They skip loudly without Chromium and fail
// under SKAGERRAK_INTEROP=1. The replay of a game played by the demo is
// in e2e/replaypage.
package replaylogs
