// check.mjs reads bulk Parquet files with DuckDB and prints, as one JSON
// object, the sum of a value column per group: the key columns and, for
// files with an instant, its Europe/Rome day (the UTC timestamp moved by
// the offset beside it). cmd/energyapi TestBulkDuckDB compares the sums
// with the JSON API's.
//
//   node check.mjs --keys bidding_zone --value total_load_MW [--time date --offset date_offset] FILE...
//
// Output: {"sums": {"KEY|...|DAY": sum, ...}, "rows": n, "row_groups": [[min, max], ...]}
// where row_groups are the time column's statistics per row group of the first file.
import { DuckDBInstance } from '@duckdb/node-api';

const args = process.argv.slice(2);
const opt = { keys: '', value: '', time: '', offset: '' };
const files = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a.startsWith('--')) { opt[a.slice(2)] = args[++i]; } else { files.push(a); }
}
if (!opt.keys || !opt.value || files.length === 0) {
  console.error('usage: node check.mjs --keys K1,K2 --value V [--time T --offset O] FILE...');
  process.exit(2);
}
const q = (s) => '"' + s.replaceAll('"', '""') + '"';
const groups = opt.keys.split(',').map(q);
if (opt.time) {
  groups.push(`strftime(CAST(CAST(${q(opt.time)} AS TIMESTAMP) + to_hours(CAST(substr(${q(opt.offset)}, 1, 3) AS INTEGER)) AS DATE), '%Y-%m-%d')`);
}
const list = '[' + files.map((f) => `'${f.replaceAll("'", "''")}'`).join(',') + ']';
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const sql = `SELECT concat_ws('|', ${groups.join(', ')}) AS k, CAST(sum(${q(opt.value)}) AS DOUBLE) AS s, count(*) AS n
  FROM read_parquet(${list}) GROUP BY ALL ORDER BY k`;
const rows = (await con.runAndReadAll(sql)).getRowObjectsJson();
const out = { sums: {}, rows: 0, row_groups: [] };
for (const r of rows) { out.sums[r.k] = r.s; out.rows += Number(r.n); }
if (opt.time) {
  const meta = (await con.runAndReadAll(`SELECT stats_min_value AS lo, stats_max_value AS hi FROM parquet_metadata('${files[0].replaceAll("'", "''")}') WHERE path_in_schema = '${opt.time}' ORDER BY row_group_id`)).getRowObjectsJson();
  out.row_groups = meta.map((m) => [m.lo, m.hi]);
}
console.log(JSON.stringify(out));
