// Command skagerrak is a play-by-email adjudicator for board wargames of the
// 1940 Norwegian campaign. See README.md, or run `skagerrak help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(runMain()) }

// runMain runs the program on the process's arguments until it ends or is
// told to stop (SIGINT, SIGTERM), and returns the exit status.
func runMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return NewMain().Run(ctx, os.Args[1:])
}
