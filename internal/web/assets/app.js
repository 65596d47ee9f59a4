// The dashboard: a few charts over the last covered week, and any other
// dataset on demand from a picker grouped by area. It asks only what it
// draws: a parameter a dataset requires gets its first allowed value from
// GET /catalog (a select changes it), or the dataset is not offered.
import { page, apiGet, area, choices, kindOf, addDays, daysBetween, fetchRange, isNumber, parseNum, unitOf, yearParam, setCredentials, signIn } from "./api.js";
import { el, destroyCharts, plotBars, plotTime, timeSeries } from "./charts.js";
import { drawCatalog } from "./catalog.js";

const $ = (sel) => document.querySelector(sel);

// The default view and the choices it starts with. Total load is drawn for
// Italy: each zone is a choice away, and all of them are eight times the bytes.
const defaults = [
  { path: "/load/v2.0/peak-valley-load" },
  { path: "/load/v2.0/total-load", set: { biddingZone: "Italy" } },
  { path: "/generation/v2.0/actual-generation" },
  { path: "/transmission/v2.0/physical-foreign-flow" },
];

let catalog = [];
const range = { from: "", to: "" }; // ISO days, both included
const shown = new Map(); // dataset name -> its card on the dashboard

// addCard puts a card for d on the dashboard: its title, a select for each
// enum parameter (set, or the first allowed value where one is required),
// and a button that removes it.
function addCard(d, set) {
  const kind = kindOf(d);
  const box = el("div", { class: "chart", id: "chart-" + d.name, "data-path": d.path, "data-kind": kind });
  const controls = el("span", { class: "controls" });
  const close = el("button", { type: "button", class: "close", title: "Remove this chart", "aria-label": "Remove this chart", text: "×" });
  const plot = el("div", { class: "plot" });
  box.append(el("div", { class: "head" }, el("h2", { text: d.title }), controls, close), plot);
  const card = { d, kind, box, controls, plot, n: 0, records: [] };
  for (const p of choices(d)) {
    const s = el("select", { name: p.name, class: "param" });
    if (!p.required) s.append(el("option", { value: "", text: "all" }));
    for (const v of p.values) s.append(el("option", { value: v, text: v }));
    s.value = (set && set[p.name]) || (p.required ? p.values[0] : "");
    s.addEventListener("change", () => draw(card));
    controls.append(el("label", { text: p.name + " " }, s));
  }
  if (kind === "yearly") yearlyControls(card);
  close.addEventListener("click", () => {
    destroyCharts(box);
    box.remove();
    shown.delete(d.name);
    markPicker();
  });
  $("#charts").append(box);
  shown.set(d.name, card);
  markPicker();
  return card;
}

// paramsOf is what a card asks besides the dates: its selects' values.
const paramsOf = (card) => [...card.controls.querySelectorAll("select.param")].filter((s) => s.value).map((s) => [s.name, s.value]);

// draw (re)draws a card; a draw started later wins over an earlier one.
async function draw(card) {
  const n = ++card.n;
  const { box, plot } = card;
  delete box.dataset.points;
  delete box.dataset.range;
  destroyCharts(plot);
  plot.replaceChildren(el("p", { class: "note", text: "loading…" }));
  try {
    if (card.kind === "time") await drawTime(card, n); else await drawYearly(card, n);
  } catch (e) {
    if (n === card.n) plot.replaceChildren(el("p", { class: "error", text: e.message }));
  }
  if (n === card.n) box.dataset.range = range.from + "/" + range.to;
}

async function drawTime(card, n) {
  const { d, plot } = card;
  const records = await fetchRange(d, range.from, range.to, paramsOf(card));
  if (n !== card.n) return;
  const ts = timeSeries(d, records);
  plot.replaceChildren();
  if (!ts.x.length) {
    plot.append(el("p", { class: "note", text: "No data from " + range.from + " to " + range.to + "." }));
    return;
  }
  const stacked = d.fields.some((f) => f.name === "primary_source");
  plotTime(plot, unitOf(d.fields.find(isNumber).name), ts, stacked);
  plot.append(el("p", { class: "note", text: records.length + " records" + (stacked ? ", stacked" : "") + "; drag to zoom, double-click to reset." }));
}

// yearlyControls adds a yearly card's year, the text field to group bars
// by and the one to stack them by.
function yearlyControls(card) {
  const { d, controls } = card;
  const texts = d.fields.filter((f) => f.format === "text");
  const year = el("select", { name: yearParam(d).name, class: "param" });
  for (let y = +d.coverage.last.slice(0, 4); y >= +d.coverage.first.slice(0, 4); y--) year.append(el("option", { value: String(y), text: String(y) }));
  const pick = (name, def, none) => {
    const s = el("select", { name });
    if (none) s.append(el("option", { value: "", text: "(none)" }));
    for (const f of texts) s.append(el("option", { value: f.name, text: f.name }));
    s.value = def;
    s.addEventListener("change", () => renderBars(card));
    return s;
  };
  const has = (n) => texts.some((f) => f.name === n);
  card.group = pick("group", has("region") ? "region" : texts[0].name);
  card.split = pick("split", has("category") ? "category" : "", true);
  card.filters = el("span");
  year.addEventListener("change", () => draw(card));
  controls.prepend(el("label", { text: "Year " }, year));
  controls.append(el("label", { text: "By " }, card.group), el("label", { text: "Stacked by " }, card.split), card.filters);
}

