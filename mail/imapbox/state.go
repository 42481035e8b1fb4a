package imapbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// state is what the box remembers about its mailbox between runs.
//
// Every UID at or below LastUID has been dealt with: moved away, or left in
// place by the fallback, or expunged by someone else. LeftInPlace lists UIDs
// above LastUID that the fallback copied but could not remove. Both are
// meaningful only under UIDValidity.
type state struct {
	Version     int      `json:"version"`
	UIDValidity uint32   `json:"uid_validity"`
	LastUID     uint32   `json:"last_uid"`
	LeftInPlace []uint32 `json:"left_in_place,omitempty"`
}

const stateVersion = 1

// stateFileName derives a file name from the account and mailbox, so that
// several boxes can share one state directory.
func stateFileName(addr, user, mailbox string) string {
	h := sha256.Sum256([]byte(addr + "\x00" + user + "\x00" + mailbox))
	return "imapbox-" + hex.EncodeToString(h[:8]) + ".json"
}

// loadState reads the state file; a missing file is an empty state.
func loadState(path string) (state, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return state{Version: stateVersion}, nil
	}
	if err != nil {
		return state{}, fmt.Errorf("imapbox: read state: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return state{}, fmt.Errorf("imapbox: state file %s is damaged: %w", path, err)
	}
	if st.Version != stateVersion {
		return state{}, fmt.Errorf("imapbox: state file %s has version %d, want %d", path, st.Version, stateVersion)
	}
	return st, nil
}

// saveState writes the state atomically: a temporary file in the same
// directory, fsync, rename over the old file, fsync of the directory.
func saveState(path string, st state) error {
	st.Version = stateVersion
	slices.Sort(st.LeftInPlace)
	st.LeftInPlace = slices.Compact(st.LeftInPlace)
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("imapbox: encode state: %w", err)
	}
	b = append(b, '\n')
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".imapbox-state-*")
	if err != nil {
		return fmt.Errorf("imapbox: write state: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("imapbox: write state: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("imapbox: sync state: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("imapbox: write state: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("imapbox: replace state: %w", err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("imapbox: sync state directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("imapbox: sync state directory: %w", err)
	}
	return nil
}

// leftInPlace reports whether uid is recorded as copied but left in place.
func (st *state) leftInPlace(uid uint32) bool {
	return slices.Contains(st.LeftInPlace, uid)
}

// compact raises LastUID to floor and forgets left-in-place UIDs at or
// below it. It reports whether anything changed.
func (st *state) compact(floor uint32) bool {
	if floor <= st.LastUID {
		return false
	}
	st.LastUID = floor
	st.LeftInPlace = slices.DeleteFunc(st.LeftInPlace, func(u uint32) bool { return u <= floor })
	return true
}
