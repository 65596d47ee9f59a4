package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The dataset part of the OpenAPI document is generated from the
// catalogue, so that a dataset is documented by its declaration alone;
// openapi.yaml holds what no descriptor says (tokens, metadata, errors).

// ynode builders keep mapping keys in the order written.
func ymap(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, ystr(kv[i].(string)), yval(kv[i+1]))
	}
	return n
}

func yval(v any) *yaml.Node {
	switch v := v.(type) {
	case *yaml.Node:
		return v
	case string:
		return ystr(v)
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(v)}
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(v)}
	case []string:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, s := range v {
			n.Content = append(n.Content, ystr(s))
		}
		return n
	case []*yaml.Node:
		return &yaml.Node{Kind: yaml.SequenceNode, Content: v}
	}
	panic(fmt.Sprintf("openapi: no YAML form for %T", v)) // a mistake in this file
}

func ystr(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func yref(to string) *yaml.Node { return ymap("$ref", to) }

// mapValue returns the value under key in mapping n, adding an empty
// mapping there if it is missing.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	v := &yaml.Node{Kind: yaml.MappingNode}
	n.Content = append(n.Content, ystr(key), v)
	return v
}

// insertAt inserts key: v into mapping n before the entry named before
// (at the end if there is none).
func insertAt(n *yaml.Node, before, key string, v *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == before {
			n.Content = append(n.Content[:i], append([]*yaml.Node{ystr(key), v}, n.Content[i:]...)...)
			return
		}
	}
	n.Content = append(n.Content, ystr(key), v)
}

// buildOpenAPI returns the whole document: openapi.yaml with a path and two
// schemas per dataset of c.
func buildOpenAPI(static string, c *dataset.Catalog) ([]byte, error) {
	root, err := openAPINode(static, c)
	if err != nil {
		return nil, err
	}
	return marshalOpenAPI(root)
}

// marshalOpenAPI writes the document's nodes as YAML.
func marshalOpenAPI(root *yaml.Node) ([]byte, error) {
	out, err := yaml.Marshal(root)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	return out, nil
}

// openAPINode is buildOpenAPI's document as nodes.
func openAPINode(static string, c *dataset.Catalog) (*yaml.Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(static), &root); err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	doc := root.Content[0]
	paths, schemas := mapValue(doc, "paths"), mapValue(mapValue(doc, "components"), "schemas")
	for _, d := range c.All() {
		name := schemaName(d)
		insertAt(paths, "/catalog", d.Path(), pathItem(d, name, 0))
		for i, alias := range d.Aliases {
			insertAt(paths, "/catalog", alias, pathItem(d, name, i+1))
		}
		schemas.Content = append(schemas.Content, ystr(name+"Response"), responseSchema(d, name), ystr(name+"Record"), recordSchema(d))
		for i := range d.Views {
			v := &d.Views[i]
			if !v.Reshapes() { // a former prefix: the same answers
				item := pathItem(d, name, len(d.Aliases)+i+1)
				noteDeprecation(item, d, v)
				insertAt(paths, "/catalog", v.Path, item)
				continue
			}
			vd, vname := d.Viewed(v), viewSchemaName(v)
			item := pathItem(vd, vname, 0)
			noteDeprecation(item, d, v)
			insertAt(paths, "/catalog", v.Path, item)
			schemas.Content = append(schemas.Content, ystr(vname+"Response"), responseSchema(vd, vname), ystr(vname+"Record"), recordSchema(vd))
		}
	}
	return &root, nil
}

// viewSchemaName names a reshaping view's schemas after its path:
// /transparency/v1.0/gettotalload, TransparencyV10Gettotalload.
func viewSchemaName(v *dataset.View) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(v.Path, func(r rune) bool { return r == '-' || r == '/' || r == '.' }) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:]) // "v1", "0" become V1, 0
	}
	return b.String()
}

// noteDeprecation marks the GET of a view's path item deprecated and says
// what its headers announce and what replaces it.
func noteDeprecation(item *yaml.Node, d *dataset.Dataset, v *dataset.View) {
	if v.Status() != dataset.StatusDeprecated {
		return
	}
	op := mapValue(item, "get")
	if !slices.ContainsFunc(op.Content, func(n *yaml.Node) bool { return n.Value == "deprecated" }) {
		op.Content = append(op.Content, ystr("deprecated"), yval(true))
	}
	desc := mapValue(op, "description")
	note := fmt.Sprintf("**Deprecated** (%s). Every answer carries `Deprecation: @%d` (RFC 9745, %s), `Link: <%s>; rel=\"successor-version\"`",
		v.Path, v.Deprecated.Unix(), v.Deprecated.UTC().Format("2 January 2006"), v.SuccessorOf(d))
	if !v.Sunset.IsZero() {
		note += fmt.Sprintf(" and `Sunset: %s` (RFC 8594)", v.Sunset.UTC().Format(http.TimeFormat))
	}
	desc.Value = note + ". Use " + v.SuccessorOf(d) + ".\n\n" + desc.Value
}

