package catalog

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestDemoFCRAuctions proves the demo FCR auctions' calendar and values:
// the v1.0 window's days (December 2025) answer zeros, as the live service
// does before the auctions start; every day from 3 June 2026 for at least
// a month, beyond the other datasets' end, has both areas' auctions in
// both directions; the procured capacity never exceeds the requirement;
// and some Sardinian auction cleared nothing, with no price.
func TestDemoFCRAuctions(t *testing.T) {
	t.Parallel()
	in := dataset.DemoInput{First: energy.Date{Year: 2025, Month: time.December, Day: 1}, Last: energy.Date{Year: 2025, Month: time.December, Day: 31}, Seed: demo.DefaultSeed}
	perDay := map[energy.Date]int{}
	nulls := 0
	for _, r := range AsteFCR().Demo(in) {
		day := energy.DateOf(time.Unix(r.Time, 0))
		perDay[day]++
		price, qty, req := r.Num[0], r.Num[1], r.Num[2]
		if day.Compare(demo.FCRStart) < 0 {
			if price != 0 || qty != 0 || req != 0 {
				t.Errorf("%s %v: got %v, want zeros before the auctions start", day, r.Text, r.Num)
			}
			continue
		}
		if math.IsNaN(price) {
			nulls++
			if qty != 0 || r.Text[1] != "Sardegna" {
				t.Errorf("%s %v: no price but %v MW procured", day, r.Text, qty)
			}
		}
		if req <= 0 || qty > req {
			t.Errorf("%s %v: procured %v of %v MW", day, r.Text, qty, req)
		}
	}
	for d := energy.DateOf(time.Date(2025, 12, 18, 12, 0, 0, 0, energy.Rome())); d.Compare(in.Last) <= 0; d = d.AddDays(1) {
		if perDay[d] != 4 {
			t.Errorf("%s: %d records, want 4 (zeros)", d, perDay[d])
		}
	}
	for d := demo.FCRStart; d.Compare(demo.FCRStart.AddDays(30)) <= 0; d = d.AddDays(1) {
		if perDay[d] != 4 {
			t.Errorf("%s: %d auctions, want 4", d, perDay[d])
		}
	}
	if nulls == 0 {
		t.Error("no auction without a price; want some, as the live service sends null")
	}
}

// within05 reports whether got is within 0.5 % of want (the issue's
// tolerance for the demo's cross-dataset sums).
func within05(got, want float64) bool { return math.Abs(got-want) <= 0.005*math.Abs(want)+1e-6 }

// yearOf is a row's Europe/Rome year.
func yearOf(r dataset.Row) int { return time.Unix(r.Time, 0).In(energy.Rome()).Year() }

// sumBy sums rows' first number by the key of each.
func sumBy(rows []dataset.Row, key func(r dataset.Row) string) map[string]float64 {
	out := map[string]float64{}
	for _, r := range rows {
		out[key(r)] += r.Num[len(r.Num)-1]
	}
	return out
}

