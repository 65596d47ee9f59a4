package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"text/tabwriter"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// logFormat is the --log-format of serve.
type logFormat string

const (
	logText logFormat = "text"
	logJSON logFormat = "json"
	logAuto logFormat = "auto" // text on a terminal, JSON elsewhere
)

func (f *logFormat) String() string {
	if f == nil {
		return ""
	}
	return string(*f)
}

func (f *logFormat) Set(s string) error {
	switch v := logFormat(s); v {
	case logText, logJSON, logAuto:
		*f = v
		return nil
	}
	return errors.New("want text, json or auto")
}

// newLogger returns the logger that writes to w: JSON for programs (log
// collectors), or slog's key=value text when format says so, or is auto and
// w is a terminal. Durations are written as milliseconds. The JSON log is
// api.NewJSONLog's, which writes the request lines without slog's work.
func newLogger(w io.Writer, format logFormat, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: durationsInMS}
	if format == logText || (format == logAuto && isTerminal(w)) {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(api.NewJSONLog(w, opts))
}

// durationsInMS writes a time.Duration attribute "x" as "x_ms", a float
// number of milliseconds, which people and log queries read more easily than
// the nanoseconds slog writes by default.
func durationsInMS(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		return slog.Float64(a.Key+"_ms", float64(a.Value.Duration().Microseconds())/1000)
	}
	return a
}

// banner is what serve tells a person at a terminal when it starts.
type banner struct {
	base  string // the API's base URL
	store string // as it may be shown
	data  *dataset.Snapshot
	demo  bool
	mem   memorySize          // --memory-budget
	gen   *dataset.DemoSource // the demo data on demand, if the store holds them
	mir   *mirrorWatch        // the store's mirrors, if any
}

// writeBanner writes b as a few aligned lines: one for each dataset of the
// catalogue, with the span of the data the snapshot holds.
func writeBanner(w io.Writer, b banner) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\nenergyapi is serving\n")
	fmt.Fprintf(tw, "  API\t%s\n", b.base)
	fmt.Fprintf(tw, "  store\t%s\n", b.store)
	fmt.Fprintf(tw, "  memory budget\t%s\n", b.mem.String())
	if b.gen != nil {
		in := b.gen.Input()
		fmt.Fprintf(tw, "  demo data\t%s to %s (seed %d) and the statistics from %d: each part generated when first asked, then kept in the store\n",
			in.First.DMY(), in.Last.DMY(), in.Seed, in.StatsFirst)
	}
	b.mir.writeBanner(tw)
	for _, d := range b.data.Catalog.All() {
		fmt.Fprintf(tw, "  %s\t%s\n", d.Name, b.coverage(d))
	}
	if b.demo {
		form := url.Values{"grant_type": {"client_credentials"}, "client_id": {demoClientID}, "client_secret": {demoClientSecret}}
		fmt.Fprintf(tw, "  demo client\t%s / %s\n", demoClientID, demoClientSecret)
		fmt.Fprintf(tw, "  get a token\tcurl -s -X POST %s/public-api/access-token -d '%s'\n", b.base, form.Encode())
	}
	fmt.Fprintf(tw, "  stop\tCtrl-C\n\n")
	_ = tw.Flush() // a banner that cannot be written is no reason to stop
}

// coverage says what the snapshot serves of d. A derived dataset's parts
// are derived when a request first needs them, and the banner is written
// before the server serves: it names the source rather than derive every
// part first.
func (b banner) coverage(d *dataset.Dataset) string {
	if d.Derive == nil {
		return coverage(d, b.data.Table(d))
	}
	if src, ok := b.data.Catalog.Lookup(d.Derive.From); ok {
		if _, _, ok := b.data.Table(src).Coverage(); ok {
			return "derived from " + src.Name + " when first asked"
		}
	}
	return "none served"
}

// coverage says what span of d the table holds, at d's grain: years for a
// yearly dataset (thermoelectric production), Europe/Rome days otherwise.
func coverage(d *dataset.Dataset, t *dataset.Table) string {
	first, last, ok := t.Coverage()
	if !ok {
		return "none served"
	}
	layout := "02/01/2006"
	switch d.Grain {
	case dataset.Year:
		layout = "2006"
	case dataset.Month:
		layout = "01/2006"
	}
	from, to := time.Unix(first, 0).In(energy.Rome()).Format(layout), time.Unix(last, 0).In(energy.Rome()).Format(layout)
	span := from + " to " + to
	if d.Grain == dataset.Year {
		span = from + "-" + to
	}
	if from == to {
		span = from
	}
	return fmt.Sprintf("%s (%s records)", span, count(t.Records()))
}

// dialAddr is addr as a client dials it: a server listening on every
// interface is reached on loopback from this machine.
func dialAddr(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return addr.String()
	}
	return net.JoinHostPort("127.0.0.1", fmt.Sprint(tcp.Port))
}