// schemaName turns a resource into a schema name: total-load, TotalLoad.
func schemaName(d *dataset.Dataset) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(d.Resource, func(r rune) bool { return r == '-' || r == '/' || r == '_' }) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	if d.Area == "market" || d.Area == "fees" {
		return strings.ToUpper(d.Area[:1]) + d.Area[1:] + b.String()
	}
	return b.String()
}

// pathItem documents d's path, or with alias > 0 its alias-th further path:
// its GET, and the 405 that answers other methods there.
func pathItem(d *dataset.Dataset, name string, alias int) *yaml.Node {
	desc := d.Doc + "\n\n" + sourceNote(d.Source) + grainChangeNotes(d)
	var params []*yaml.Node
	empty := false // whether some filter value gets the empty body
	for _, p := range d.Parameters() {
		items, note, e := queryParam(d, p)
		params = append(params, items...)
		desc += note
		empty = empty || e
	}
	params = append(params, yref("#/components/parameters/businessID"),
		ymap("name", "If-None-Match", "in", "header", "description", "Entity tags of answers the caller holds: an answer whose ETag is among them gets 304 with no body.", "schema", ymap("type", "string")),
		ymap("name", "If-Modified-Since", "in", "header", "description", "An HTTP date: an answer whose Last-Modified is not later gets 304 with no body. Ignored when If-None-Match is present (RFC 9110 13.2.2).", "schema", ymap("type", "string")),
		ymap("name", "format", "in", "query", "required", false, "description", "`csv` or `json`: the representation, overriding the Accept header, for links that cannot set headers. Any other value is answered 406.", "schema", ymap("type", "string", "pattern", "^(csv|json)$")))
	if empty {
		desc += "**Empty body.** A filter value outside its list is answered 200 with an empty body (`Content-Length: 0`), not an error; read it as zero records. Known values that match nothing give the JSON answer with an empty array.\n"
	}
	if d.Validation == dataset.ValidationV1 {
		desc += "**Errors.** As the v1.0 pages document, invalid input is answered 406 with status `ERROR` and the message \"Input Validation Error: the value entered is incorrect or does not conform to the expected format. Value entered: …\", followed by the parameter and value at fault, in the result field `" + d.ResultMessageKey() + "`. 406 also answers an Accept header that admits neither JSON nor CSV.\n"
	}
	opID := "get" + name
	op := ymap(
		"tags", []string{d.Area},
		"operationId", opID,
		"summary", d.Title,
		"description", desc,
	)
	if alias > 0 {
		op.Content[3] = ystr(fmt.Sprintf("%sAlias%d", opID, alias))
		op.Content = append(op.Content, ystr("deprecated"), yval(true))
	}
	op.Content = append(op.Content,
		ystr("security"), yval([]*yaml.Node{ymap("clientCredentials", []string{})}),
		ystr("parameters"), yval(params),
		ystr("responses"), operationResponses(d, name, empty))
	return ymap("x-energyapi-other-methods", yref("#/components/responses/MethodNotAllowed"), "get", op)
}

