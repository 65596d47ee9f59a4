// Command demoplot draws one winter week and one summer week of the demo
// system's demand and generation by source as an SVG on stdout; the
// scripts/demo-plot wrapper turns it into docs/demo-weeks.png.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

const (
	width, height = 1200, 820
	left, right   = 60, 20
	panelH        = 330
	maxGW         = 70.0
)

type layer struct {
	name, color string
	gw          func(g demo.GenHour) float64
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demoplot:", err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="13">`, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`, width, height)
	weeks := []struct {
		title string
		from  energy.Date
	}{
		{"Winter week: Monday 15 to Sunday 21 January 2024", energy.Date{Year: 2024, Month: time.January, Day: 15}},
		{"Summer week: Monday 15 to Sunday 21 July 2024", energy.Date{Year: 2024, Month: time.July, Day: 15}},
	}
	layers := []layer{
		{"Net import", "#9e9e9e", func(g demo.GenHour) float64 { return max(g.NetImport, 0) }},
		{"Geothermal", "#8d6e63", func(g demo.GenHour) float64 { return g.Geothermal }},
		{"Hydro", "#1e88e5", func(g demo.GenHour) float64 { return g.Hydro }},
		{"Wind", "#26a69a", func(g demo.GenHour) float64 { return g.Wind }},
		{"Photovoltaic", "#fdd835", func(g demo.GenHour) float64 { return g.Photovoltaic }},
		{"Thermal", "#e57373", func(g demo.GenHour) float64 { return g.Thermal }},
		{"Self-consumption", "#ce93d8", func(g demo.GenHour) float64 { return g.Self }},
	}
	for i, wk := range weeks {
		top := 40 + i*(panelH+70)
		panel(&b, wk.title, wk.from, top, layers)
	}
	// Legend.
	x := left
	y := height - 18
	for _, l := range layers {
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="14" height="14" fill="%s"/><text x="%d" y="%d">%s</text>`, x, y-12, l.color, x+18, y, l.name)
		x += 30 + 8*len(l.name)
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black" stroke-width="2"/><text x="%d" y="%d">Total load (demand)</text>`, x, y-5, x+24, y-5, x+30, y)
	x += 180
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#1a237e" stroke-width="1.5" stroke-dasharray="4 3"/><text x="%d" y="%d">Load + pumping</text>`, x, y-5, x+24, y-5, x+30, y)
	b.WriteString(`</svg>`)
	_, err := io.WriteString(w, b.String())
	return err
}

// panel draws a week's stacked generation (the stack reaches load plus
// pumping, as the balance says) and its load.
func panel(b *strings.Builder, title string, from energy.Date, top int, layers []layer) {
	to := from.AddDays(6)
	pts := demo.TotalLoad(from, to)
	var hours []demo.HourLoad
	var quarters []float64
	for _, p := range pts {
		if p.Zone != energy.Italy {
			continue
		}
		quarters = append(quarters, p.TotalMW/1000)
		h := p.At.Unix() - p.At.Unix()%3600
		if len(hours) == 0 || hours[len(hours)-1].At != h {
			hours = append(hours, demo.HourLoad{At: h})
		}
		hours[len(hours)-1].GW += p.TotalMW / 4000
	}
	gen := demo.Generation(hours, demo.DefaultSeed)
	plotW := float64(width - left - right)
	xOf := func(i, n int) float64 { return float64(left) + plotW*float64(i)/float64(n) }
	yOf := func(gw float64) float64 { return float64(top+panelH) - float64(panelH)*gw/maxGW }

	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="15" font-weight="bold">%s</text>`, left, top-10, title)
	for gw := 0; gw <= int(maxGW); gw += 10 {
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%d GW</text>`, left, yOf(float64(gw)), width-right, yOf(float64(gw)), left-6, yOf(float64(gw))+4, gw)
	}
	for d := 0; d <= 7; d++ {
		x := xOf(d, 7)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#bbb"/>`, x, top, x, top+panelH)
		if d < 7 {
			day := from.AddDays(d)
			wd := time.Date(day.Year, day.Month, day.Day, 12, 0, 0, 0, time.UTC).Weekday()
			fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">%s %d</text>`, x+plotW/14, top+panelH+16, wd.String()[:3], day.Day)
		}
	}
	n := len(gen)
	base := make([]float64, n)
	for _, l := range layers {
		var up, down []string
		for i, g := range gen {
			up = append(up, fmt.Sprintf("%.1f,%.1f", xOf(i, n), yOf(base[i]+l.gw(g))))
			up = append(up, fmt.Sprintf("%.1f,%.1f", xOf(i+1, n), yOf(base[i]+l.gw(g))))
		}
		for i := n - 1; i >= 0; i-- {
			down = append(down, fmt.Sprintf("%.1f,%.1f", xOf(i+1, n), yOf(base[i])))
			down = append(down, fmt.Sprintf("%.1f,%.1f", xOf(i, n), yOf(base[i])))
		}
		fmt.Fprintf(b, `<polygon points="%s %s" fill="%s"/>`, strings.Join(up, " "), strings.Join(down, " "), l.color)
		for i, g := range gen {
			base[i] += l.gw(g)
		}
	}
	// Exports push the stack above the load: draw load plus pumping, and
	// the load itself quarter hour by quarter hour.
	var lp []string
	for i, g := range gen {
		y := yOf(hours[i].GW + g.Pumping - min(g.NetImport, 0))
		lp = append(lp, fmt.Sprintf("%.1f,%.1f %.1f,%.1f", xOf(i, n), y, xOf(i+1, n), y))
	}
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="#1a237e" stroke-width="1.5" stroke-dasharray="4 3"/>`, strings.Join(lp, " "))
	var ld []string
	for i, v := range quarters {
		ld = append(ld, fmt.Sprintf("%.1f,%.1f", xOf(i, len(quarters)), yOf(v)))
	}
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="black" stroke-width="2"/>`, strings.Join(ld, " "))
}
