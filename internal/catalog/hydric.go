package catalog

import (
	"bytes"
	"io"
	"strings"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
)

// Hydric is the hydroelectric production per province and kind of plant,
// yearly.
func Hydric() *dataset.Dataset {
	d := yearlyStat("generation", "hydric", "Hydroelectric production",
		"Yearly gross and net hydroelectric production in GWh per region, province and kind of plant (Bacino, Fluente, Serbatoio).",
		"hydric",
		[]dataset.Param{regionParam(), provincesParam(), grossNetParam("productionType", "production_type"),
			enumParam("hydricPlant", "hydric_plant", false, false, "Kind of plant.")},
		[]dataset.Field{grossNetField("production_type", "production"), plantRegionField(), plantProvinceField(),
			{Name: "hydric_plant", Kind: dataset.Text, Ref: energy.HydricPlantNames(), Aliases: []string{"hydric_system"},
				Doc: "Kind of plant. The page's table names this field hydric_plant and its JSON example hydric_system; this server follows the table " +
					"and the hydricPlant filter, and import files may name the column either way."},
			italian("production_GWh", "Production, GWh")})
	d.Source = dataset.Source{Ref: portal("generation", "Hydric"), Confidence: "H",
		Guess: "Hydric_plant (the page's table) rather than hydric_system (its example); both are read on import. Valle D'Aosta, as the live service spells it in generation-plants (L for this dataset)."}
	d.Order = []string{"region", "province", "hydric_plant", "production_type"}
	d.Demo = demo.Hydric
	d.Import = &dataset.ImportSpec{Parse: importHydric, Formats: "CSV or XLSX with the columns year, production_type, region, province, hydric_plant (or hydric_system), production_GWh"}
	return d
}

// importHydric reads a hydric file with the generic reader, whose header
// names the plant's column either hydric_plant or hydric_system. The
// generic reader accepts a field's aliases only beside its main column, so
// the file is read as one of two twins of the dataset, each of which
// requires one of the names; the rows are the same for both.
func importHydric(name string, r io.Reader) ([]dataset.Row, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, energy.Errorf(energy.Invalid, "%s: %v", name, err)
	}
	var first error
	for _, column := range []string{"hydric_plant", "hydric_system"} {
		twin := Hydric()
		twin.Import = &dataset.ImportSpec{}
		for i := range twin.Fields {
			if twin.Fields[i].Name == "hydric_plant" {
				twin.Fields[i].Column, twin.Fields[i].Aliases = column, nil
			}
		}
		c, err := dataset.NewCatalog(twin)
		if err != nil {
			return nil, err
		}
		rows, err := ingest.ReadRows(c, twin, name, bytes.NewReader(data))
		if err == nil {
			return rows, nil
		}
		if first == nil {
			first = err
		}
		if !strings.Contains(energy.ErrorMessage(err), "no header row") {
			break
		}
	}
	return nil, first
}