// queryParam documents query parameter p of d: its parameter objects, what
// the operation's description says of it, and whether a value of it can get
// the empty body.
func queryParam(d *dataset.Dataset, p dataset.Param) (items []*yaml.Node, note string, empty bool) {
	switch p.Kind {
	case dataset.TimeZoneParam:
		return []*yaml.Node{ymap("name", p.Name, "in", "query", "description", p.Doc+" Letter case is ignored.", "schema", ymap("type", "string"))}, "", false
	case dataset.AsOfParam, dataset.ChangedSinceParam:
		return []*yaml.Node{ymap("name", p.Name, "in", "query", "description", p.Doc+" A malformed instant is answered 400.", "schema", ymap("type", "string", "format", "date-time"))}, "", false
	case dataset.IncludeParam:
		return []*yaml.Node{ymap("name", p.Name, "in", "query", "description", p.Doc+" Any other value is answered 400.", "style", "form", "explode", true,
			"schema", ymap("type", "array", "items", ymap("type", "string", "enum", d.EnumValues(p))))}, "", false
	case dataset.DateRange:
		items, note = dateRangeParams(p)
		return items, note, false
	case dataset.DayParam:
		items, note = dayParams(p)
		return items, note, false
	case dataset.YearParam:
		items = []*yaml.Node{ymap("name", p.Name, "in", "query", "required", p.Required, "description", p.Doc, "schema", ymap("type", "integer"))}
		if d.Grain >= dataset.Month {
			return items, "A year for which no data is stored gives the empty body.\n\n", true
		}
		return items, "", false
	case dataset.MonthParam:
		if p.MonthNames {
			return []*yaml.Node{ymap("name", p.Name, "in", "query", "required", p.Required, "description", p.Doc+" Values: "+strings.Join(energy.MonthNames().Values(), "; ")+
				" (or 1 to 12); any other name gives the empty body.", "schema", ymap("type", "string"))}, "", true
		}
		return []*yaml.Node{ymap("name", p.Name, "in", "query", "required", p.Required, "description", p.Doc+" 1 to 12, zero-padded or not.", "schema", ymap("type", "string", "pattern", "^(0?[1-9]|1[0-2])$"))}, "", false
	case dataset.Enum:
		return []*yaml.Node{enumParam(d, p)}, "", true
	case dataset.ResolutionParam:
		return []*yaml.Node{yref("#/components/parameters/resolution")}, resolutionNote(d), false
	case dataset.LimitParam:
		return []*yaml.Node{yref("#/components/parameters/limit")}, "", false
	case dataset.CursorParam:
		return []*yaml.Node{yref("#/components/parameters/cursor")}, "", false
	}
	return nil, "", false
}

// resolutionNote says at which resolutions d answers and how each field
// aggregates, or why it cannot.
func resolutionNote(d *dataset.Dataset) string {
	if why := d.ResolutionRefusal(); why != "" {
		return "**Resolution.** Not available (answered 400): " + why + ".\n\n"
	}
	rs := d.EnumValues(dataset.Param{Kind: dataset.ResolutionParam})
	var aggs []string
	for _, f := range d.Fields {
		if f.Agg != 0 {
			aggs = append(aggs, "`"+f.Name+"` "+f.Agg.String())
		}
	}
	return "**Resolution.** " + strings.Join(rs, ", ") + "; each bucket's " + strings.Join(aggs, ", ") + ", by the other text fields.\n\n"
}

// dateRangeParams documents a DateRange: its two parameters, and the range
// it may span.
func dateRangeParams(p dataset.Param) (items []*yaml.Node, note string) {
	days := "the server's limit (60 days by default)"
	switch {
	case p.SameDay:
		days = "one day: the two dates must be equal"
	case p.MaxDays > 0:
		days = fmt.Sprintf("%d days", p.MaxDays)
	case p.MaxDays < 0:
		days = "any number of days"
	}
	note = fmt.Sprintf("`%s` and `%s` are Europe/Rome days, both included; a range may span %s. The success message repeats them zero-padded.\n\n", p.Name, p.To, days)
	schema, format := "QueryDate", "`d/m/yyyy`"
	if p.ShortYear {
		schema, format = "QueryDateShortYear", "`d/m/yyyy` or `d/m/yy` (two-digit years are 20yy)"
	}
	return []*yaml.Node{
		ymap("name", p.Name, "in", "query", "required", true, "description", "First day, "+format+".", "schema", yref("#/components/schemas/"+schema)),
		ymap("name", p.To, "in", "query", "required", true, "description", "Last day, included, "+format+"; not before `"+p.Name+"`.", "schema", yref("#/components/schemas/"+schema)),
	}, note
}

// dayParams documents a DayParam: a parameter for its name and for each
// alias.
func dayParams(p dataset.Param) (items []*yaml.Node, note string) {
	schema, format := "QueryDate", "`d/m/yyyy`"
	if p.ShortYear {
		schema, format = "QueryDateShortYear", "`d/m/yyyy` or `d/m/yy`"
	}
	note = fmt.Sprintf("`%s` is one Europe/Rome day, %s; %s is read when it is absent. The success message repeats it zero-padded.\n\n", p.Name, format, strings.Join(p.Aliases, ", "))
	for _, name := range append([]string{p.Name}, p.Aliases...) {
		items = append(items, ymap("name", name, "in", "query", "required", false, "description", p.Doc, "schema", yref("#/components/schemas/"+schema)))
	}
	return items, note
}