// TestLoadStatisticsAddUp proves that the seven yearly load statistics
// describe the one demo system, within 0.5 %: each year's months and each
// table's splits add up to the model's yearly demand, region by region;
// the sector tables add up to electrical-energy-by-sector, province by
// province, and so do the markets; a whole demo year's months are its
// total load's; electrical-energy-by-type agrees with demand-coverage;
// industry's manufacturing agrees with the IMCEI.
func TestLoadStatisticsAddUp(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates two years of demo load")
	}
	y2023 := energy.Date{Year: 2023, Month: time.January, Day: 1}
	load2023 := TotalLoadRows(demo.TotalLoad(y2023, energy.Date{Year: 2023, Month: time.December, Day: 31}))
	in := dataset.DemoInput{First: y2023, Last: energy.Date{Year: 2023, Month: time.December, Day: 31}, Seed: demo.DefaultSeed,
		From: map[string][]dataset.Row{"total-load": load2023}}
	in.From["demand-coverage"] = DemandCoverageBySource().Demo(in)
	monthly := ElectricalEnergyInItaly().Demo(in)
	byType := ElectricalEnergyByType().Demo(in)
	bySector := ElectricalEnergyBySector().Demo(in)
	industry, services := IndustrySector().Demo(in), ServicesSector().Demo(in)
	total, market := LoadTotal().Demo(in), LoadMarket().Demo(in)
	shares := demo.RegionDemandShares()

	yearly := sumBy(monthly, func(r dataset.Row) string { return fmt.Sprint(yearOf(r)) })
	regions := map[string]func(r dataset.Row) string{
		"by-type":   func(r dataset.Row) string { return fmt.Sprint(yearOf(r), r.Text[0]) },
		"by-sector": func(r dataset.Row) string { return fmt.Sprint(yearOf(r), r.Text[0]) },
		"total":     func(r dataset.Row) string { return fmt.Sprint(yearOf(r), r.Text[0]) },
		"market":    func(r dataset.Row) string { return fmt.Sprint(yearOf(r), r.Text[0]) },
	}
	tables := map[string][]dataset.Row{"by-type": byType, "by-sector": bySector, "total": total, "market": market}
	for y := demo.ThermoFirstYear; y <= demo.ThermoLastYear; y++ {
		want := demo.PublishedDemandTWh(y) * 1000
		if !within05(yearly[fmt.Sprint(y)], want) {
			t.Errorf("%d: the months add up to %.3f GWh, want the year's demand %.3f", y, yearly[fmt.Sprint(y)], want)
		}
		for name, rows := range tables {
			sums := sumBy(rows, regions[name])
			for region, share := range shares {
				if got := sums[fmt.Sprint(y, region)]; !within05(got, want*share) {
					t.Errorf("%s %d %s: %.3f GWh, want the region's demand %.3f", name, y, region, got, want*share)
				}
			}
		}
	}

	checkTablesAgree(t, bySector, industry, services, total, market)

	// 2023's months are its total load's.
	loadMonths := map[time.Month]float64{}
	for _, r := range load2023 {
		if r.Text[0] == string(energy.Italy) {
			loadMonths[time.Unix(r.Time, 0).In(energy.Rome()).Month()] += r.Num[0] / 4000
		}
	}
	for _, r := range monthly {
		if at := time.Unix(r.Time, 0).In(energy.Rome()); at.Year() == 2023 && !within05(r.Num[0], loadMonths[at.Month()]) {
			t.Errorf("2023 %s: %.3f GWh, want the total load's %.3f", at.Month(), r.Num[0], loadMonths[at.Month()])
		}
	}

	// By type agrees with demand coverage: renewables, and the balance.
	coverage := sumBy(in.From["demand-coverage"], func(r dataset.Row) string {
		switch r.Text[1] {
		case "Saldo import/export":
			return r.Text[0] + "|Saldo import/export"
		case "Idrico tradizionale":
			return ""
		}
		return r.Text[0] + "|Fonti rinnovabili"
	})
	for _, r := range byType {
		want, ok := coverage[r.Text[0]+"|"+r.Text[1]]
		if yearOf(r) == 2023 && ok && !within05(r.Num[0], want) {
			t.Errorf("by-type 2023 %s %s: %.3f GWh, want demand-coverage's %.3f", r.Text[0], r.Text[1], r.Num[0], want)
		}
	}

	checkIndustryAgreesWithIMCEI(t, industry, load2023)
}

// checkIndustryAgreesWithIMCEI: industry's manufacturing classes of 2023,
// times the IMCEI's coverage, are the IMCEI's consumption of their
// sectors, region by region (the IMCEI's index needs 2019's months).
func checkIndustryAgreesWithIMCEI(t *testing.T, industry, load2023 []dataset.Row) {
	t.Helper()
	y2019 := energy.Date{Year: 2019, Month: time.January, Day: 1}
	load2019 := TotalLoadRows(demo.TotalLoad(y2019, energy.Date{Year: 2019, Month: time.December, Day: 31}))
	imcei := MonthlyIndexIndustrialConsumption().Demo(dataset.DemoInput{From: map[string][]dataset.Row{"total-load": append(load2019, load2023...)}})
	group := map[[2]string]string{} // activity, class -> its IMCEI sectors
	for _, s := range energy.IMCEISectorNames().Values() {
		for _, ac := range demo.IMCEIClassesOf(s) {
			group[ac] += s + ";"
		}
	}
	imceiGroups := map[string]float64{}
	for _, r := range imcei {
		if yearOf(r) == 2023 {
			imceiGroups[r.Text[0]+"|"+r.Text[1]] += r.Num[1]
		}
	}
	industryGroups := map[string]float64{}
	for _, r := range industry {
		if g, ok := group[[2]string{r.Text[2], r.Text[3]}]; ok && yearOf(r) == 2023 {
			industryGroups[r.Text[0]+"|"+g] += r.Num[0] * demo.IMCEICoverage
		}
	}
	for k, v := range industryGroups {
		region, sectors, _ := strings.Cut(k, "|")
		var want float64
		for _, s := range strings.Split(strings.TrimSuffix(sectors, ";"), ";") {
			want += imceiGroups[region+"|"+s]
		}
		if !within05(v, want) {
			t.Errorf("2023 %s: industry's %s × the IMCEI's coverage is %.3f GWh, want the IMCEI's %.3f", region, sectors, v, want)
		}
	}
}

