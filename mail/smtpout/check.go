package smtpout

import (
	"context"
	"errors"
	"fmt"
)

// Check connects, secures the connection as configured, authenticates
// (when a username is set) and quits, sending nothing: for `skagerrak
// config check --connect`. It makes one attempt.
func (s *Sender) Check(ctx context.Context) error {
	if err := s.attempt(ctx, s.cfg.From, nil, nil); err != nil {
		var f *fatalError
		if errors.As(err, &f) {
			return f.err
		}
		return fmt.Errorf("smtpout: check %s: %w", s.cfg.Addr, err)
	}
	return nil
}
