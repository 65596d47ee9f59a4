// The operator page: with the operator token, list the clients and approve
// those awaiting approval. The token stays in this page's memory only.

const $ = (id) => document.getElementById(id);
let token = null;

async function errorOf(r) {
  try {
    const j = await r.json();
    return j.error_description || j.error || r.statusText;
  } catch { return r.status + " " + r.statusText; }
}

function cell(text) { const td = document.createElement("td"); td.textContent = text; return td; }

async function load() {
  const r = await fetch("/operator/clients", { headers: { Authorization: "Bearer " + token } });
  if (!r.ok) { $("operator-status").textContent = await errorOf(r); token = null; return; }
  const { clients } = await r.json();
  const table = $("clients");
  table.replaceChildren();
  const head = document.createElement("tr");
  for (const h of ["client_id", "Name", "Contact", "Registered", "Status", ""]) head.append(cell(h));
  table.append(head);
  for (const c of clients) {
    const tr = document.createElement("tr");
    tr.dataset.clientId = c.client_id;
    tr.append(cell(c.client_id), cell(c.name), cell(c.contact || ""), cell(c.created), cell(c.status));
    const td = document.createElement("td");
    if (c.status === "pending") {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "approve";
      b.textContent = "Approve";
      b.addEventListener("click", () => approve(c.client_id));
      td.append(b);
    }
    tr.append(td);
    table.append(tr);
  }
  $("clients-section").hidden = false;
  $("operator-status").textContent = "";
}

async function approve(id) {
  const r = await fetch("/operator/clients/" + encodeURIComponent(id) + "/approve", { method: "POST", headers: { Authorization: "Bearer " + token } });
  if (!r.ok) { $("operator-status").textContent = await errorOf(r); return; }
  await load();
}

$("operator-signin").addEventListener("submit", (ev) => {
  ev.preventDefault();
  token = $("operator-token").value;
  $("operator-signin").reset();
  load();
});
