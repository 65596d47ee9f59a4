package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MonthlyIndexIndustrialConsumption is the IMCEI: the monthly index of
// industrial electrical consumption per region, sector and supply voltage.
func MonthlyIndexIndustrialConsumption() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "imcei", Title: "Monthly index of industrial electrical consumption (IMCEI)",
		Source: dataset.Source{Ref: portal("load", "Monthly_Index_Industrial_Electrical_Consumption"), Confidence: "H", Guess: "Monthly_imcei and consumption_Gwh come from client L's schema."},
		Doc: "Monthly electricity consumption of industrial customers per region, sector and supply voltage, in GWh, " +
			"with its index (the series' 2019 monthly average = 100).",
		Area: "load", Version: "v2.0", Resource: "monthly-index-industrial-electrical-consumption",
		Array: "monthly_index_industrial_electrical_consumption", Message: dataset.MessageOK, Grain: dataset.Month,
		Params: []dataset.Param{
			yearParam(0),
			{Name: "month", Kind: dataset.MonthParam, Required: true, Doc: "Month to extract, 1 to 12, zero padding optional (\"2\" or \"02\")."},
			enumParam("sector", "sector", false, true, "Sectors to extract (repeat the key for several)."),
			enumParam("tensionType", "tension_type", false, false, "Supply voltage: AT (high) or MT (medium)."),
		},
		Fields: []dataset.Field{
			{Name: "date", Kind: dataset.Instant, Offset: "date_offset",
				Doc: "The month's first instant, Europe/Rome wall time yyyy-mm-dd hh:mm:ss (\"2024-02-01 00:00:00\"), followed by its UTC offset; no date_tz field, as the portal documents."},
			regionField(),
			text("sector", energy.IMCEISectorNames(), "Industrial sector."),
			text("tension_type", energy.TensionTypeNames(), "Supply voltage: AT (high) or MT (medium)."),
			{Name: "monthly_imcei", Kind: dataset.Number, Format: dataset.PointFull, Doc: "The month's index, decimal point: the series' consumption as a percentage of its 2019 monthly average.", Min: 0, Max: 1000},
			{Name: "consumption_Gwh", Kind: dataset.Number, Format: dataset.PointFull, Doc: "The month's consumption, GWh, decimal point (the lowercase \"wh\" is the family's spelling).", Min: 0, Max: 100000},
		},
		Order:    []string{"region", "sector", "tension_type"},
		Demo:     demo.IMCEI,
		DemoFrom: []string{"total-load"},
		Import: &dataset.ImportSpec{
			Formats: "CSV or XLSX with the columns date (the month's first day, yyyy-mm-dd hh:mm:ss or dd/mm/yyyy hh:mm:ss), region, sector, tension_type, monthly_imcei, consumption_Gwh"},
	}
}
