package events_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"skagerrak/events"
)

// The example log is generated once with
//
//	go test ./events -run TestGoldenLog -update-golden
//
// and then frozen: the test replays it every run, hash by hash, so that the
// record format cannot drift silently. Regenerating it changes the hashes
// below, which is the point: a format change must be deliberate.
var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/v1-example.jsonl")

const goldenPath = "testdata/v1-example.jsonl"

// goldenHashes are the hashes of the records of testdata/v1-example.jsonl.
var goldenHashes = []string{
	"e7db8aa49dce9618e4af840d7e72e2c5cf51863584e4b3048b9ca5eaa7ab0bc3",
	"57d79f0ef87eba19e7b37bc42bf4f1740f4856f99291dac24d6e177cae050c53",
	"02056740943e79537c7e12d3811eeae68a7c1fbc030f3add66dbf3b56662fcc7",
	"651000d7959c1f98d197bef882f23b89bee30c8162ffe3b2355c02b06435fd9d",
	"130afa6583ad23ba0c0068b3d8d5f7a6eaf39b26c6a67d50860e941bfe3627d7",
	"0cb2588d6168cbe257d5a26b99e804573facf950dc27e6bfec2a75f0443b68da",
	"d7c3787521d9d71e7d734831186b91e05e8f9a9417938333c2e1338644233e9b",
	"2a7972ef3c9869db36b2050385c26ea6a50b5a407991fe5cbe002298918ada35",
	"130264c54896835385e5ea91643b51959b8930d131005070a0e00645e7612237",
	"0a5e8c3ba31c2cd836b483a83de6d37990186a209825c3edeb6df550c7f3287b",
}

type goldenEvent struct {
	typ  string
	at   time.Time
	data any
}

// goldenEvents is the content of the example log.
func goldenEvents() []goldenEvent {
	at := func(day, hour, min, sec, nsec int) time.Time {
		return time.Date(1940, time.April, day, hour, min, sec, nsec, time.UTC)
	}
	type line struct {
		Line int    `json:"line"`
		Text string `json:"text"`
	}
	return []goldenEvent{
		{"GameCreated", at(7, 18, 0, 0, 0), map[string]any{
			"game": "weserubung-1", "ruleset": "norway-1940", "sides": []string{"British", "German"},
			"dice": "seeded", "secret_sha256": "5d41402abc4b2a76b9719d911017c592ae8a9f1c5d2e7d4b6e5c3a1f0e9d8c7b",
		}},
		{"SideRegistered", at(7, 18, 5, 12, 0), map[string]string{
			"side": "British", "address": "admiralty@example.org", "fingerprint": "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678",
		}},
		{"SideRegistered", at(7, 18, 6, 40, 250000000), map[string]string{
			"side": "German", "address": "skl@example.net", "fingerprint": "0F1E2D3C4B5A69788796A5B4C3D2E1F00F1E2D3C",
		}},
		{"PhaseOpened", at(8, 0, 0, 0, 0), map[string]any{
			"phase": "1940-04-08/1", "owes": []string{"British", "German"}, "deadline": "1940-04-09T00:00:00Z",
		}},
		{"OrdersAccepted", at(8, 9, 14, 3, 123456789), map[string]any{
			"phase": "1940-04-08/1", "side": "German",
			"key":   "9c1185a5c5e9fc54612808977ee8f548b2258d31e2c6a9d3f2b1a0e9d8c7b6a5",
			"lines": []string{"Gneisenau, Scharnhorst: move 0412 -> 0311", "Gruppe 3 (Hipper): move to Trondheim & land"},
		}},
		{"OrdersRejected", at(8, 10, 2, 59, 0), map[string]any{
			"phase": "1940-04-08/1", "side": "British",
			"key":    "1f2e3d4c5b6a79880f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978",
			"errors": []line{{3, "Renown: unknown area \"Vestfjord<\""}, {5, "Glowworm: cannot search twice"}},
		}},
		{"OrdersAccepted", at(8, 11, 30, 0, 0), map[string]any{
			"phase": "1940-04-08/1", "side": "British",
			"key":   "2a3b4c5d6e7f80910a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f50617",
			"lines": []string{"Renown: move to Vestfjord", "Glowworm: search 0412", "Home Fleet: stand by Ålesund — Kristiansand"},
		}},
		{"PhaseResolved", at(9, 0, 0, 0, 1), map[string]any{
			"phase": "1940-04-08/1", "dice_used": 4, "nmr": []string{},
			"state_digest": "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00",
		}},
		{"ReportQueued", at(9, 0, 0, 0, 2), map[string]string{
			"side": "British", "message_id": "<phase-1940-04-08-1.british@skagerrak.example>",
		}},
		{"ReportSent", at(9, 0, 0, 3, 0), map[string]string{
			"side": "British", "message_id": "<phase-1940-04-08-1.british@skagerrak.example>",
		}},
	}
}

