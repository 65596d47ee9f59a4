package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/limit"
)

// plansSubcommands are what "plans" does.
func plansSubcommands() []string { return []string{"set", "list", "delete"} }

// plansHelp is the -h text of the plans commands and of the clients
// commands about plans.
func plansHelp(name string) (string, bool) {
	switch name {
	case "plans", "plans set", "plans list", "plans delete":
		return `Usage:
  energyapi plans set NAME [--per-second N --burst N --per-day N --max-range-days N]
                                            create or replace a plan (0: no limit)
  energyapi plans list                      one JSON object per plan
  energyapi plans delete NAME               delete a plan; its clients get the default plan

Serving processes read plans and clients' plans every --usage-flush.
`, true
	case "clients set-plan":
		return `Usage: energyapi clients set-plan [--db D] ID PLAN

Give the client a plan ("" for the default plan).
`, true
	case "clients usage":
		return `Usage: energyapi clients usage [--db D] [--days N] [ID]

Print the calls of every client (or of ID) over the last N days, as the
servers have written them (every --usage-flush), one JSON object per client,
day and dataset.
`, true
	}
	return "", false
}

func runPlans(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("plans needs a subcommand: set, list or delete")
	}
	sub, args := args[0], args[1:]
	if isHelpArg(sub) {
		text, _ := plansHelp("plans")
		return &helpError{text: text}
	}
	if !slices.Contains(plansSubcommands(), sub) {
		return unknownWord("plans subcommand", sub, "energyapi plans -h", plansSubcommands())
	}
	flags := newFlagSet("plans "+sub, stderr)
	db := dbFlag(flags)
	var p limit.Plan
	if sub == "set" {
		flags.IntVar(&p.PerSecond, "per-second", 0, "calls per second (0: no limit)")
		flags.IntVar(&p.Burst, "burst", 0, "calls a client may make at once before --per-second applies (the standard style's token bucket; default --per-second)")
		flags.IntVar(&p.PerDay, "per-day", 0, "calls per UTC day (0: no limit)")
		flags.IntVar(&p.MaxRangeDays, "max-range-days", 0, "longest date range of one call in days (0: the server's --max-range-days)")
	}
	if err := parseFlags(flags, args, getenv); err != nil {
		return err
	}
	if want := map[string]int{"set": 1, "list": 0, "delete": 1}[sub]; flags.NArg() != want {
		return usagef("plans %s takes %d argument(s)", sub, want)
	}
	p.Name = flags.Arg(0)
	if sub == "set" {
		if err := p.Check(); err != nil {
			return usagef("%s", err.Error())
		}
	}
	ps, closeStore, err := openPlanStore(ctx, *db)
	if err != nil {
		return err
	}
	defer closeStore()
	switch sub {
	case "set":
		if err := ps.PutPlan(ctx, p); err != nil {
			return err
		}
		return json.NewEncoder(stdout).Encode(planJSON(p))
	case "delete":
		return ps.DeletePlan(ctx, p.Name)
	}
	plans, err := ps.Plans(ctx)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for _, p := range plans {
		if err := enc.Encode(planJSON(p)); err != nil {
			return err
		}
	}
	return nil
}

// openPlanStore opens the store for the plans commands.
func openPlanStore(ctx context.Context, dsn string) (planStore, func(), error) {
	st, err := openStore(ctx, dsn, false)
	if err != nil {
		return nil, nil, err
	}
	ps, ok := st.(planStore)
	if !ok {
		st.Close()
		return nil, nil, errors.New("the store keeps no plans")
	}
	return ps, func() { st.Close() }, nil
}

// clientUsageJSON is one line of "clients usage".
type clientUsageJSON struct {
	ClientID string `json:"client_id"`
	Date     string `json:"date"`
	Dataset  string `json:"dataset"`
	Calls    int64  `json:"calls"`
}

// runClientsPlan runs "clients set-plan" and "clients usage".
func runClientsPlan(ctx context.Context, sub string, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	flags := newFlagSet("clients "+sub, stderr)
	db := dbFlag(flags)
	days := 30
	if sub == "usage" {
		flags.IntVar(&days, "days", 30, "how many days back, today included")
	}
	if err := parseFlags(flags, args, getenv); err != nil {
		return err
	}
	switch {
	case sub == "set-plan" && flags.NArg() != 2:
		return usagef("clients set-plan needs a client ID and a plan")
	case sub == "usage" && flags.NArg() > 1:
		return usagef("clients usage takes at most one client ID")
	case days < 1 || days > 3660:
		return invalidValue("--days", strconv.Itoa(days), "want between 1 and 3660")
	}
	ps, closeStore, err := openPlanStore(ctx, *db)
	if err != nil {
		return err
	}
	defer closeStore()
	if sub == "set-plan" {
		return ps.SetClientPlan(ctx, flags.Arg(0), flags.Arg(1))
	}
	today := time.Now().UTC()
	rows, err := ps.Usage(ctx, flags.Arg(0), today.AddDate(0, 0, 1-days).Format(limit.DayLayout), today.Format(limit.DayLayout))
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for _, r := range rows {
		if err := enc.Encode(clientUsageJSON{ClientID: r.ClientID, Date: r.Day, Dataset: r.Dataset, Calls: r.Calls}); err != nil {
			return err
		}
	}
	return nil
}

// planFlag adds --plan to "clients create".
func planFlag(flags *flag.FlagSet) *string {
	return flags.String("plan", "", "the client's plan (default: the server's --default-plan)")
}

// checkPlanExists returns an error with code NotFound unless plan is "" or
// names a plan in st, so that "clients create --plan" with a typo creates
// no client.
func checkPlanExists(ctx context.Context, st store, plan string) error {
	if plan == "" {
		return nil
	}
	ps, ok := st.(planStore)
	if !ok {
		return errors.New("the store keeps no plans")
	}
	plans, err := ps.Plans(ctx)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(plans, func(p limit.Plan) bool { return p.Name == plan }) {
		return energy.Errorf(energy.NotFound, "plan %q not found", plan)
	}
	return nil
}
