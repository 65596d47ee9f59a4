// The developer page: register an application, then sign in with its
// credentials (the page fetches a token from the token endpoint, as any
// client does) to see its usage, rotate its secret or delete it. Secrets
// stay in this page's memory only, never in storage.

const $ = (id) => document.getElementById(id);

// state is what the browser tests read.
const state = { creds: null, token: null, usage: null };
window.developersPage = state;

async function errorOf(r) {
  try {
    const j = await r.json();
    return j.error_description || j.error || r.statusText;
  } catch { return r.status + " " + r.statusText; }
}

// credentialsForm is the client's credentials as a form body
// (client_secret_post): with HTTP Basic, a refusal's Basic challenge would
// make the browser prompt for a password.
function credentialsForm(c, extra) {
  return new URLSearchParams({ ...extra, client_id: c.client_id, client_secret: c.client_secret });
}

async function register(ev) {
  ev.preventDefault();
  $("register-status").textContent = "registering…";
  const r = await fetch("/developers/register", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: $("app-name").value, contact: $("app-contact").value }),
  });
  if (!r.ok) { $("register-status").textContent = await errorOf(r); return; }
  const j = await r.json();
  $("register-status").textContent = "Registered.";
  $("new-client-id").textContent = j.client_id;
  $("new-client-secret").textContent = j.client_secret;
  $("new-status").textContent = j.status === "pending"
    ? "The operator must approve the application before it can obtain tokens."
    : "The application can obtain tokens now.";
  $("credentials").hidden = false;
  $("register").reset();
}

async function fetchToken(c) {
  const body = credentialsForm(c, { grant_type: "client_credentials" });
  const r = await fetch("/public-api/access-token", { method: "POST", body });
  if (!r.ok) throw new Error(await errorOf(r));
  return (await r.json()).access_token;
}

async function signIn(c) {
  $("signin-status").textContent = "signing in…";
  try {
    state.token = await fetchToken(c);
  } catch (e) {
    $("signin-status").textContent = e.message;
    return;
  }
  state.creds = c;
  $("signin-status").textContent = "";
  $("signin").reset();
  // The secret shown at registration goes once the developer has used it.
  $("credentials").hidden = true;
  $("new-client-secret").textContent = "";
  await showApp();
}

async function showApp() {
  const r = await fetch("/developers/app", { headers: { Authorization: "Bearer " + state.token } });
  if (!r.ok) { $("signin-status").textContent = await errorOf(r); return; }
  const a = await r.json();
  $("app-info-name").textContent = a.name;
  $("app-info-id").textContent = a.client_id;
  $("app-info-contact").textContent = a.contact || "";
  $("app-info-created").textContent = a.created;
  $("app").hidden = false;
  $("signin-section").hidden = true;
  await showUsage();
}

function row(cells) {
  const tr = document.createElement("tr");
  for (const c of cells) { const td = document.createElement("td"); td.textContent = c; tr.append(td); }
  return tr;
}

// showUsage reads GET /usage; a server without it answers 404.
async function showUsage() {
  const box = $("usage");
  const r = await fetch("/usage", { headers: { Authorization: "Bearer " + state.token } });
  box.replaceChildren();
  if (!r.ok) {
    const p = document.createElement("p");
    p.id = "usage-status";
    p.textContent = r.status === 404 ? "usage not available" : await errorOf(r);
    box.append(p);
    state.usage = { status: r.status };
    return;
  }
  const u = await r.json();
  state.usage = u;
  const t = u.today || {};
  const p = document.createElement("p");
  p.id = "usage-today";
  const quota = t.limit == null ? "no daily quota" : `${t.remaining} of ${t.limit} remaining; resets at ${t.resets_at}`;
  p.textContent = `Today (${t.date}): ${t.calls} calls, ${quota}. Plan: ${u.plan}.`;
  const table = document.createElement("table");
  table.id = "usage-days";
  table.append(row(["Day", "Calls"]));
  for (const d of (u.days || []).slice(-30)) table.append(row([d.date, String(d.calls)]));
  box.append(p, table);
}

async function rotate() {
  const r = await fetch("/developers/app/rotate-secret", { method: "POST", body: credentialsForm(state.creds) });
  if (!r.ok) { $("app-status").textContent = await errorOf(r); return; }
  const a = await r.json();
  state.creds = { client_id: a.client_id, client_secret: a.client_secret };
  $("rotated-secret").textContent = a.client_secret;
  $("rotated").hidden = false;
  $("app-status").textContent = "Secret rotated: the old secret and its tokens no longer work.";
  state.token = await fetchToken(state.creds); // the old token ended with the old secret
}

let deleteArmed = false;

async function del() {
  if (!deleteArmed) { deleteArmed = true; $("delete-confirm").hidden = false; return; }
  const r = await fetch("/developers/app/delete", { method: "POST", body: credentialsForm(state.creds) });
  if (!r.ok) { $("app-status").textContent = await errorOf(r); return; }
  signOut();
  $("signin-status").textContent = "The application is deleted.";
}

function signOut() {
  state.creds = state.token = state.usage = null;
  deleteArmed = false;
  $("delete-confirm").hidden = true;
  $("rotated").hidden = true;
  $("rotated-secret").textContent = "";
  $("app").hidden = true;
  $("signin-section").hidden = false;
  $("signin-status").textContent = "";
}

$("register").addEventListener("submit", register);
$("signin").addEventListener("submit", (ev) => {
  ev.preventDefault();
  signIn({ client_id: $("signin-id").value.trim(), client_secret: $("signin-secret").value.trim() });
});
$("rotate").addEventListener("click", rotate);
$("delete").addEventListener("click", del);
$("signout").addEventListener("click", signOut);
