package replaypage

import (
	"bytes"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"

	"skagerrak/events"
)

//go:embed assets/page.tmpl assets/page.css assets/page.js assets/chacha8.js assets/openpgp.js assets/maps.js
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
	"mapsjs": func() (template.JS, error) {
		return asset("maps.js", func(s string) template.JS { return template.JS(s) })
	},
	"base64": func(b []byte) string { return base64.StdEncoding.EncodeToString(b) },
	"inc":    func(i int) int { return i + 1 },
	"lines":  func(s string) string { return strings.TrimRight(s, "\n") },
}).ParseFS(assets, "assets/page.tmpl"))

func asset[T any](name string, as func(string) T) (T, error) {
	b, err := assets.ReadFile("assets/" + name)
	return as(string(b)), err
}

// Write writes the page as one HTML file that makes no request: its
// styles, script, maps and log are inside it.
func (p *Page) Write(w io.Writer) error {
	fr, err := frames(p.Maps, p.chainBases())
	if err != nil {
		return err
	}
	return page.Execute(w, struct {
		*Page
		Frames []mapFrame
	}{p, fr})
}

// Make builds a finished game's page from its log and writes it: what the
// final report attaches (an adjudicator.ReplayMaker), the same bytes
// skagerrak replay writes.
func Make(l events.Log) ([]byte, error) {
	p, err := Build(l)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		return nil, fmt.Errorf("replay: writing the page: %w", err)
	}
	return b.Bytes(), nil
}
