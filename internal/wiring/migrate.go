package wiring

import (
	"context"
	"fmt"
	"io"

	"skagerrak/config"
	"skagerrak/events/pgstore"
)

// Migrate creates or upgrades the schema of the configured PostgreSQL
// store (store migrate), granting each role in grant what a daemon needs,
// and says to w what it did.
func Migrate(ctx context.Context, w io.Writer, c *config.Config, grant []string) error {
	if c.IsFileStore() {
		return fmt.Errorf("store migrate: the store is %q (files under %s), which has no schema; set store: to a postgres:// URL", c.Store, c.DataDir)
	}
	mg, err := pgstore.Migrate(ctx, c.Store, StoreOptions(c), grant)
	if err != nil {
		return err
	}
	if mg.From == mg.To {
		fmt.Fprintf(w, "%s: schema at version %d, nothing to do\n", pgstore.Redact(c.Store), mg.To)
	} else {
		fmt.Fprintf(w, "%s: schema migrated from version %d to %d\n", pgstore.Redact(c.Store), mg.From, mg.To)
	}
	for _, r := range mg.Granted {
		fmt.Fprintf(w, "granted the daemon's privileges to role %s\n", r)
	}
	return nil
}