async function drawYearly(card, n) {
  const { d } = card;
  const texts = d.fields.filter((f) => f.format === "text");
  const j = await apiGet(d.path, paramsOf(card));
  if (n !== card.n) return;
  card.records = (j && j[d.array]) || [];
  // A text field with few values (gross or net) is a choice, not a sum.
  if (!card.filters.childElementCount) {
    for (const f of texts) {
      const vals = [...new Set(card.records.map((r) => r[f.name]))].sort();
      if (vals.length > 1 && vals.length <= 3 && f.name !== card.group.value && f.name !== card.split.value) {
        const s = el("select", { name: f.name });
        vals.forEach((v) => s.append(el("option", { value: v, text: v })));
        s.addEventListener("change", () => renderBars(card));
        card.filters.append(el("label", { text: f.name + " " }, s));
      }
    }
  }
  renderBars(card);
}

// renderBars sums a yearly card's records by group and stack and draws them.
function renderBars(card) {
  const { d, plot, group, split, filters, records } = card;
  const num = d.fields.find(isNumber);
  destroyCharts(plot);
  plot.replaceChildren();
  const chosen = [...filters.querySelectorAll("select")].map((s) => [s.name, s.value]);
  const rows = records.filter((r) => chosen.every(([k, v]) => r[k] === v));
  const gs = [...new Set(rows.map((r) => r[group.value]))].sort();
  const ss = split.value ? [...new Set(rows.map((r) => r[split.value]))].sort() : [num.name];
  const sums = ss.map(() => new Array(gs.length).fill(0));
  for (const r of rows) sums[split.value ? ss.indexOf(r[split.value]) : 0][gs.indexOf(r[group.value])] += parseNum(r[num.name], num.format) || 0;
  if (!gs.length) { plot.append(el("p", { class: "note", text: "No data for this year." })); return; }
  plotBars(plot, gs, ss, sums, unitOf(num.name));
}

// show draws d on the dashboard, or brings its card into view.
function show(d) {
  location.hash = "#dashboard";
  const have = shown.get(d.name);
  if (have) { have.box.scrollIntoView(); return; }
  const card = addCard(d);
  card.box.scrollIntoView();
  draw(card);
}

// buildPicker offers every dataset the dashboard can draw, by area.
function buildPicker() {
  const pick = $("#add");
  pick.replaceChildren(el("option", { value: "", text: "Add a chart…" }));
  const groups = new Map();
  for (const d of catalog) {
    if (!kindOf(d)) continue;
    const a = area(d);
    if (!groups.has(a)) groups.set(a, pick.appendChild(el("optgroup", { label: a })));
    groups.get(a).append(el("option", { value: d.name, text: d.title }));
  }
  pick.addEventListener("change", () => {
    const d = catalog.find((x) => x.name === pick.value);
    pick.value = "";
    if (d) show(d);
  });
}

// markPicker disables the datasets already on the dashboard.
function markPicker() {
  for (const o of $("#add").options) o.disabled = shown.has(o.value);
}

// drawAll redraws every time chart over the range.
async function drawAll() {
  page.ready = false;
  $("#status").textContent = "loading…";
  await Promise.all([...shown.values()].filter((c) => c.kind === "time").map(draw));
  $("#status").textContent = "";
  page.ready = true;
}

// initRange sets the range to the last covered week of the default charts
// (of any time series if none is served) and redraws on Show.
function initRange() {
  const time = catalog.filter((d) => kindOf(d) === "time");
  const preferred = time.filter((d) => defaults.some((s) => s.path === d.path));
  const last = (preferred.length ? preferred : time).map((d) => d.coverage.last).sort().pop();
  const first = time.map((d) => d.coverage.first).sort()[0];
  const from = $("#from"), to = $("#to");
  if (last) {
    to.value = range.to = last;
    from.value = range.from = addDays(last, -6);
    from.min = to.min = first;
    from.max = to.max = time.map((d) => d.coverage.last).sort().pop();
  }
  $("#range").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (from.value > to.value) { $("#status").textContent = "From must not be after To."; return; }
    if (daysBetween(from.value, to.value) > 366) { $("#status").textContent = "At most a year at a time."; return; }
    range.from = from.value;
    range.to = to.value;
    drawAll();
  });
  return Boolean(last);
}

// login sets the credentials: the demo client's, or those typed into the page.
async function login(config) {
  if (config.demo) {
    setCredentials({ client_id: config.client_id, client_secret: config.client_secret });
    $("#who").textContent = "demo client";
    return;
  }
  const form = $("#login");
  form.hidden = false;
  await new Promise((resolve) => form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    setCredentials({ client_id: $("#client-id").value, client_secret: $("#client-secret").value });
    try {
      await signIn();
      form.hidden = true;
      $("#who").textContent = $("#client-id").value;
      resolve();
    } catch (e) { $("#who").textContent = e.message; }
  }));
}

function route() {
  const cat = location.hash === "#catalog";
  $("#dashboard").hidden = cat;
  $("#catalog").hidden = !cat;
}

async function start() {
  route();
  window.addEventListener("hashchange", route);
  const [config, cj] = await Promise.all([fetch("/web/config.json").then((r) => r.json()), fetch("/catalog").then((r) => r.json())]);
  catalog = cj.datasets;
  drawCatalog($("#datasets"), $("#filter"), $("#filter-count"), catalog, { config, show });
  buildPicker();
  await login(config);
  if (initRange()) {
    for (const spec of defaults) {
      const d = catalog.find((x) => x.path === spec.path);
      if (d && kindOf(d) === "time") addCard(d, spec.set);
    }
  }
  await drawAll();
}

start().catch((e) => { $("#status").textContent = e.message; page.error = e.message; });
