// Command demoload drives a server of demo data as many clients do at
// once: each asks a random covered month (a year, for yearly statistics)
// of a random dataset of GET /catalog, again and again, for a while. It
// reports what came back: answers with records, empty answers (which
// must not happen inside the demo range), 503 with and without
// Retry-After, other statuses, and latencies. scripts/demo-on-demand runs
// it against a fresh serve --demo.
//
// Usage: go run ./scripts/demoload -url http://127.0.0.1:8080 -clients 256 -duration 30s
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

type dataset struct {
	Name, Path, Array, Granularity string
	Parameters                     []struct {
		Name     string
		Kind     string
		Required bool
		Values   []string
		MaxDays  int `json:"max_days"`
	}
	Coverage *struct{ First, Last string }
}

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "base URL of a server of demo data (loopback)")
	clients := flag.Int("clients", 256, "clients asking at once")
	duration := flag.Duration("duration", 30*time.Second, "how long they ask (at most 5m)")
	seed := flag.Uint64("seed", 1, "seed of the random choices")
	flag.Parse()
	if *duration > 5*time.Minute || !strings.HasPrefix(*base, "http://127.0.0.1:") {
		fmt.Fprintln(os.Stderr, "demoload: -duration at most 5m, -url on 127.0.0.1")
		os.Exit(2)
	}
	if err := run(*base, *clients, *duration, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "demoload:", err)
		os.Exit(1)
	}
}

func run(base string, clients int, duration time.Duration, seed uint64) error {
	tok, err := token(base)
	if err != nil {
		return err
	}
	var cat struct{ Datasets []dataset }
	if err := getJSON(base+"/catalog", &cat); err != nil {
		return err
	}
	var ds []dataset
	for _, d := range cat.Datasets {
		if d.Coverage != nil {
			ds = append(ds, d)
		}
	}
	var mu sync.Mutex
	counts := map[string]int{}
	var took []time.Duration
	end := time.Now().Add(duration)
	var wg sync.WaitGroup
	for c := range clients {
		r := rand.New(rand.NewPCG(seed, uint64(c)))
		wg.Go(func() {
			for time.Now().Before(end) {
				d := ds[r.IntN(len(ds))]
				q := monthQuery(d, r)
				t0 := time.Now()
				kind := ask(base+q, tok, d.Array)
				mu.Lock()
				counts[kind]++
				took = append(took, time.Since(t0))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(took)
	fmt.Printf("%d datasets, %d clients, %s: %d requests\n", len(ds), clients, duration, len(took))
	for _, k := range slices.Sorted(mapsKeys(counts)) {
		fmt.Printf("  %-28s %d\n", k, counts[k])
	}
	if n := len(took); n > 0 {
		fmt.Printf("  latency p50 %v, p99 %v, max %v\n", took[n/2].Round(time.Millisecond), took[n*99/100].Round(time.Millisecond), took[n-1].Round(time.Millisecond))
	}
	return nil
}

func mapsKeys(m map[string]int) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// monthQuery returns a query of d for a random month (or year) of its
// coverage, required filters at their first value.
func monthQuery(d dataset, r *rand.Rand) string {
	first, _ := time.Parse(time.DateOnly, d.Coverage.First)
	last, _ := time.Parse(time.DateOnly, d.Coverage.Last)
	months := (last.Year()-first.Year())*12 + int(last.Month()-first.Month())
	m := time.Date(first.Year(), first.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, r.IntN(months+1), 0)
	if d.Granularity == "year" || d.Granularity == "month" {
		m = time.Date(first.Year()+r.IntN(last.Year()-first.Year()+1), time.January, 1, 0, 0, 0, 0, time.UTC)
	}
	lastDay := m.AddDate(0, 1, -1)
	if lastDay.After(last) {
		lastDay = last
	}
	if m.Before(first) {
		m = first
	}
	q := url.Values{}
	for _, p := range d.Parameters {
		switch {
		case !p.Required:
		case p.Name == "dateTo" && p.MaxDays > 0 && p.MaxDays < 28:
			q.Set(p.Name, m.AddDate(0, 0, p.MaxDays-1).Format("02/01/2006")) // the longest period it allows
		case p.Name == "dateTo":
			q.Set(p.Name, lastDay.Format("02/01/2006"))
		case p.Kind == "date":
			q.Set(p.Name, m.Format("02/01/2006"))
		case p.Name == "year":
			q.Set(p.Name, m.Format("2006"))
		case p.Name == "month":
			q.Set(p.Name, m.Format("01"))
		case p.Kind == "enum" && len(p.Values) > 0:
			q.Set(p.Name, p.Values[0])
		}
	}
	return d.Path + "?" + q.Encode()
}

// ask sends one request and names what came back.
func ask(u, tok, array string) string {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "transport error"
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	switch {
	case resp.StatusCode == 200 && strings.Contains(string(b), `"`+array+`":[{`):
		return "200 with records"
	case resp.StatusCode == 200:
		return "200 without records: " + u
	case resp.StatusCode == 503 && resp.Header.Get("Retry-After") != "":
		return "503 with Retry-After"
	}
	return fmt.Sprintf("%d: %s", resp.StatusCode, u[strings.Index(u, "/"+strings.Split(u, "/")[3]):strings.Index(u, "?")])
}

func token(base string) (string, error) {
	resp, err := http.PostForm(base+"/public-api/access-token", url.Values{"grant_type": {"client_credentials"}, "client_id": {"demo"}, "client_secret": {"demo-secret"}})
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var t struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil || t.AccessToken == "" {
		return "", fmt.Errorf("token: status %d, %v", resp.StatusCode, err)
	}
	return t.AccessToken, nil
}

func getJSON(u string, v any) error {
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("GET %s: %d", u, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}
