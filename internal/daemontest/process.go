package daemontest

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Senders is how many games a test daemon sends mail of at once:
// each may have one mail accepted by the server and not yet marked sent.
const Senders = 4

// SignalContext is a context that SIGTERM cancels: a helper process's
// daemon stops on it as the binary's does.
func SignalContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM)
	go func() {
		<-ch
		cancel()
	}()
	return ctx, cancel
}
