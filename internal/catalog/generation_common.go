package catalog

import (
	"strings"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Parts shared by the generation endpoints (/generation/v2.0/...) and the
// yearly statistics of both v2.0 areas.

// yearlyStat returns a yearly statistic of a v2.0 area: message OK, one
// record per year, the year filter before params and the year field before
// fields, imported from files whose columns are the fields' names.
func yearlyStat(area, resource, title, doc, array string, params []dataset.Param, fields []dataset.Field) *dataset.Dataset {
	cols := []string{"year"}
	for _, f := range fields {
		cols = append(cols, f.Name)
	}
	d := v2(area, resource, title, doc, array, dataset.MessageOK, dataset.Year)
	d.Params = append([]dataset.Param{yearParam(0)}, params...)
	d.Fields = append([]dataset.Field{yearField()}, fields...)
	d.Import = &dataset.ImportSpec{Formats: "CSV or XLSX with the columns " + strings.Join(cols, ", ")}
	return d
}

// italianOrPoint ends the import formats of the statistics whose files may
// write numbers either way.
const italianOrPoint = " (Italian or decimal-point numbers)"

// yearParam is the 1..1 year of the yearly statistics; window bounds it to
// the current year and that many before it (0 for none).
func yearParam(window int) dataset.Param {
	doc := "Year to extract (yyyy)."
	if window > 0 {
		doc = "Year to extract (yyyy): the current year or one of the six before it; other years get the empty-body answer."
	}
	return dataset.Param{Name: "year", Kind: dataset.YearParam, Required: true, YearWindow: window, Doc: doc}
}

func regionParam() dataset.Param {
	return dataset.Param{Name: "region", Kind: dataset.Enum, Field: "region", Doc: "Region to extract."}
}

func provincesParam() dataset.Param {
	return dataset.Param{Name: "province", Kind: dataset.Enum, Many: true, Field: "province", Doc: "Provinces to extract (repeat the key for several)."}
}

func yearField() dataset.Field {
	return dataset.Field{Name: "year", Kind: dataset.YearOf, Doc: "Year, four digits."}
}

func regionField() dataset.Field {
	return dataset.Field{Name: "region", Kind: dataset.Text, Ref: energy.RegionNames(), Doc: "Region."}
}

func provinceField() dataset.Field {
	return dataset.Field{Name: "province", Kind: dataset.Text, Ref: energy.ProvinceNames(), Within: "region", Doc: "Province."}
}

// plantRegionField and plantProvinceField are the region and province of
// the generation-plants family (the Generation statistics but the
// thermoelectric ones), which the live service spells Valle D'Aosta.
func plantRegionField() dataset.Field {
	return dataset.Field{Name: "region", Kind: dataset.Text, Ref: energy.PlantRegionNames(),
		Doc: "Region; Valle D'Aosta so spelled, as the live service writes it here (the thermoelectric statistics write Valle d'Aosta). Filters accept either."}
}

func plantProvinceField() dataset.Field {
	return dataset.Field{Name: "province", Kind: dataset.Text, Ref: energy.PlantProvinceNames(), Within: "region", Doc: "Province."}
}

// grossNetField is a Lorda/Netta field: capacity_type or production_type.
func grossNetField(name, what string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Text, Ref: energy.CapacityTypeNames(), Doc: "Lorda (gross) or Netta (net) " + what + "."}
}

// grossNetParam is a Lorda/Netta filter: capacityType or productionType.
func grossNetParam(name, field string) dataset.Param {
	return enumParam(name, field, false, false, "Lorda (gross) or Netta (net).")
}

// capacityMW is a yearly capacity statistic's efficient power: a string
// with a decimal point ("14.243"), as the live service's capacity
// statistics are read (catalogue.md 5.2), not the page's Italian format.
func capacityMW(doc string) dataset.Field {
	return dataset.Field{Name: "efficient_power_MW", Kind: dataset.Number, Format: dataset.Point3,
		Doc: doc + ", decimal point and three decimals (14.243), as the live service's capacity statistics are read; the page's example writes an Italian 14,243."}
}

// italian is a yearly statistic's number: "27.389,400".
func italian(name, doc string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Number, Format: dataset.Italian3, Doc: doc + ", Italian number format (decimal comma, thousands points, three decimals)."}
}
