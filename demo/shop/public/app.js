// The demo app: runs the view `orders -> by_category` through the REST
// query route and reloads when the package publishes a new version.
// Open it as .../packages/shop/app/?access_token=<token>; the token is kept
// in sessionStorage for the query calls (the events stream uses the cookie).
const params = new URLSearchParams(location.search);
if (params.get("access_token")) sessionStorage.setItem("token", params.get("access_token"));
const token = sessionStorage.getItem("token");
const base = location.pathname.replace(/\/app\/.*$/, "");

async function load() {
  const response = await fetch(`${base}/models/models/shop.malloy/query`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ sourceName: "orders", queryName: "by_category" }),
  });
  const status = document.getElementById("status");
  if (!response.ok) {
    status.textContent = `query failed: ${response.status}`;
    return;
  }
  const result = await response.json();
  const rows = document.getElementById("rows");
  rows.replaceChildren(...result.data.map((r) => {
    const tr = document.createElement("tr");
    for (const v of [r.product_category, r.revenue.toFixed(2), r.order_count, r.units]) {
      const td = document.createElement("td");
      td.textContent = String(v);
      tr.append(td);
    }
    return tr;
  }));
  status.textContent = `version ${response.headers.get("x-version-id") ?? "latest"}, ${result.totalRows} categories`;
}

new EventSource(`${base}/events`).addEventListener("published", () => location.reload());
load();
