// The dashboard and catalogue page. Everything is driven by GET /catalog:
// datasets with a datetime field are plotted over time, one series per text
// value and number field; datasets with a year field get a bar view. The
// token is fetched like any client does and kept in this closure only.
"use strict";
(function () {
  const $ = (sel) => document.querySelector(sel);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k);
    return e;
  };
  const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"];
  const color = (i) => palette[i % palette.length];

  // page is what the browser tests read: the charts drawn and the data requests made.
  const page = { charts: [], requests: [], firstChartMs: null };
  window.energyPage = page;

  let config = { demo: false };
  let creds = null; // {client_id, client_secret}, in memory only
  let token = null;

  async function fetchToken() {
    if (!creds) throw new Error("sign in with a client id and secret");
    const body = new URLSearchParams({ grant_type: "client_credentials", client_id: creds.client_id, client_secret: creds.client_secret });
    const r = await fetch("/public-api/access-token", { method: "POST", body });
    const j = await r.json();
    if (!r.ok) throw new Error(j.error_description || j.error || r.statusText);
    token = j.access_token;
  }

  // apiGet fetches path with params (an array of [name, value]) and returns
  // the parsed JSON, or the response when raw is set.
  async function apiGet(path, params, raw) {
    const qs = new URLSearchParams(params).toString();
    const url = path + (qs ? "?" + qs : "");
    page.requests.push(url);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (!token) await fetchToken();
      const r = await fetch(url, { headers: { Authorization: "Bearer " + token } });
      if (r.status === 401 && attempt === 0) { token = null; continue; }
      if (raw) return r;
      const text = await r.text();
      if (!r.ok) {
        let msg = r.statusText;
        try { msg = JSON.parse(text).result.message; } catch (e) { /* not the envelope */ }
        throw new Error(r.status + " " + msg);
      }
      return text ? JSON.parse(text) : null;
    }
  }

  const dmy = (iso) => iso.slice(8, 10) + "/" + iso.slice(5, 7) + "/" + iso.slice(0, 4);
  const addDays = (iso, n) => { const d = new Date(iso + "T00:00:00Z"); d.setUTCDate(d.getUTCDate() + n); return d.toISOString().slice(0, 10); };
  const daysBetween = (a, b) => Math.round((Date.parse(b) - Date.parse(a)) / 86400000);
  function parseNum(s, format) {
    if (s === "" || s == null) return null;
    if (format === "decimal-comma") s = String(s).replace(/\./g, "").replace(",", ".");
    const n = Number(s);
    return Number.isFinite(n) ? n : null;
  }
  const isNumber = (f) => f.format === "decimal-point" || f.format === "decimal-comma";
  const timeField = (d) => d.fields.find((f) => f.format === "datetime");
  const yearField = (d) => d.fields.find((f) => f.format === "year");
  const dateParams = (d) => d.parameters.filter((p) => p.kind === "date");

  // fetchRange gets d's records between two ISO days, in pieces no longer than the dataset allows.
  async function fetchRange(d, from, to, extra) {
    const [pf, pt] = dateParams(d);
    const step = pf.max_days || 366;
    const parts = [];
    for (let a = from; a <= to; a = addDays(a, step)) {
      let b = addDays(a, step - 1);
      if (b > to) b = to;
      parts.push(apiGet(d.path, [[pf.name, dmy(a)], [pt.name, dmy(b)], ...(extra || [])]));
    }
    const out = [];
    for (const j of await Promise.all(parts)) if (j && j[d.array]) out.push(...j[d.array]);
    return out;
  }

  // timeSeries turns records into uPlot data: x in Unix seconds, one series
  // per combination of text values and number field.
  function timeSeries(d, records) {
    const tf = timeField(d);
    const off = d.fields.find((f) => f.format === "offset");
    const nums = d.fields.filter(isNumber);
    const texts = d.fields.filter((f) => f.format === "text");
    const xs = new Map();
    const series = new Map();
    for (const r of records) {
      const t = Date.parse(r[tf.name].replace(" ", "T") + (off ? r[off.name] : "Z")) / 1000;
      if (!xs.has(t)) xs.set(t, xs.size);
      const label = texts.map((f) => r[f.name]).join(" ");
      for (const n of nums) {
        const v = parseNum(r[n.name], n.format);
        if (v === null) continue;
        const key = (label ? label + " " : "") + (nums.length > 1 || !label ? n.name : "");
        let s = series.get(key);
        if (!s) { s = { field: n.name, points: [] }; series.set(key, s); }
        s.points.push([t, v]);
      }
    }
    const x = [...xs.keys()].sort((a, b) => a - b);
    const index = new Map(x.map((t, i) => [t, i]));
    const out = [];
    for (const [label, s] of series) {
      const ys = new Array(x.length).fill(null);
      for (const [t, v] of s.points) ys[index.get(t)] = v;
      out.push({ label: label.trim(), field: s.field, ys });
    }
    return { x, series: out };
  }

  function mountChart(box, opts, data) {
    const width = Math.max(320, Math.min(1200, (box.clientWidth || document.body.clientWidth) - 20));
    opts.width = width;
    opts.height = opts.height || 300;
    const u = new uPlot(opts, data, box);
    page.charts.push(u);
    box.dataset.series = String(opts.series.length - 1);
    box.dataset.points = String(data[0].length);
    if (page.firstChartMs === null) page.firstChartMs = performance.now();
    return u;
  }

  // plotTime draws a time-series chart; stacked sums series on one another.
  function plotTime(box, title, unit, ts, stacked) {
    const data = [ts.x];
    const series = [{}];
    let raw = ts.series.map((s) => s.ys);
    if (stacked) {
      const acc = new Array(ts.x.length).fill(0);
      const cum = raw.map((ys) => ys.map((v, i) => (acc[i] += v || 0)));
      // Draw the tallest first so the lower bands stay visible.
      for (let i = cum.length - 1; i >= 0; i--) {
        data.push(cum[i]);
        series.push({ label: ts.series[i].label, stroke: color(i), fill: color(i) + "99", width: 1, value: ((j) => (u, v, si, idx) => idx == null ? "" : fmt(raw[j][idx]))(i) });
      }
    } else {
      // Forecasts, and fields without a unit beside one with it (import and
      // export beside the net flow in MW), start hidden; the legend shows them.
      const withUnit = ts.series.some((s) => unitOf(s.field));
      ts.series.forEach((s, i) => {
        data.push(s.ys);
        const show = !s.field.startsWith("forecast_") && (!withUnit || unitOf(s.field) !== "");
        series.push({ label: s.label, stroke: color(i), width: 1.5, spanGaps: true, show, value: (u, v) => fmt(v) });
      });
    }
    box.append(el("h2", { text: title }));
    return mountChart(box, { series, axes: [{}, { label: unit, size: 70 }], scales: { x: { time: true } }, cursor: { drag: { x: true, y: false } } }, data);
  }

  const fmt = (v) => (v == null ? "–" : Number(v).toLocaleString("en-GB", { maximumFractionDigits: 3 }));
  const unitOf = (name) => { const m = /_([A-Za-z]+)$/.exec(name); return m ? m[1] : ""; };

  // The dashboard's order; any other time-series dataset follows them.
  const preferred = ["/load/v2.0/peak-valley-load", "/load/v2.0/total-load", "/generation/v2.0/actual-generation", "/transmission/v2.0/physical-foreign-flow"];
  const rank = (d) => { const i = preferred.indexOf(d.path); return i < 0 ? preferred.length : i; };

  let catalog = [];

  async function drawDashboard(from, to) {
    const charts = $("#charts");
    page.charts.forEach((u) => u.destroy());
    page.charts = [];
    charts.replaceChildren();
    $("#status").textContent = "loading…";
    const ts = catalog.filter((d) => timeField(d) && dateParams(d).length === 2 && d.coverage).sort((a, b) => rank(a) - rank(b));
    const jobs = ts.map(async (d) => {
      const box = el("div", { class: "chart", id: "chart-" + d.name, "data-path": d.path });
      charts.append(box);
      try {
        const records = await fetchRange(d, from, to);
        const series = timeSeries(d, records);
        if (!series.x.length) { box.append(el("h2", { text: d.title }), el("p", { class: "note", text: "No data in this range." })); return; }
        const num = d.fields.find(isNumber);
        const stacked = d.fields.some((f) => f.name === "primary_source");
        plotTime(box, d.title + (stacked ? " (stacked)" : ""), unitOf(num.name), series, stacked);
        box.append(el("p", { class: "note", text: records.length + " records; drag to zoom, double-click to reset." }));
      } catch (e) {
        box.append(el("h2", { text: d.title }), el("p", { class: "error", text: e.message }));
      }
    });
    await Promise.all(jobs);
    $("#status").textContent = "";
  }

  // drawYearly draws a bar view of a yearly dataset for one year, grouped by
  // one text field and stacked by another.
  async function drawYearly(d, box) {
    const yf = yearField(d);
    const yp = d.parameters.find((p) => p.kind === "year");
    const texts = d.fields.filter((f) => f.format === "text");
    const num = d.fields.find(isNumber);
    if (!yf || !yp || !num || !texts.length || !d.coverage) return;
    const first = +d.coverage.first.slice(0, 4), last = +d.coverage.last.slice(0, 4);
    const year = el("select", { name: "year" });
    for (let y = last; y >= first; y--) year.append(el("option", { value: String(y), text: String(y) }));
    const pick = (name, def, none) => {
      const s = el("select", { name });
      if (none) s.append(el("option", { value: "", text: "(none)" }));
      for (const f of texts) s.append(el("option", { value: f.name, text: f.name }));
      s.value = def;
      return s;
    };
    const has = (n) => texts.some((f) => f.name === n);
    const group = pick("group", has("region") ? "region" : texts[0].name);
    const split = pick("split", has("category") ? "category" : "", true);
    const controls = el("div", { class: "controls" }, el("label", { text: "Year " }, year), el("label", { text: "By " }, group), el("label", { text: "Stacked by " }, split));
    const filters = el("span");
    controls.append(filters);
    const plot = el("div", { class: "chart", id: "yearly-" + d.name });
    box.append(el("h2", { text: d.title }), controls, plot);
    let records = [];
    const render = () => {
      page.charts = page.charts.filter((u) => { if (u.root.parentNode === plot) { u.destroy(); return false; } return true; });
      plot.replaceChildren();
      // A text field with few values (gross or net) is a choice, not a sum.
      const chosen = {};
      for (const s of filters.querySelectorAll("select")) chosen[s.name] = s.value;
      const rows = records.filter((r) => Object.entries(chosen).every(([k, v]) => r[k] === v));
      const gs = [...new Set(rows.map((r) => r[group.value]))].sort();
      const ss = split.value ? [...new Set(rows.map((r) => r[split.value]))].sort() : [num.name];
      const sums = ss.map(() => new Array(gs.length).fill(0));
      for (const r of rows) {
        const v = parseNum(r[num.name], num.format) || 0;
        sums[split.value ? ss.indexOf(r[split.value]) : 0][gs.indexOf(r[group.value])] += v;
      }
      const acc = new Array(gs.length).fill(0);
      const cum = sums.map((ys) => ys.map((v, i) => (acc[i] += v)));
      const data = [gs.map((_, i) => i)];
      const series = [{ label: group.value, value: (u, i) => (i == null ? "" : gs[i]) }];
      for (let i = cum.length - 1; i >= 0; i--) {
        data.push(cum[i]);
        series.push({ label: ss[i], stroke: color(i), fill: color(i) + "cc", paths: uPlot.paths.bars({ size: [0.7, 60] }), points: { show: false }, value: ((j) => (u, v, si, idx) => idx == null ? "" : fmt(sums[j][idx]))(i) });
      }
      mountChart(plot, {
        height: 360, series,
        scales: { x: { time: false, range: [-0.5, gs.length - 0.5] } },
        axes: [{ values: (u, splits) => splits.map((i) => gs[i] ?? ""), rotate: -40, size: 90, space: 10, incrs: [1] }, { label: unitOf(num.name), size: 70 }],
        cursor: { drag: { x: true, y: false } },
      }, data);
    };
    const load = async () => {
      try {
        const j = await apiGet(d.path, [[yp.name, year.value]]);
        records = (j && j[d.array]) || [];
        if (!filters.childElementCount) {
          for (const f of texts) {
            const vals = [...new Set(records.map((r) => r[f.name]))].sort();
            if (vals.length > 1 && vals.length <= 3 && f.name !== group.value && f.name !== split.value) {
              const s = el("select", { name: f.name });
              vals.forEach((v) => s.append(el("option", { value: v, text: v })));
              s.addEventListener("change", render);
              filters.append(el("label", { text: f.name + " " }, s));
            }
          }
        }
        render();
      } catch (e) { plot.replaceChildren(el("p", { class: "error", text: e.message })); }
    };
    year.addEventListener("change", load);
    group.addEventListener("change", render);
    split.addEventListener("change", render);
    await load();
  }

  // The catalogue: every dataset with its parameters, fields and coverage,
  // and a form that runs a query.
  function drawCatalog() {
    const root = $("#datasets");
    root.replaceChildren();
    for (const d of catalog) {
      const box = el("div", { class: "dataset", id: "dataset-" + d.name });
      const cov = d.coverage ? d.coverage.first + " to " + d.coverage.last + ", " + d.coverage.records.toLocaleString("en-GB") + " records" : "no data";
      box.append(el("h2", { text: d.title }), el("p", { text: d.description }),
        el("p", {}, el("code", { text: d.method + " " + d.path }), " · " + d.granularity + " · coverage: " + cov));
      const params = el("table", {}, el("tr", {}, el("th", { text: "parameter" }), el("th", { text: "kind" }), el("th", { text: "required" }), el("th", { text: "allowed values" })));
      const form = el("form", { class: "query" });
      for (const p of d.parameters) {
        params.append(el("tr", {}, el("td", { text: p.name }), el("td", { text: p.kind + (p.repeatable ? ", repeatable" : "") + (p.max_days ? ", max " + p.max_days + " days" : "") }),
          el("td", { text: p.required ? "yes" : "no" }), el("td", { text: (p.values || []).join(", ") })));
        let input;
        if (p.kind === "enum") {
          input = el("select", { name: p.name });
          if (p.repeatable) input.multiple = true; else input.append(el("option", { value: "", text: "(any)" }));
          for (const v of p.values || []) input.append(el("option", { value: v, text: v }));
        } else if (p.kind === "date") {
          input = el("input", { type: "date", name: p.name });
          if (d.coverage) input.value = d.coverage.last;
        } else {
          input = el("input", { type: p.kind === "instant" ? "text" : "number", name: p.name });
          if (p.kind === "instant") input.placeholder = "2024-03-01T12:00:00Z";
          if (d.coverage) input.value = p.kind === "year" ? d.coverage.last.slice(0, 4) : "";
        }
        if (p.required) input.required = true;
        form.append(el("label", { text: p.name + " " }, input), " ");
      }
      const fields = el("table", {}, el("tr", {}, el("th", { text: "field" }), el("th", { text: "format" }), el("th", { text: "description" })));
      for (const f of d.fields) fields.append(el("tr", {}, el("td", { text: f.name }), el("td", { text: f.format }), el("td", { text: f.description || "" })));
      form.append(el("button", { type: "submit", text: "Run query" }));
      const out = el("div", { class: "output" });
      form.addEventListener("submit", (ev) => { ev.preventDefault(); runQuery(d, form, out); });
      box.append(el("h3", { text: "Parameters" }), params, el("h3", { text: "Fields" }), fields, el("h3", { text: "Try it" }), form, out);
      root.append(box);
    }
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

  async function runQuery(d, form, out) {
    const params = formParams(d, form);
    const qs = new URLSearchParams(params).toString();
    const url = location.origin + d.path + (qs ? "?" + qs : "");
    const id = config.demo ? config.client_id : "$CLIENT_ID", secret = config.demo ? config.client_secret : "$CLIENT_SECRET";
    const curl = "TOKEN=$(curl -s -d grant_type=client_credentials -d client_id=" + id + " -d client_secret=" + secret + " " + location.origin + "/public-api/access-token | jq -r .access_token)\n" +
      "curl -H \"Authorization: Bearer $TOKEN\" '" + url + "'";
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
      if (records.length && timeField(d)) plotTime(chart, d.title, unitOf(d.fields.find(isNumber).name), timeSeries(d, records), false);
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

  function route() {
    const cat = location.hash === "#catalog";
    $("#dashboard").hidden = cat;
    $("#catalog").hidden = !cat;
  }

  async function start() {
    route();
    window.addEventListener("hashchange", route);
    config = await fetch("/web/config.json").then((r) => r.json());
    const cj = await fetch("/catalog").then((r) => r.json());
    catalog = cj.datasets;
    drawCatalog();
    if (config.demo) {
      creds = { client_id: config.client_id, client_secret: config.client_secret };
      $("#who").textContent = "demo client";
    } else {
      const login = $("#login");
      login.hidden = false;
      await new Promise((resolve) => login.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        creds = { client_id: $("#client-id").value, client_secret: $("#client-secret").value };
        try { await fetchToken(); login.hidden = true; $("#who").textContent = creds.client_id; resolve(); } catch (e) { $("#who").textContent = e.message; }
      }));
    }
    // Default range: the last covered week of the time series.
    const lasts = catalog.filter((d) => timeField(d) && d.coverage).map((d) => d.coverage);
    const last = lasts.map((c) => c.last).sort().pop();
    const firstDay = lasts.map((c) => c.first).sort()[0];
    const from = $("#from"), to = $("#to");
    if (last) {
      to.value = last; from.value = addDays(last, -6);
      from.min = to.min = firstDay; from.max = to.max = last;
    }
    $("#range").addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (from.value > to.value) { $("#status").textContent = "From must not be after To."; return; }
      if (daysBetween(from.value, to.value) > 366) { $("#status").textContent = "At most a year at a time."; return; }
      drawDashboard(from.value, to.value);
    });
    const yearly = $("#yearly");
    const jobs = [last ? drawDashboard(from.value, to.value) : Promise.resolve()];
    for (const d of catalog.filter((d) => !timeField(d) && yearField(d))) {
      const box = el("div", { class: "yearly" });
      yearly.append(box);
      jobs.push(drawYearly(d, box));
    }
    await Promise.all(jobs);
    page.ready = true;
  }

  start().catch((e) => { $("#status").textContent = e.message; page.error = e.message; });
})();
