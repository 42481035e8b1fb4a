package norge

import "testing"

func TestDataLoads(t *testing.T) {
	d, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Ports) != 12 || len(d.Airfields) != 5 {
		t.Fatalf("ports %d airfields %d, want 12 and 5 (4.7)", len(d.Ports), len(d.Airfields))
	}
}
