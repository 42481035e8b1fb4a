package imapbox

import (
	"context"
	"testing"

	"skagerrak/mail/loopback"
)

// BenchmarkFetch1000 fetches 1,000 small messages (about 250 bytes each)
// from the in-memory server over loopback in one Fetch (search, sizes,
// bodies).
func BenchmarkFetch1000(b *testing.B) {
	srv := startServer(b, loopback.IMAPOptions{})
	appendN(b, srv, 1, 1000)
	cfg := testConfig(b, srv, b.TempDir())
	cfg.MaxFetch = 1000
	box := open(b, cfg)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		got, err := box.Fetch(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != 1000 {
			b.Fatalf("fetched %d messages, want 1000", len(got))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "µs/msg")
}
