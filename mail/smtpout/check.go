package smtpout

import (
	"context"
	"fmt"
)

// Check connects, secures the connection as configured, authenticates
// (when a username is set) and quits, sending nothing: for `skagerrak
// config check --connect`. It makes one attempt.
func (s *Sender) Check(ctx context.Context) error {
	if err := s.attempt(ctx, s.cfg.From, nil, nil); err != nil {
		if f, ok := err.(*fatalError); ok {
			return f.err
		}
		return fmt.Errorf("smtpout: check %s: %w", s.cfg.Addr, err)
	}
	return nil
}
