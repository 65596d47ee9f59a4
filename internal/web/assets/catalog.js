// The catalogue page: every dataset of GET /catalog grouped by area, with a
// filter box. A dataset opens to its parameters and fields and a form that
// runs a query (table, chart, curl command and CSV download); its details
// are built when first opened.
import { apiGet, area, dmy, isNumber, kindOf, timeField, unitOf } from "./api.js";
import { el, destroyCharts, plotTime, timeSeries } from "./charts.js";

// drawCatalog fills root with catalog's datasets by area and makes filter
// (a text input) keep those matching each of its words, telling count how
// many. opts.config is the page's configuration (the demo credentials go
// into the curl command); opts.show, if set, draws a dataset on the dashboard.
export function drawCatalog(root, filter, count, catalog, opts) {
  root.replaceChildren();
  const areas = new Map();
  for (const d of catalog) {
    const name = area(d);
    let g = areas.get(name);
    if (!g) {
      const n = el("span", { class: "n" });
      g = { section: el("section", { class: "area", id: "area-" + name.toLowerCase() }, el("h2", { text: name + " " }, n)), n, items: [] };
      areas.set(name, g);
      root.append(g.section);
    }
    const box = entry(d, opts);
    g.section.append(box);
    g.items.push({ box, hay: haystack(d) });
  }
  const apply = () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const g of areas.values()) {
      let k = 0;
      for (const it of g.items) {
        it.box.hidden = !words.every((w) => it.hay.includes(w));
        if (!it.box.hidden) k++;
      }
      g.section.hidden = k === 0;
      g.n.textContent = "(" + k + ")";
      shown += k;
    }
    count.textContent = shown + " of " + catalog.length + " datasets";
  };
  filter.addEventListener("input", apply);
  apply();
}

// haystack is what the filter searches: names, title, paths, description
// and field names.
function haystack(d) {
  return [d.name, d.title, d.path, d.description, ...(d.aliases || []), ...d.fields.map((f) => f.name)].join(" ").toLowerCase();
}

function entry(d, opts) {
  const box = el("details", { class: "dataset", id: "dataset-" + d.name });
  const cov = d.coverage ? d.coverage.first + " to " + d.coverage.last : "no data";
  box.append(el("summary", {}, el("span", { class: "title", text: d.title }), " ", el("code", { text: d.path }), el("span", { class: "cov", text: d.granularity + " · " + cov })));
  box.addEventListener("toggle", () => {
    if (box.open && box.childElementCount === 1) box.append(...details(d, opts));
  });
  return box;
}

function details(d, opts) {
  const cov = d.coverage ? d.coverage.first + " to " + d.coverage.last + ", " + d.coverage.records.toLocaleString("en-GB") + " records" : "no data";
  const about = el("p", {}, el("code", { text: d.method + " " + d.path }), " · " + d.granularity + " · coverage: " + cov);
  if (d.aliases) about.append(" · also at " + d.aliases.join(", "));
  const params = el("table", {}, el("tr", {}, el("th", { text: "parameter" }), el("th", { text: "kind" }), el("th", { text: "required" }), el("th", { text: "allowed values" })));
  for (const p of d.parameters) {
    params.append(el("tr", {}, el("td", { text: p.name }), el("td", { text: p.kind + (p.repeatable ? ", repeatable" : "") + (p.max_days ? ", max " + p.max_days + " days" : "") }),
      el("td", { text: p.required ? "yes" : "no" }), el("td", { text: (p.values || []).join(", ") })));
  }
  const fields = el("table", {}, el("tr", {}, el("th", { text: "field" }), el("th", { text: "format" }), el("th", { text: "description" })));
  for (const f of d.fields) fields.append(el("tr", {}, el("td", { text: f.name }), el("td", { text: f.format }), el("td", { text: f.description || "" })));
  const form = queryForm(d);
  const out = el("div", { class: "output" });
  form.addEventListener("submit", (ev) => { ev.preventDefault(); runQuery(d, form, out, opts.config); });
  const parts = [el("p", { text: d.description }), about];
  if (opts.show && kindOf(d)) {
    const show = el("button", { type: "button", text: "Show on the dashboard" });
    show.addEventListener("click", () => opts.show(d));
    parts.push(el("p", {}, show));
  }
  return [...parts, el("h3", { text: "Parameters" }), params, el("h3", { text: "Fields" }), fields, el("h3", { text: "Try it" }), form, out];
}

