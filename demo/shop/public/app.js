// The demo app: runs the view `orders -> by_category` through the REST query
// route and shows each new version live. It runs sandboxed (an opaque origin);
// the platform injects a read-only app token for this package into the page
// (<meta name="app-token">), which the app renews before it expires and sends
// as Authorization; the event stream takes it as ?app_token= (EventSource
// cannot send headers) and resumes after a reconnect with ?lastEventId=.
const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ?? "";
let token = meta("app-token");
let expiresAt = Date.parse(meta("app-token-expires")) || Date.now() + 60_000;
// the package's API address, injected by the platform (<meta name="app-api">: the platform's
// origin when apps are served from APP_ORIGIN); else the path the app is served under, <package>/app/...
const base = meta("app-api") || new URL(".", document.baseURI).pathname.replace(/\/app\/.*$/, "");
const status = document.getElementById("status");

async function renew() {
  const response = await fetch(`${base}/app-token`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`app token renewal failed: ${response.status}`);
  const fresh = await response.json();
  token = fresh.token;
  expiresAt = Date.parse(fresh.expiresAt);
}

function scheduleRenewal() {
  const wait = Math.max(1000, (expiresAt - Date.now()) * 0.7);
  setTimeout(() => renew().then(scheduleRenewal, (error) => {
    status.textContent = `${error.message}; reload the page`;
  }), wait);
}

// the version shown: the latest one the events stream announced (`ready`, then each `published`)
let version = "";

async function load() {
  const response = await fetch(`${base}/models/models/shop.malloy/query`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ sourceName: "orders", queryName: "by_category", ...(version ? { versionId: version } : {}) }),
  });
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
  status.textContent = `version ${version || "latest"}, ${result.totalRows} categories`;
  document.body.dataset.version = version;
}

let lastEventId = "";
function listen() {
  const query = new URLSearchParams({ app_token: token });
  if (lastEventId) query.set("lastEventId", lastEventId);
  const events = new EventSource(`${base}/events?${query}`);
  const seen = (e) => {
    if (e.lastEventId) lastEventId = e.lastEventId;
  };
  events.addEventListener("ready", (e) => {
    seen(e);
    const latest = JSON.parse(e.data).latestVersion;
    if (latest && latest !== version) {
      version = latest;
      load();
    }
  });
  events.addEventListener("published", (e) => {
    seen(e);
    version = JSON.parse(e.data).versionId;
    load();
  });
  events.addEventListener("archived", (e) => {
    seen(e);
    if (JSON.parse(e.data).versionId === version) version = "";
    load();
  });
  events.addEventListener("reset", (e) => {
    seen(e);
    version = "";
  });
  events.addEventListener("revoked", () => {
    events.close();
    status.textContent = "your access to this package was removed";
    document.body.dataset.revoked = "true";
  });
  // a closed stream (the app token expired, or the service restarted with a new one needed): reconnect with a fresh token
  events.addEventListener("error", () => {
    if (events.readyState !== EventSource.CLOSED || document.body.dataset.revoked) return;
    setTimeout(() => renew().catch(() => {}).finally(listen), 1000);
  });
}

scheduleRenewal();
listen(); // `ready` names the latest version and loads it