// TestRenewableSourceCapacityAgrees proves that renewable-source-capacity
// is generation-plants' renewable records, and that its national net sums
// are installed-capacity's wind, photovoltaic, geothermal and hydro.
func TestRenewableSourceCapacityAgrees(t *testing.T) {
	t.Parallel()
	in := dataset.DemoInput{}
	plants := map[string]float64{}
	for _, r := range GenerationPlants().Demo(in) {
		if r.Text[3] != "Termoelettrico" && r.Text[3] != energy.AccumuloStandAlone {
			plants[fmt.Sprint(r.Time, r.Text)] = r.Num[0]
		}
	}
	national := map[string]float64{}
	rsc := RenewableSourceCapacity().Demo(in)
	for _, r := range rsc {
		if v, ok := plants[fmt.Sprint(r.Time, r.Text)]; !ok || v != r.Num[0] {
			t.Errorf("%v: %v MW, generation-plants has %v", r.Text, r.Num[0], v)
		}
		if r.Text[0] == energy.Netta {
			national[fmt.Sprint(yearOf(r), r.Text[3])] += r.Num[0]
		}
	}
	if len(rsc) != len(plants) {
		t.Errorf("%d records, generation-plants has %d renewable ones", len(rsc), len(plants))
	}
	types := map[string]string{"Wind": "Eolico", "Photovoltaic": "Fotovoltaico", "Geothermal": "Geotermoelettrico", "Hydro": "Idrico"}
	years := map[int]bool{}
	for _, r := range rsc {
		years[yearOf(r)] = true
	}
	// Installed capacity carries its last statistics year forward beyond
	// them (demoInstalledCapacity): the sums agree where both have a year.
	for _, r := range InstalledCapacity().Demo(in) {
		if src, ok := types[r.Text[0]]; ok && years[yearOf(r)] {
			if got := national[fmt.Sprint(yearOf(r), src)] / 1000; math.Abs(got-r.Num[0]) > 0.006 {
				t.Errorf("%d %s: renewable-source-capacity sums to %.3f GW, installed-capacity says %.2f", yearOf(r), r.Text[0], got, r.Num[0])
			}
		}
	}
}

