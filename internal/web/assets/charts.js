// Drawing with uPlot: time series on Rome's clock, and bars of yearly
// figures.
import { page, isNumber, timeField, offsetField, parseNum, unitOf } from "./api.js";
import { instantOf, stamp, timeAxis } from "./rome.js";

// el makes an element with attributes ("text" sets its text) and children.
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"];
const color = (i) => palette[i % palette.length];
const number = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 3 });
export const fmt = (v) => (v == null ? "–" : number.format(v));

// timeSeries turns records into uPlot data: x in Unix seconds, one series
// per combination of text values and number field.
export function timeSeries(d, records) {
  const tf = timeField(d), off = offsetField(d);
  const nums = d.fields.filter(isNumber);
  const texts = d.fields.filter((f) => f.format === "text");
  const xs = new Set();
  const series = new Map();
  for (const r of records) {
    const t = instantOf(r[tf.name], off ? r[off.name] : "");
    xs.add(t);
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
  const x = [...xs].sort((a, b) => a - b);
  const index = new Map(x.map((t, i) => [t, i]));
  const out = [];
  for (const [label, s] of series) {
    const ys = new Array(x.length).fill(null);
    for (const [t, v] of s.points) ys[index.get(t)] = v;
    out.push({ label: label.trim(), field: s.field, ys });
  }
  return { x, series: out };
}

// destroyCharts removes the charts drawn inside root.
export function destroyCharts(root) {
  page.charts = page.charts.filter((u) => {
    if (!root.contains(u.root)) return true;
    u.destroy();
    return false;
  });
}

function mountChart(box, opts, data) {
  opts.width = Math.max(320, Math.min(1200, (box.clientWidth || document.body.clientWidth) - 20));
  opts.height = opts.height || 300;
  const u = new uPlot(opts, data, box);
  page.charts.push(u);
  const card = box.closest(".chart") || box;
  card.dataset.series = String(opts.series.length - 1);
  card.dataset.points = String(data[0].length);
  if (page.firstChartMs === null) page.firstChartMs = performance.now();
  return u;
}

// plotTime draws a time-series chart in box; stacked sums the series on
// one another. The x axis and the legend read Rome's clock.
export function plotTime(box, unit, ts, stacked) {
  const card = box.closest(".chart") || box;
  const data = [ts.x];
  const series = [{ label: "Rome time", value: (u, t) => (t == null ? "" : stamp(t)) }];
  const raw = ts.series.map((s) => s.ys);
  if (stacked) {
    const acc = new Array(ts.x.length).fill(0);
    const cum = raw.map((ys) => ys.map((v, i) => (acc[i] += v || 0)));
    // Draw the tallest first so the lower bands stay visible.
    for (let i = cum.length - 1; i >= 0; i--) {
      data.push(cum[i]);
      series.push({ label: ts.series[i].label, stroke: color(i), fill: color(i) + "99", width: 1, value: (u, v, si, idx) => (idx == null ? "" : fmt(raw[i][idx])) });
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
  const x = timeAxis((ticks, labels) => {
    card.dataset.xticks = JSON.stringify(ticks);
    card.dataset.xlabels = JSON.stringify(labels);
  });
  const opts = { series, axes: [x, { label: unit, size: 70, values: (u, vs) => vs.map(fmt) }], scales: { x: { time: true } }, cursor: { drag: { x: true, y: false } } };
  return mountChart(box, opts, data);
}

// plotBars draws a bar per group, stacked by the series of sums
// (sums[i][g] is series i's figure for group g).
export function plotBars(box, groups, names, sums, unit) {
  const acc = new Array(groups.length).fill(0);
  const cum = sums.map((ys) => ys.map((v, i) => (acc[i] += v)));
  const data = [groups.map((_, i) => i)];
  const series = [{ value: (u, i) => (i == null ? "" : groups[i]) }];
  for (let i = cum.length - 1; i >= 0; i--) {
    data.push(cum[i]);
    series.push({ label: names[i], stroke: color(i), fill: color(i) + "cc", paths: uPlot.paths.bars({ size: [0.7, 60] }), points: { show: false }, value: (u, v, si, idx) => (idx == null ? "" : fmt(sums[i][idx])) });
  }
  return mountChart(box, {
    height: 360, series,
    scales: { x: { time: false, range: [-0.5, groups.length - 0.5] } },
    axes: [{ values: (u, splits) => splits.map((i) => groups[i] ?? ""), rotate: -40, size: 90, space: 10, incrs: [1] }, { label: unit, size: 70, values: (u, vs) => vs.map(fmt) }],
    cursor: { drag: { x: true, y: false } },
  }, data);
}
