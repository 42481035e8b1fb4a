// Package gamelog is a game's log as the commands that read it see it,
// outside the daemon: found by path or in the configured store and read
// without writing (Open, Stored; a daemon may hold the game meanwhile),
// printed a record a line (Print), a side's report found in it
// (SideReport), exported as the file store keeps it (Write, ExportDir),
// and imported into a PostgreSQL store once it verifies (ImportPaths,
// Import).
package gamelog
