package catalog

import (
	_ "embed"
	"strings"

	"github.com/energyapi/energyapi/internal/dataset"
)

//go:generate go run ../../scripts/demomanifest -o demoparts.tsv

// demoParts lists every part of the default demo data (demo.LoadRange,
// demo.DefaultSeed): what each holds, so that a server on a demo store
// lists the whole demo range before generating any of it. It is generated
// from the demo generators (scripts/demomanifest, a few minutes); the
// catalogue's tests check it against them.
//
//go:embed demoparts.tsv
var demoParts string

// DemoManifest returns the manifest of the default demo data.
func DemoManifest() (*dataset.DemoManifest, error) {
	return dataset.ParseDemoManifest(strings.NewReader(demoParts))
}
