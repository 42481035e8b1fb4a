package replaypage

import (
	"embed"
	"encoding/base64"
	"html/template"
	"io"
	"strings"
)

//go:embed assets/page.tmpl assets/page.css assets/page.js assets/chacha8.js assets/openpgp.js
var assets embed.FS

var page = template.Must(template.New("page.tmpl").Funcs(template.FuncMap{
	"css": func() (template.CSS, error) {
		return asset("page.css", func(s string) template.CSS { return template.CSS(s) })
	},
	"js": func() (template.JS, error) {
		return asset("chacha8.js", func(s string) template.JS { return template.JS(s) })
	},
	"pgpjs": func() (template.JS, error) {
		return asset("openpgp.js", func(s string) template.JS { return template.JS(s) })
	},
	"pagejs": func() (template.JS, error) {
		return asset("page.js", func(s string) template.JS { return template.JS(s) })
	},
	"base64": func(b []byte) string { return base64.StdEncoding.EncodeToString(b) },
	"maps": func(ms [][]byte) []string {
		out := make([]string, len(ms))
		for i, m := range ms {
			out[i] = base64.StdEncoding.EncodeToString(m)
		}
		return out
	},
	"inc":   func(i int) int { return i + 1 },
	"lines": func(s string) string { return strings.TrimRight(s, "\n") },
}).ParseFS(assets, "assets/page.tmpl"))

func asset[T any](name string, as func(string) T) (T, error) {
	b, err := assets.ReadFile("assets/" + name)
	return as(string(b)), err
}

// Write writes the page as one HTML file that makes no request: its
// styles, script, maps (data: URLs) and log are inside it.
func (p *Page) Write(w io.Writer) error {
	return page.Execute(w, p)
}