// enumParam documents an Enum with its values.
func enumParam(d *dataset.Dataset, p dataset.Param) *yaml.Node {
	values := d.EnumValues(p)
	schema := ymap("type", "string")
	if p.Many {
		pd := p.Doc + " Values: " + strings.Join(values, "; ") + ". Repeat the key for several (a comma inside a value is part of it); any other value gives the empty body."
		return ymap("name", p.Name, "in", "query", "required", p.Required, "description", pd, "style", "form", "explode", true, "schema", ymap("type", "array", "items", schema))
	}
	pd := p.Doc + " Values: " + strings.Join(values, "; ") + ". Matched without regard to letter case, spacing and hyphens; any other value gives the empty body."
	return ymap("name", p.Name, "in", "query", "required", p.Required, "description", pd, "schema", schema)
}

// operationResponses documents the answers of d's operation; with empty, also the
// empty body a filter value outside its list gets.
func operationResponses(d *dataset.Dataset, name string, empty bool) *yaml.Node {
	content := ymap(
		"application/json", ymap("schema", yref("#/components/schemas/"+name+"Response")),
		"text/csv", ymap("schema", ymap("type", "string", "description", "A header row with the field names, then one row per record.")))
	if empty {
		content.Content = append(content.Content, ystr("*/*"), ymap("schema", yref("#/components/schemas/EmptyBody")))
	}
	invalid := ymap("400", yref("#/components/responses/InvalidInput"), "406", yref("#/components/responses/NotAcceptable"))
	if d.Validation == dataset.ValidationV1 {
		invalid = ymap("406", ymap("description", "Invalid input (a parameter missing, repeated or malformed, a reversed or too long range), or an Accept header that admits neither JSON nor CSV.",
			"headers", ymap("X-Request-Id", yref("#/components/headers/X-Request-Id")),
			"content", ymap("application/json", ymap("schema", yref("#/components/schemas/ErrorResponseV1")))))
	}
	rs := ymap(
		"200", ymap("description", "The records, in the dataset's order.", "headers", ymap(
			"X-Request-Id", yref("#/components/headers/X-Request-Id"),
			"businessID", yref("#/components/headers/businessID"),
			"ETag", ymap("description", "A strong tag of the data the answer covers: it changes when an import changes a month (or year) the answer covers, and only then.", "schema", ymap("type", "string")),
			"Last-Modified", ymap("description", "When the last import that changed a month (or year) the answer covers wrote it; absent when the answer covers no stored data.", "schema", ymap("type", "string")),
			"Cache-Control", ymap("description", "private, no-cache unless the server is configured otherwise: keep, but revalidate with If-None-Match.", "schema", ymap("type", "string")),
			"X-Resolution", ymap("description", "With `resolution`: the time step of the records (PT15M, PT1H, P1D or P1M), each dated at its step's start. Absent otherwise.", "schema", ymap("type", "string", "enum", []string{"PT15M", "PT1H", "P1D", "P1M"})),
			"Link", ymap("description", "With `limit`, while records remain: `<PATH?…&cursor=…>; rel=\"next\"`, the next page, as of the data version of the first. Absent otherwise.", "schema", ymap("type", "string")),
			"RateLimit-Policy", yref("#/components/headers/RateLimit-Policy"),
			"RateLimit", yref("#/components/headers/RateLimit")), "content", content),
		"304", ymap("description", "Not modified: If-None-Match named the answer's current ETag, or without If-None-Match, If-Modified-Since is not earlier than its Last-Modified. No body; ETag, Last-Modified and Cache-Control as the 200 would have them.", "headers", ymap(
			"ETag", ymap("schema", ymap("type", "string")),
			"Last-Modified", ymap("schema", ymap("type", "string")))))
	rs.Content = append(rs.Content, invalid.Content...)
	rs.Content = append(rs.Content, ymap(
		"401", yref("#/components/responses/Unauthorized"),
		"403", yref("#/components/responses/OverQps"),
		"429", yref("#/components/responses/TooManyRequests"),
		"503", yref("#/components/responses/Unavailable"),
		"default", yref("#/components/responses/Error")).Content...)
	return rs
}

// sourceNote tells where a dataset's shape comes from, as GET /catalog does.
func sourceNote(s dataset.Source) string {
	if s.Ref == "" {
		return ""
	}
	note := fmt.Sprintf("**Source.** %s (confidence %s).", s.Ref, s.Confidence)
	if s.Guess != "" {
		note += " Still a guess: " + s.Guess
	}
	return note + "\n\n"
}

// grainChangeNotes tells from which days d's records come at another
// grain, and where that was read, as GET /catalog's grain_changes do.
func grainChangeNotes(d *dataset.Dataset) string {
	var b strings.Builder
	for _, c := range d.GrainChanges {
		fmt.Fprintf(&b, "**Grain.** Records every %s from %s (%s).", c.Grain, c.From, strings.TrimSuffix(sourceNote(c.Source), "\n\n"))
		b.WriteString("\n\n")
	}
	return b.String()
}

