package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
)

// datasetInfo is one line of energyapi datasets.
type datasetInfo struct {
	Name        string   `json:"name"`
	Path        string   `json:"path"`
	Granularity string   `json:"granularity"`
	Parameters  []string `json:"parameters"`
	Fields      []string `json:"fields"`
	Importable  bool     `json:"importable"`
}

// runDatasets lists the catalogue: a table on a terminal, JSON lines
// otherwise (or as --format says).
func runDatasets(args []string, getenv func(string) string, stdout io.Writer, terminal bool) error {
	fs := newFlagSet("datasets", nil)
	format := fs.String("format", "", "output: json or table (default table on a terminal, json otherwise)")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("datasets takes no arguments")
	}
	switch *format {
	case "":
		*format = "json"
		if terminal {
			*format = "table"
		}
	case "json", "table":
	default:
		return invalidValue("--format", *format, "want json or table")
	}
	cat, err := catalog.New()
	if err != nil {
		return err
	}
	var infos []datasetInfo
	for _, d := range cat.All() {
		in := datasetInfo{Name: d.Name, Path: d.Path(), Granularity: d.Grain.String(), Fields: d.Columns(), Importable: d.Import != nil}
		for _, p := range d.Parameters() {
			name := p.Name
			if p.Kind == dataset.DateRange {
				name += "," + p.To
			}
			switch {
			case p.Required:
			case p.Many:
				name += " (0..n)"
			default:
				name += " (0..1)"
			}
			in.Parameters = append(in.Parameters, name)
		}
		infos = append(infos, in)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		for _, in := range infos {
			if err := enc.Encode(in); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPATH\tGRAIN\tPARAMETERS")
	for _, in := range infos {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", in.Name, in.Path, in.Granularity, strings.Join(in.Parameters, " "))
	}
	return tw.Flush()
}