// buildGolden encodes goldenEvents as a log file.
func buildGolden(t *testing.T) []byte {
	t.Helper()
	m := events.NewMemLog()
	for _, g := range goldenEvents() {
		if _, err := m.Append(g.typ, g.at, g.data); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// independentHash computes a record's hash from the rule in the package
// documentation alone: sha256(raw(prev) || line minus its last 75 bytes,
// plus "}").
func independentHash(t *testing.T, line []byte) string {
	t.Helper()
	line = bytes.TrimSuffix(line, []byte("\n"))
	var rec struct {
		Prev string `json:"prev"`
	}
	if err := json.Unmarshal(line, &rec); err != nil {
		t.Fatal(err)
	}
	prev, err := hex.DecodeString(rec.Prev)
	if err != nil || len(prev) != 32 {
		t.Fatalf("prev %q", rec.Prev)
	}
	canonical := append(bytes.Clone(line[:len(line)-75]), '}')
	sum := sha256.Sum256(append(prev, canonical...))
	return hex.EncodeToString(sum[:])
}

func TestGoldenLog(t *testing.T) {
	built := buildGolden(t)
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, built, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.SplitAfter(built, []byte("\n")) {
			if len(line) > 0 {
				t.Logf("%q,", independentHash(t, line))
			}
		}
		return
	}
	frozen, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, frozen) {
		t.Errorf("encoding the example events no longer gives %s byte for byte: the record format drifted", goldenPath)
	}
	sum, err := events.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != uint64(len(goldenHashes)) || sum.TornTail || sum.Unterminated {
		t.Fatalf("%s verifies as %+v, want %d records", goldenPath, sum, len(goldenHashes))
	}
	lines := bytes.SplitAfter(frozen, []byte("\n"))
	lines = lines[:len(lines)-1]
	f, err := os.Open(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	prev := events.GenesisPrev
	i := 0
	for ev, err := range events.NewReader(f, goldenPath).All() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Hash != goldenHashes[i] {
			t.Errorf("record %d: hash %s, frozen %s", ev.Seq, ev.Hash, goldenHashes[i])
		}
		if h := independentHash(t, lines[i]); h != goldenHashes[i] {
			t.Errorf("record %d: the documented hash rule gives %s, frozen %s", ev.Seq, h, goldenHashes[i])
		}
		// Re-sealing the parsed fields gives the same record, byte for byte.
		again, err := events.NewEvent(ev.Seq, prev, ev.Type, ev.Time, ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(again)
		if err != nil {
			t.Fatal(err)
		}
		if string(b)+"\n" != string(lines[i]) {
			t.Errorf("record %d re-encodes as\n%s\nnot\n%s", ev.Seq, b, lines[i])
		}
		prev = ev.Hash
		i++
	}
	if i != len(goldenHashes) {
		t.Errorf("replayed %d records, want %d", i, len(goldenHashes))
	}
}