function queryForm(d) {
  const form = el("form", { class: "query" });
  for (const p of d.parameters) {
    let input;
    if (p.kind === "enum") {
      input = el("select", { name: p.name });
      if (p.repeatable) input.multiple = true; else if (!p.required) input.append(el("option", { value: "", text: "(any)" }));
      for (const v of p.values || []) input.append(el("option", { value: v, text: v }));
    } else if (p.kind === "date") {
      input = el("input", { type: "date", name: p.name });
      if (d.coverage) input.value = d.coverage.last;
    } else {
      input = el("input", { type: p.kind === "instant" ? "text" : "number", name: p.name });
      if (p.kind === "instant") input.placeholder = "2024-03-01T12:00:00Z";
      if (d.coverage && p.kind === "year") input.value = d.coverage.last.slice(0, 4);
      if (d.coverage && p.kind === "month") input.value = String(+d.coverage.last.slice(5, 7));
    }
    if (p.required) input.required = true;
    form.append(el("label", { text: p.name + " " }, input), " ");
  }
  form.append(el("button", { type: "submit", text: "Run query" }));
  return form;
}

function formParams(d, form) {
  const out = [];
  for (const p of d.parameters) {
    const input = form.elements[p.name];
    if (p.kind === "enum") {
      for (const o of input.selectedOptions) if (o.value) out.push([p.name, o.value]);
    } else if (input.value) {
      out.push([p.name, p.kind === "date" ? dmy(input.value) : input.value]);
    }
  }
  return out;
}

async function runQuery(d, form, out, config) {
  const params = formParams(d, form);
  const qs = new URLSearchParams(params).toString();
  const url = location.origin + d.path + (qs ? "?" + qs : "");
  const id = config.demo ? config.client_id : "$CLIENT_ID", secret = config.demo ? config.client_secret : "$CLIENT_SECRET";
  const curl = "TOKEN=$(curl -s -d grant_type=client_credentials -d client_id=" + id + " -d client_secret=" + secret + " " + location.origin + "/public-api/access-token | jq -r .access_token)\n" +
    "curl -H \"Authorization: Bearer $TOKEN\" '" + url + "'";
  destroyCharts(out);
  out.replaceChildren(el("pre", { class: "curl", text: curl }), el("p", { text: "running…" }));
  try {
    const j = await apiGet(d.path, params);
    const records = (j && j[d.array]) || [];
    const cols = d.fields.map((f) => f.name);
    const table = el("table", { class: "records" }, el("tr", {}, ...cols.map((c) => el("th", { text: c }))));
    for (const r of records.slice(0, 200)) table.append(el("tr", {}, ...cols.map((c) => el("td", { text: r[c] ?? "" }))));
    const csv = el("button", { type: "button", text: "Download CSV" });
    csv.addEventListener("click", () => downloadCSV(d, params));
    out.replaceChildren(el("pre", { class: "curl", text: curl }),
      el("p", { class: "count", text: records.length + " records" + (records.length > 200 ? " (first 200 shown)" : "") + " " }, csv));
    const chart = el("div", { class: "chart" });
    out.append(chart);
    const num = d.fields.find(isNumber);
    if (records.length && timeField(d) && num) plotTime(chart, unitOf(num.name), timeSeries(d, records), false);
    out.append(el("div", { class: "results" }, table));
  } catch (e) {
    out.replaceChildren(el("pre", { class: "curl", text: curl }), el("p", { class: "error", text: e.message }));
  }
}

// downloadCSV asks for format=csv with the token in a header, never in the URL.
async function downloadCSV(d, params) {
  const r = await apiGet(d.path, [...params, ["format", "csv"]], true);
  const blob = await r.blob();
  const a = el("a", { href: URL.createObjectURL(blob), download: d.name + ".csv" });
  document.body.append(a);
  a.click();
  a.remove();
}