// TestDemoLiveTiming proves that the demo v1.0 records carry the live
// service's timing (catalogue.md 4.4), which changedSince, asOf and
// include=meta then report: the final imbalance of a day is published at
// 17:00 the next day (and its publication_date says so), the preliminary
// within 30 minutes of its period; a unit's available capacity is first
// published the next day and final seven days after the day; each MSD
// session restates the requirements of the hours still ahead when it runs,
// MSD1 the whole day the day before; an FCR auction's results are known
// the day before.
func TestDemoLiveTiming(t *testing.T) {
	t.Parallel()
	in := someV1Input()
	rome := energy.Rome()
	local := func(us int64) time.Time { return time.UnixMicro(us).In(rome) }
	for _, r := range DailyMacrozonalImbalance().Demo(in) {
		at := time.Unix(r.Time, 0).In(rome)
		pub := local(r.Pub)
		if want := time.Date(at.Year(), at.Month(), at.Day()+1, 17, 0, 0, 0, rome); !pub.Equal(want) || r.Rev != r.Pub || r.Text[0] != want.Format("2006-01-02 15:04:05") {
			t.Fatalf("final imbalance of %v: published %v (%s), want %v", at, pub, r.Text[0], want)
		}
	}
	for _, r := range PreliminaryMacrozonalImbalance().Demo(in) {
		period := int64(900)
		if r.Text[1] == "Orario" {
			period = 3600
		}
		if late := r.Pub/1e6 - (r.Time + period); late < 15*60 || late > 30*60 || r.Text[0] != local(r.Pub).Format("2006-01-02 15:04:05") {
			t.Fatalf("preliminary imbalance of %v: published %v after its period, want 15 to 30 minutes", time.Unix(r.Time, 0), time.Duration(late)*time.Second)
		}
	}
	for _, r := range DetailAvailableCapacity().Demo(in) {
		day := energy.DateOf(time.Unix(r.Time, 0))
		if first, final := local(r.Pub), local(r.Rev); energy.DateOf(first) != day.AddDays(1) || energy.DateOf(final) != day.AddDays(7) {
			t.Fatalf("capacity of %v: published %v, final %v; want the next day and seven days after", time.Unix(r.Time, 0), first, final)
		}
	}
	for _, d := range []*dataset.Dataset{MarketAFRRRequirement(), MarketReplacementReserveRequirement(), MarketRotatingReserveRequirement(), MarketTotalReserveRequirement()} {
		hours := map[string]map[int]bool{} // session -> the hours of 24 December it states
		for _, r := range d.Demo(in) {
			at := time.Unix(r.Time, 0).In(rome)
			if at.Day() != 24 {
				continue
			}
			if hours[r.Text[1]] == nil {
				hours[r.Text[1]] = map[int]bool{}
			}
			hours[r.Text[1]][at.Hour()] = true
			if pub := local(r.Pub); !pub.Before(at) {
				t.Fatalf("%s %s of %v published at %v, not before the hour", d.Name, r.Text[1], at, pub)
			}
		}
		for s, first := range map[string]int{"MSD1": 0, "MSD2": 4, "MSD3": 8, "MSD4": 12, "MSD5": 16, "MSD6": 20} {
			if len(hours[s]) != 24-first || !hours[s][first] || hours[s][first-1] {
				t.Errorf("%s %s states %d hours of 24 December, want hours %d to 23", d.Name, s, len(hours[s]), first)
			}
		}
		if len(hours) != 6 {
			t.Errorf("%s: sessions %v, want MSD1 to MSD6", d.Name, hours)
		}
	}
	for _, r := range AsteFCR().Demo(in) {
		day := energy.DateOf(time.Unix(r.Time, 0))
		if pub := local(r.Pub); energy.DateOf(pub) != day.AddDays(-1) || r.Rev != r.Pub {
			t.Fatalf("FCR auction of %s known at %v, want the day before", day, pub)
		}
	}
}

// someV1Input is a demo input whose v1.0 window is 18 to 31 December
// 2025, with the total load, generation, installed capacity and outages
// the v1.0 generators read.
func someV1Input() dataset.DemoInput {
	in := demoLoadInput(energy.Date{Year: 2025, Month: time.December, Day: 18}, energy.Date{Year: 2025, Month: time.December, Day: 31})
	in.From["actual-generation"] = ActualGeneration().Demo(in)
	in.From["installed-capacity"] = InstalledCapacity().Demo(in)
	in.From["generation-unit-unavailability"] = GenerationUnitUnavailability().Demo(in)
	return in
}

// checkTablesAgree: the sector tables, and the markets, add up to
// electrical-energy-by-sector province by province.
func checkTablesAgree(t *testing.T, bySector, industry, services, total, market []dataset.Row) {
	t.Helper()
	perSector := sumBy(bySector, func(r dataset.Row) string { return fmt.Sprint(yearOf(r), r.Text[0], r.Text[1], r.Text[2]) })
	for name, c := range map[string]struct {
		rows   []dataset.Row
		sector func(r dataset.Row) string
	}{
		"industry-sector": {industry, func(dataset.Row) string { return "Industria" }},
		"services-sector": {services, func(dataset.Row) string { return "Servizi" }},
		"total":           {total, func(r dataset.Row) string { return r.Text[2] }},
	} {
		got := sumBy(c.rows, func(r dataset.Row) string { return fmt.Sprint(yearOf(r), r.Text[0], r.Text[1], c.sector(r)) })
		for k, v := range got {
			if !within05(v, perSector[k]) {
				t.Errorf("%s %s: %.3f GWh, want by-sector's %.3f", name, k, v, perSector[k])
			}
		}
	}
	perProvince := sumBy(bySector, func(r dataset.Row) string { return fmt.Sprint(yearOf(r), r.Text[0], r.Text[1]) })
	for k, v := range sumBy(market, func(r dataset.Row) string { return fmt.Sprint(yearOf(r), r.Text[0], r.Text[1]) }) {
		if !within05(v, perProvince[k]) {
			t.Errorf("market %s: %.3f GWh, want by-sector's %.3f", k, v, perProvince[k])
		}
	}

}
