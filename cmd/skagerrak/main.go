// Command skagerrak is a play-by-email adjudicator for board wargames of the
// 1940 Norwegian campaign. See README.md, or run `skagerrak help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := NewMain().Run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}
