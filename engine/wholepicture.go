package engine

// WholePicturer is implemented by Picturers that can also draw the whole
// state with the fog lifted: every side's forces where they are, nothing
// hidden. Only what may see everything shows it (the replay of a finished
// game); a side's mail never does.
type WholePicturer interface {
	PictureWhole(s State) ([]byte, error)
}
