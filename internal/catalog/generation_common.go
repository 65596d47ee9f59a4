package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Parts shared by the generation endpoints (/generation/v2.0/...).

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

// grossNetField is a Lorda/Netta field: capacity_type or production_type.
func grossNetField(name, what string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Text, Ref: energy.CapacityTypeNames(), Doc: "Lorda (gross) or Netta (net) " + what + "."}
}

// italian is a yearly statistic's number: "27.389,400".
func italian(name, doc string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Number, Format: dataset.Italian3, Doc: doc + ", Italian number format (decimal comma, thousands points, three decimals)."}
}