func responseSchema(d *dataset.Dataset, name string) *yaml.Node {
	result := "SuccessResult"
	if d.ResultMessageKey() == "messagge" {
		result = "SuccessResultV1"
	}
	return ymap("type", "object", "required", []string{"result", d.Array}, "additionalProperties", false,
		"properties", ymap(
			"result", yref("#/components/schemas/"+result),
			d.Array, ymap("type", "array", "items", yref("#/components/schemas/"+name+"Record"))))
}

// Patterns of the values a record field holds.
const (
	patternInstant = `^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$`
	patternOffset  = `^[+-][0-9]{2}:[0-9]{2}$`
	patternItalian = `^(-?[0-9]{1,3}(\.[0-9]{3})*,[0-9]+)?$`
	patternPoint   = `^(-?[0-9]+(\.[0-9]+)?)?$`
)

// layoutPattern is the pattern of the values a Go time layout writes:
// "2006/01/02" gives ^([0-9]{4}/[0-9]{2}/[0-9]{2})?$.
func layoutPattern(layout string) string {
	r := strings.NewReplacer("2006", "[0-9]{4}", "01", "[0-9]{2}", "02", "[0-9]{2}", "15", "[0-9]{2}", "04", "[0-9]{2}", "05", "[0-9]{2}")
	return "^(" + r.Replace(layout) + ")?$" // empty when not published
}

func recordSchema(d *dataset.Dataset) *yaml.Node {
	props := ymap()
	add := func(name string, kv ...any) {
		props.Content = append(props.Content, ystr(name), ymap(append([]any{"type", "string"}, kv...)...))
	}
	for _, f := range d.Fields {
		if f.Hidden {
			continue
		}
		switch f.Kind {
		case dataset.Instant:
			add(f.Name, "description", f.Doc, "pattern", patternInstant)
			if f.TZ != "" {
				add(f.TZ, "description", "IANA time zone of "+f.Name+": Europe/Rome, or UTC when timeZone=UTC was asked for.", "enum", []string{"Europe/Rome", "UTC"})
			}
			if f.Offset != "" {
				add(f.Offset, "description", "UTC offset of "+f.Name+": +01:00 or +02:00 in Europe/Rome, +00:00 in UTC.", "pattern", patternOffset)
			}
		case dataset.YearOf:
			add(f.Name, "description", f.Doc, "pattern", `^[0-9]{4}$`)
		case dataset.MonthOf:
			add(f.Name, "description", f.Doc, "enum", energy.MonthNames().Values())
		case dataset.DateOf:
			add(f.Name, "description", f.Doc)
		case dataset.Text:
			if f.Layout != "" {
				add(f.Name, "description", f.Doc, "pattern", layoutPattern(f.Layout))
				continue
			}
			add(f.Name, "description", f.Doc)
		case dataset.Zone:
			add(f.Name, "description", f.Doc, "enum", []string{"Europe/Rome", "UTC"})
		case dataset.Number:
			pattern := patternPoint
			if f.Format.Italian {
				pattern = patternItalian
			}
			if f.Null {
				props.Content = append(props.Content, ystr(f.Name), ymap("description", f.Doc+" Null when there is none.",
					"oneOf", []*yaml.Node{ymap("type", "null"), ymap("type", "string", "pattern", pattern)}))
				continue
			}
			add(f.Name, "description", f.Doc, "pattern", pattern)
		}
	}
	// Not required: only include=meta adds them.
	add(dataset.PublishedAt, "format", "date-time", "description", "With include=meta: when the record was first published, an RFC 3339 instant in UTC.")
	add(dataset.RevisedAt, "format", "date-time", "description", "With include=meta: when the record's values last changed (its publication if they never did), an RFC 3339 instant in UTC.")
	schema := ymap("type", "object", "required", d.Columns(), "additionalProperties", false, "properties", props)
	if len(d.ExactlyOne) > 0 {
		schema.Content = append(schema.Content, ystr("description"), ystr("Exactly one of "+strings.Join(d.ExactlyOne, ", ")+" holds a value; the others are the empty string."))
		var alts []*yaml.Node
		for _, filled := range d.ExactlyOne {
			p := ymap()
			for _, f := range d.ExactlyOne {
				if f == filled {
					p.Content = append(p.Content, ystr(f), ymap("minLength", 1))
				} else {
					p.Content = append(p.Content, ystr(f), ymap("type", "string", "const", ""))
				}
			}
			alts = append(alts, ymap("title", filled, "properties", p))
		}
		schema.Content = append(schema.Content, ystr("oneOf"), yval(alts))
	}
	return schema
}
