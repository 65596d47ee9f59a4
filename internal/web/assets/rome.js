// The data's own clock. Every instant of the API is a Europe/Rome wall time
// with its UTC offset; the page shows it so (24-hour, day before month)
// whatever the browser's zone and language. Instants are Unix seconds;
// Intl does the zone arithmetic, so the clock-change days come out right:
// a 23-hour day in March skips 02:00, a 25-hour day in October has it twice.

const wall = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Rome", hourCycle: "h23",
  year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
});

const pad = (n) => String(n).padStart(2, "0");

// rome returns the Rome wall clock of instant t: year, month, day, hour,
// minute and the offset from UTC in minutes.
export function rome(t) {
  const p = {};
  for (const { type, value } of wall.formatToParts(t * 1000)) p[type] = +value;
  const m = Math.floor(t / 60) * 60;
  const off = Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) / 1000 - m) / 60);
  return { y: p.year, mo: p.month, d: p.day, h: p.hour, mi: p.minute, off };
}

// romeInstant returns the instant of a Rome wall time. Rome is an hour or
// two ahead of UTC; two rounds settle which.
export function romeInstant(y, mo, d, h = 0, mi = 0) {
  const w = Date.UTC(y, mo - 1, d, h, mi) / 1000;
  let t = w - 3600;
  for (let i = 0; i < 2; i++) t = w - rome(t).off * 60;
  return t;
}

// instantOf reads a record's moment: its wall time ("2025-10-26 02:00:00")
// with the record's own offset ("+01:00") when it has one, else as Rome's.
export function instantOf(text, offset) {
  if (offset) return Date.parse(text.replace(" ", "T") + offset) / 1000;
  const [y, mo, d, h, mi] = text.split(/[- :]/).map(Number);
  return romeInstant(y, mo, d, h || 0, mi || 0);
}

const offsetText = (off) => (off < 0 ? "-" : "+") + pad(Math.floor(Math.abs(off) / 60)) + ":" + pad(Math.abs(off) % 60);

// stamp is an instant as the legend shows it: 26/10/2025 02:00 +01:00. The
// offset tells the two 02:00 of October apart, as the records' own do.
export function stamp(t) {
  const r = rome(t);
  return pad(r.d) + "/" + pad(r.mo) + "/" + r.y + " " + pad(r.h) + ":" + pad(r.mi) + " " + offsetText(r.off);
}

// Tick steps, smallest first, with their length in seconds.
const steps = [
  ["minute", 15], ["minute", 30], ["hour", 1], ["hour", 2], ["hour", 3], ["hour", 6], ["hour", 12],
  ["day", 1], ["day", 2], ["day", 7], ["day", 14], ["month", 1], ["month", 3], ["month", 6], ["year", 1],
].map(([unit, n]) => ({ unit, n, secs: n * { minute: 60, hour: 3600, day: 86400, month: 2629800, year: 31557600 }[unit] }));

// wallTicks returns the instants from lo to hi where Rome's clock reads a
// round value of step, and how they should be labelled.
function wallTicks(lo, hi, step) {
  const out = [];
  if (step.unit === "minute" || step.unit === "hour") {
    // Rome's offsets are whole hours: its quarter hours are UTC's.
    const every = step.unit === "minute" ? step.n * 60 : 3600;
    for (let t = Math.ceil(lo / every) * every; t <= hi; t += every) {
      const r = rome(t);
      if (step.unit === "hour" && r.h % step.n !== 0) continue;
      out.push(t);
    }
    return out;
  }
  const r = rome(lo);
  if (step.unit === "day") {
    for (let day = Date.UTC(r.y, r.mo - 1, r.d) / 86400000; ; day++) {
      const dt = new Date(day * 86400000);
      const t = romeInstant(dt.getUTCFullYear(), dt.getUTCMonth() + 1, dt.getUTCDate());
      if (t > hi) break;
      // Weeks start on Monday: day 0 (1 January 1970) was a Thursday.
      if (t >= lo && (day + (step.n % 7 === 0 ? 3 : 0)) % step.n === 0) out.push(t);
    }
    return out;
  }
  const per = step.unit === "year" ? 12 * step.n : step.n;
  for (let m = r.y * 12 + r.mo - 1; ; m++) {
    const t = romeInstant(Math.floor(m / 12), (m % 12) + 1, 1);
    if (t > hi) break;
    if (t >= lo && m % per === 0) out.push(t);
  }
  return out;
}

// label writes a tick of step at t; prev is the tick before it, if any.
function label(t, prev, step) {
  const r = rome(t), p = prev == null ? null : rome(prev);
  switch (step.unit) {
    case "minute": case "hour":
      return pad(r.h) + ":" + pad(r.mi) + (!p || p.d !== r.d || p.mo !== r.mo ? "\n" + pad(r.d) + "/" + pad(r.mo) : "");
    case "day":
      return pad(r.d) + "/" + pad(r.mo) + (!p || p.y !== r.y ? "\n" + r.y : "");
    case "month":
      return pad(r.mo) + "/" + r.y;
    default:
      return String(r.y);
  }
}

// timeAxis returns uPlot axis options for a time x axis on Rome's clock.
// onDraw(ticks, labels) hears what each redraw puts on the axis.
export function timeAxis(onDraw) {
  const space = 40; // least pixels between ticks
  let step = steps[0];
  return {
    space,
    size: 50,
    splits(u, axis, lo, hi) {
      const perSec = u.bbox.width / devicePixelRatio / Math.max(1, hi - lo);
      step = steps.find((s) => s.secs * perSec >= space) || steps[steps.length - 1];
      return wallTicks(lo, hi, step);
    },
    values(u, ticks) {
      const labels = ticks.map((t, i) => label(t, i ? ticks[i - 1] : null, step));
      onDraw(ticks, labels);
      return labels;
    },
  };
}
