package kriegsmarine

import (
	"embed"

	"skagerrak/engine"
)

//go:embed data/*.txt data/*.tsv
var dataFS embed.FS

// files is the data pack: the files under data/.
var files = engine.Pack{Game: "kriegsmarine", FS: dataFS}
