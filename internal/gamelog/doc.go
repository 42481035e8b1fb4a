// Package gamelog is a game's log as the commands that read it see it,
// outside the daemon: found by path or in the configured store and read
// without writing (Open, Stored; a daemon may hold the game meanwhile),
// printed a record a line (Print), a side's report found in it and
// printed (SideReport, PrintReport), exported as the file store keeps it
// (Export, Write, ExportDir), and imported into a PostgreSQL store once
// it verifies (ImportAll, ImportPaths, Import).
package gamelog
