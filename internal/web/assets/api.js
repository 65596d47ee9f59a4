// Talking to the API as any client does, and reading GET /catalog's
// descriptions of the datasets.

// page is what the browser tests read: the charts drawn, the data requests
// made, when the first chart was drawn and whether the dashboard is drawn.
export const page = { charts: [], requests: [], firstChartMs: null, ready: false };
window.energyPage = page;

let creds = null; // {client_id, client_secret}, in memory only
let token = null; // a promise of the access token, shared by concurrent requests

export function setCredentials(c) { creds = c; token = null; }

// signIn fetches a token with the credentials; a failed one is forgotten.
export function signIn() {
  const p = fetchToken();
  token = p;
  p.catch(() => { if (token === p) token = null; });
  return p;
}

async function fetchToken() {
  if (!creds) throw new Error("sign in with a client id and secret");
  const body = new URLSearchParams({ grant_type: "client_credentials", client_id: creds.client_id, client_secret: creds.client_secret });
  const r = await fetch("/public-api/access-token", { method: "POST", body });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error_description || j.error || r.statusText);
  return j.access_token;
}

// apiGet fetches path with params (an array of [name, value]) and returns
// the parsed JSON, or the response when raw is set. An expired token is
// fetched again once.
export async function apiGet(path, params, raw) {
  const qs = new URLSearchParams(params).toString();
  const url = path + (qs ? "?" + qs : "");
  page.requests.push(url);
  for (let attempt = 0; ; attempt++) {
    if (!token) signIn();
    const sent = token;
    const r = await fetch(url, { headers: { Authorization: "Bearer " + await sent } });
    if (r.status === 401 && attempt === 0) { if (token === sent) token = null; continue; }
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

// Reading a dataset's description.
export const isNumber = (f) => f.format === "decimal-point" || f.format === "decimal-comma";
export const timeField = (d) => d.fields.find((f) => f.format === "datetime");
export const offsetField = (d) => d.fields.find((f) => f.format === "offset");
export const yearField = (d) => d.fields.find((f) => f.format === "year");
export const dateParams = (d) => d.parameters.filter((p) => p.kind === "date");
export const yearParam = (d) => d.parameters.find((p) => p.kind === "year");
export const unitOf = (name) => { const m = /_([A-Za-z]+)$/.exec(name); return m ? m[1] : ""; };

// area is the part of the family a dataset belongs to, from the first
// segment of its path: /load/v2.0/total-load is in Load.
export function area(d) {
  const seg = d.path.split("/")[1] || "other";
  return seg[0].toUpperCase() + seg.slice(1);
}

// choices are the enum parameters a chart offers as selects; include adds
// metadata columns, which no chart draws.
export const choices = (d) => d.parameters.filter((p) => p.kind === "enum" && p.name !== "include" && (p.values || []).length);

// kindOf says how the dashboard draws d: "time" (a time series asked by a
// date range), "yearly" (bars of a year's figures) or "" (it cannot: the
// catalogue's form still queries it). A parameter the dataset requires must
// be one the dashboard fills: the dates, the year, or an enum's first value.
export function kindOf(d) {
  if (!d.coverage || !d.fields.some(isNumber)) return "";
  const fillable = (p) => !p.required || p.kind === "date" || p.kind === "year" || (p.kind === "enum" && (p.values || []).length);
  if (!d.parameters.every(fillable)) return "";
  if (timeField(d) && dateParams(d).length === 2) return "time";
  if (!timeField(d) && yearField(d) && yearParam(d) && d.fields.some((f) => f.format === "text")) return "yearly";
  return "";
}

// Days, as ISO strings (yyyy-mm-dd) and as the API writes them (dd/mm/yyyy).
export const dmy = (iso) => iso.slice(8, 10) + "/" + iso.slice(5, 7) + "/" + iso.slice(0, 4);
export const addDays = (iso, n) => { const d = new Date(iso + "T00:00:00Z"); d.setUTCDate(d.getUTCDate() + n); return d.toISOString().slice(0, 10); };
export const daysBetween = (a, b) => Math.round((Date.parse(b) - Date.parse(a)) / 86400000);

export function parseNum(s, format) {
  if (s === "" || s == null) return null;
  if (format === "decimal-comma") s = String(s).replace(/\./g, "").replace(",", ".");
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

// fetchRange gets d's records between two ISO days, in pieces no longer
// than the dataset allows, with the other parameters in extra.
export async function fetchRange(d, from, to, extra) {
  const [pf, pt] = dateParams(d);
  const step = Math.min(pf.max_days || 366, pt.max_days || 366);
  const parts = [];
  for (let a = from; a <= to; a = addDays(a, step)) {
    let b = addDays(a, step - 1);
    if (b > to) b = to;
    parts.push(apiGet(d.path, [[pf.name, dmy(a)], [pt.name, dmy(b)], ...extra]));
  }
  const out = [];
  for (const j of await Promise.all(parts)) if (j && j[d.array]) out.push(...j[d.array]);
  return out;
}
