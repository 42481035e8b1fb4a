package norway1940

import (
	"encoding/json"
	"fmt"

	"skagerrak/engine"
)

// DecodeView implements engine.ViewDecoder: it reads a View back from the
// JSON copy attached to a report, as players' own tools (and the scripted
// players of the demo) do.
func (Ruleset) DecodeView(data []byte) (engine.View, error) {
	var v View
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("norway1940: view: %w", err)
	}
	return &v, nil
}

var _ engine.ViewDecoder = Ruleset{}
