package main

import (
	"errors"
	"flag"
	"log/slog"
	"math"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/bulk"
	"github.com/energyapi/energyapi/internal/dataset"
)

// memorySize is the --memory-budget of serve: bytes, written with a unit.
type memorySize int64

const defaultMemoryBudget memorySize = 256 << 20

// memoryMargin returns what the Go runtime may hold beyond a budget of
// size (the catalogue and snapshots, connections, answers being encoded
// and the garbage of cold reads): its soft memory limit is the budget plus
// this. The binary's pages and SQLite's caches are outside it, about 35
// MiB together, so a process's RSS is about the budget, this and those.
// On a twenty-year store read cold at 1,300 answers a second
// (scripts/scale), 32 MiB kept the peak RSS at the budget plus 93 MiB,
// 48 MiB let it reach the budget plus 133, and 24 MiB cost a third of the
// answers to collection; a larger budget gets an eighth of itself.
func memoryMargin(size memorySize) int64 {
	return max(32<<20, int64(size)/8)
}

// register adds --memory-budget to fs, with its default.
func (m *memorySize) register(fs *flag.FlagSet) {
	*m = defaultMemoryBudget
	fs.Var(m, "memory-budget", "memory for decoded parts and encoded answers kept for reuse, least recently used out first: "+
		"a `SIZE` such as 256MiB, 1GiB or 300MB (parts beyond it are read from the store again when asked for)")
}

// units are the suffixes a memory size takes, by their multiple.
var units = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1},
}

// Set implements flag.Value.
func (m *memorySize) Set(s string) error {
	errWant := errors.New("want a size with a unit, such as 512MiB, 1GiB or 300MB (KiB, MiB, GiB, KB, MB, GB or B), of at least 1MiB")
	num, mult := s, int64(0)
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			num, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if mult == 0 || err != nil || v <= 0 || math.IsInf(v, 0) || v*float64(mult) > math.MaxInt64/2 || v*float64(mult) < 1<<20 {
		return errWant
	}
	*m = memorySize(v * float64(mult))
	return nil
}

// String implements flag.Value: in the largest unit that keeps it whole,
// binary first, else in bytes.
func (m *memorySize) String() string {
	if m == nil {
		return ""
	}
	v := int64(*m)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"GB", 1e9}, {"MB", 1e6}, {"KiB", 1 << 10}, {"KB", 1e3}} {
		if v != 0 && v%u.mult == 0 {
			return strconv.FormatInt(v/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(v, 10) + "B"
}

// newMemoryBudget returns the budget of size that the server's caches
// share, and sets the Go runtime's soft memory limit to size plus
// memoryMargin(size), so that the collector works harder before the process
// passes it, unless GOMEMLIMIT sets a limit of its own.
func newMemoryBudget(size memorySize, goMemLimit bool, log *slog.Logger) *budget.Budget {
	if !goMemLimit {
		debug.SetMemoryLimit(int64(size) + memoryMargin(size))
	}
	log.Debug("memory budget", "bytes", int64(size), "go_memory_limit", debug.SetMemoryLimit(-1))
	return budget.New(int64(size))
}

// answersMemory is where the encoded answers are kept: in the memory
// budget the live data's decoded parts use, or nowhere with
// --answer-cache-mb 0 (every answer encoded afresh).
func answersMemory(cfg serveConfig, live *dataset.Live) *budget.Budget {
	if cfg.answerCacheMB == 0 {
		return nil
	}
	return live.Budget()
}

// bulkFiles returns the producer of the bulk files with --bulk, nil
// without: its files are kept in the memory budget the decoded parts and
// answers share, and produced again, the same bytes, once let go.
func bulkFiles(cfg serveConfig, p *parts) *bulk.Producer {
	if !cfg.bulk {
		return nil
	}
	return bulk.New(p.cat, p.live.Budget())
}
