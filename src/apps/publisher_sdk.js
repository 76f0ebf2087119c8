// /sdk/publisher.js: the runtime of Publisher-style data apps, written for this
// platform. It gives a page `window.Publisher` with `query`, `queryFull`,
// `context`, `setToken` and `embed`, and reloads the page when its package is
// republished. A page runs sandboxed (an opaque origin, no cookie): it
// authenticates with the app token the platform injects into it
// (<meta name="app-token">), renewed before it expires, and reaches the
// package's routes at <meta name="app-api">. Requests a Publisher page makes
// itself to Publisher's paths (`/api/v0/environments/<env>/packages/<pkg>/...`)
// are sent to this package's routes with the app token.
(() => {
  const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ?? "";
  const ORIGINAL_FETCH = window.fetch.bind(window);

  // The package's API address: `<origin?>/api/v0/organizations/<org>/environments/<env>/packages/<pkg>`.
  const api = meta("app-api") || location.pathname.replace(/\/app\/.*$/, "");
  const parts = /\/api\/v0\/organizations\/([^/]+)\/(?:environments|projects)\/([^/]+)\/packages\/([^/]+)$/.exec(api);
  const decode = (s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const context = parts ? { organization: decode(parts[1]), environment: decode(parts[2]), package: decode(parts[3]) } : {};
  const apiOrigin = /^https?:\/\/[^/]+/.exec(api)?.[0] ?? "";
  const orgBase = parts ? api.slice(0, api.indexOf("/environments/") >= 0 ? api.indexOf("/environments/") : api.indexOf("/projects/")) : "";

  let appToken = meta("app-token");
  let appTokenExpires = Date.parse(meta("app-token-expires")) || Date.now() + 60_000;
  /** A token set by the page (`setToken`); it replaces the app token until cleared. */
  let pageToken = null;
  let renewing = null;

  /** Renews the app token (with itself) when it expires within a minute. */
  function freshAppToken() {
    if (!appToken || appTokenExpires - Date.now() > 60_000) return Promise.resolve(appToken);
    renewing ??= ORIGINAL_FETCH(`${api}/app-token`, { method: "POST", headers: { authorization: `Bearer ${appToken}` }, credentials: "omit" })
      .then(async (response) => {
        if (!response.ok) throw new Error(`Publisher: renewing the app token failed (${response.status}); reload the page`);
        const fresh = await response.json();
        appToken = fresh.token;
        appTokenExpires = Date.parse(fresh.expiresAt);
        return appToken;
      })
      .finally(() => {
        renewing = null;
      });
    return renewing;
  }

  async function authorization() {
    const token = pageToken ?? (await freshAppToken());
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  /** The API address of a package: this page's, or the one `opts` names (same organization). */
  function packageApi(opts) {
    if (!opts?.environment && !opts?.package) {
      if (!parts) throw new Error("Publisher: this page is not served from a package; pass { environment, package } in opts");
      return api;
    }
    const env = opts.environment ?? context.environment;
    const pkg = opts.package ?? context.package;
    if (!orgBase || !env || !pkg) throw new Error("Publisher: no organization known for { environment, package }; serve the page from a package");
    return `${orgBase}/environments/${encodeURIComponent(env)}/packages/${encodeURIComponent(pkg)}`;
  }

  const modelUrl = (modelPath) => String(modelPath).split("/").map(encodeURIComponent).join("/");

  async function run(modelPath, malloy, opts) {
    opts = opts ?? {};
    const body = {};
    if (malloy) body.query = malloy;
    if (opts.queryName) body.queryName = opts.queryName;
    if (opts.sourceName) body.sourceName = opts.sourceName;
    if (opts.versionId) body.versionId = opts.versionId;
    if (opts.limit) body.limit = opts.limit;
    // the model's givens by name; the service fills those named like a trusted attribute itself and refuses them here (400)
    if (opts.givens && typeof opts.givens === "object" && Object.keys(opts.givens).length > 0) body.givens = opts.givens;
    const response = await ORIGINAL_FETCH(`${packageApi(opts)}/models/${modelUrl(modelPath)}/query`, {
      method: "POST",
      credentials: "omit",
      headers: { "content-type": "application/json", ...(await authorization()) },
      body: JSON.stringify(body),
    });
    let json = null;
    try {
      json = await response.json();
    } catch {
      throw Object.assign(new Error(`Publisher.query: the server answered ${response.status} without JSON`), { status: response.status });
    }
    if (!response.ok) {
      const error = new Error(`Publisher.query: ${json?.message ?? response.statusText ?? "the query failed"}`);
      error.status = response.status;
      error.response = json;
      throw error;
    }
    return json;
  }

  const TYPE_KINDS = { string: "string_type", number: "number_type", boolean: "boolean_type", date: "date_type", timestamp: "timestamp_type", json: "json_type" };

  /** One value as a cell of Malloy's result format. */
  function cell(value, type) {
    if (value === null || value === undefined) return { kind: "null_cell" };
    if (type === "date") return { kind: "date_cell", date_value: String(value) };
    if (type === "timestamp") return { kind: "timestamp_cell", timestamp_value: String(value) };
    if (Array.isArray(value)) return { kind: "array_cell", array_value: value.map((v) => cell(v)) };
    if (typeof value === "object") return { kind: "record_cell", record_value: Object.values(value).map((v) => cell(v)) };
    if (typeof value === "number") return { kind: "number_cell", number_value: value };
    if (typeof value === "boolean") return { kind: "boolean_cell", boolean_value: value };
    if (type === "number" && value !== "" && !Number.isNaN(Number(value))) return { kind: "number_cell", number_value: Number(value), string_value: value };
    return { kind: "string_cell", string_value: String(value) };
  }

  /** The platform's answer as Malloy's result envelope (`schema.fields`, `data.array_value` of records). */
  function envelope(answer) {
    const schema = answer.metadata?.schema ?? Object.keys(answer.data?.[0] ?? {}).map((name) => ({ name, type: "string" }));
    return {
      schema: {
        fields: schema.map((f) => ({ kind: "dimension", name: f.name, type: { kind: TYPE_KINDS[f.type] ?? `${f.type}_type` }, annotations: [] })),
      },
      data: {
        kind: "array_cell",
        array_value: (answer.data ?? []).map((row) => ({ kind: "record_cell", record_value: schema.map((f) => cell(row[f.name], f.type)) })),
      },
      connection_name: answer.metadata?.connection,
      sql: answer.metadata?.sql,
      totalRows: answer.totalRows,
      executionTime: answer.executionTime,
    };
  }

  /** Rows of a query: `[{ column: value, ... }]`. */
  async function query(modelPath, malloy, opts) {
    return (await run(modelPath, malloy, opts)).data;
  }

  /** The whole result, as Malloy's result envelope. */
  async function queryFull(modelPath, malloy, opts) {
    return envelope(await run(modelPath, malloy, opts));
  }

  // Publisher's own paths, as a Publisher page fetches them itself (model metadata, for one):
  // sent to this package's routes with the app token, never with cookies.
  const PUBLISHER_PATH = /^\/api\/v0\/(?:environments|projects)\/([^/]+)\/packages\/([^/]+)(\/.*)?$/;
  window.fetch = async (input, init) => {
    const raw = typeof input === "string" || input instanceof URL ? String(input) : input?.url;
    if (parts && raw) {
      const url = new URL(raw, document.baseURI);
      const match = PUBLISHER_PATH.exec(url.pathname);
      if (match && (url.origin === location.origin || url.origin === "null" || url.origin === new URL(document.baseURI).origin)) {
        const target = `${packageApi({ environment: decode(match[1]), package: decode(match[2]) })}${match[3] ?? ""}${url.search}`;
        const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
        for (const [k, v] of Object.entries(await authorization())) if (!headers.has(k)) headers.set(k, v);
        const request = input instanceof Request ? input : undefined;
        return ORIGINAL_FETCH(target, {
          method: init?.method ?? request?.method ?? "GET",
          headers,
          body: init?.body ?? (request && request.method !== "GET" ? await request.arrayBuffer() : undefined),
          credentials: "omit",
          signal: init?.signal ?? request?.signal,
        });
      }
    }
    return ORIGINAL_FETCH(input, init);
  };

  // The platform puts a <base> in each page (its file links), so a relative URL given to
  // history.pushState/replaceState (`?tab=x`) would resolve against it and put the file link in
  // the address bar; resolved against the page's own URL, as the page meant.
  for (const name of ["pushState", "replaceState"]) {
    const original = history[name].bind(history);
    history[name] = (state, title, url) => original(state, title, url == null ? url : new URL(String(url), location.href).href);
  }

  /**
   * Opens a page of this package, signed in, in a window (`_self` or a frame's name): a sandboxed
   * page's navigations carry no cookie, so it posts a single-use launch got with its app token.
   */
  async function openSignedIn(target, url) {
    const response = await ORIGINAL_FETCH(`${api}/app-token?launch=true`, {
      method: "POST",
      headers: { authorization: `Bearer ${await freshAppToken()}` },
      credentials: "omit",
    });
    const fresh = response.ok ? await response.json() : null;
    if (!fresh?.launch) throw new Error(`Publisher: no launch to open the page with (${response.status})`);
    const form = document.createElement("form");
    form.method = "post";
    form.action = url;
    form.target = target;
    form.style.display = "none";
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = "launch";
    field.value = fresh.launch;
    form.append(field);
    document.body.append(form);
    form.submit();
    form.remove();
  }

  /** The path of this package's app pages (`.../packages/<pkg>/app/`). */
  const appPath = parts ? `${new URL(api, location.href).pathname}/app/` : null;

  /** Mounts `options.src` as an iframe in `selector`, sized by the page it holds unless `height` is given. */
  function embed(selector, options) {
    options = options ?? {};
    const host = typeof selector === "string" ? document.querySelector(selector) : selector;
    if (!host) throw new Error("Publisher.embed: the selector matched no element");
    if (!options.src) throw new Error("Publisher.embed: options.src is required");
    const frame = document.createElement("iframe");
    // relative to the page's own URL (not the <base> the platform puts in it)
    const url = new URL(options.src, location.href);
    if (options.token) url.searchParams.set("embed_token", options.token);
    const own = appPath !== null && appToken && url.origin === location.origin && url.pathname.startsWith(appPath);
    frame.name = `publisher-embed-${Math.random().toString(36).slice(2)}`;
    frame.style.border = "0";
    frame.style.width = "100%";
    frame.style.display = "block";
    frame.style.height = options.height === undefined ? "0px" : typeof options.height === "number" ? `${options.height}px` : String(options.height);
    frame.setAttribute("sandbox", "allow-scripts allow-forms allow-popups");
    if (options.allow) frame.allow = options.allow;
    const onMessage = (event) => {
      if (event.source !== frame.contentWindow || event.data?.type !== "publisher:resize") return;
      if (options.height === undefined && typeof event.data.height === "number") frame.style.height = `${Math.max(0, event.data.height)}px`;
    };
    window.addEventListener("message", onMessage);
    host.appendChild(frame);
    // a page of this package opens signed in; anything else loads as it is
    if (own) openSignedIn(frame.name, url.href).catch(() => (frame.src = url.href));
    else frame.src = url.href;
    return {
      iframe: frame,
      destroy() {
        window.removeEventListener("message", onMessage);
        frame.remove();
      },
    };
  }

  /** In a frame: tells the host page the height of this page's content. */
  function reportHeight() {
    let framed;
    try {
      framed = window.self !== window.top;
    } catch {
      framed = true;
    }
    if (!framed) return;
    let last = -1;
    const post = () => {
      let bottom = 0;
      for (const child of document.body?.children ?? []) bottom = Math.max(bottom, child.getBoundingClientRect().bottom);
      const height = Math.ceil(bottom > 0 ? bottom + window.scrollY : document.documentElement.scrollHeight);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: "publisher:resize", height }, "*");
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", post);
    else post();
    window.addEventListener("load", post);
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(post).observe(document.documentElement);
  }

  /** Reloads the page when its package changes: a new version (also a watch-mode republish), an archived one, or one that compiles again. */
  function liveReload() {
    if (!parts || !appToken || typeof EventSource === "undefined") return;
    let lastEventId = "";
    let shownVersion = null;
    let reloading = false;
    let revoked = false;
    // A sandboxed page's own reload sends no cookie (the sign-in page would answer): it posts a launch instead.
    const reload = () => {
      if (reloading) return;
      reloading = true;
      setTimeout(() => openSignedIn("_self", location.href).catch(() => location.reload()), 100);
    };
    const listen = async () => {
      const token = await freshAppToken().catch(() => appToken);
      const params = new URLSearchParams({ app_token: token });
      if (lastEventId) params.set("lastEventId", lastEventId);
      const events = new EventSource(`${api}/events?${params}`);
      const seen = (e) => {
        if (e.lastEventId) lastEventId = e.lastEventId;
      };
      events.addEventListener("ready", (e) => {
        seen(e);
        const latest = JSON.parse(e.data).latestVersion ?? null;
        // a version published while the stream was away
        if (shownVersion !== null && latest !== shownVersion) reload();
        shownVersion = latest;
      });
      // a watch-mode `change` is followed by `published` (or `compile_error`) once the folder is republished: reload then
      for (const name of ["published", "archived", "compile_ok", "reset"]) {
        events.addEventListener(name, (e) => {
          seen(e);
          reload();
        });
      }
      events.addEventListener("revoked", () => {
        revoked = true;
        events.close();
      });
      events.addEventListener("error", () => {
        // the stream ended (the app token expired, the service restarted): again with a fresh token
        if (events.readyState !== EventSource.CLOSED || revoked) return;
        setTimeout(listen, 1000);
      });
      for (const name of ["change", "compile_error", "run_started", "run_progress", "run_finished", "indexed"]) events.addEventListener(name, seen);
    };
    void listen();
  }

  window.Publisher = {
    query,
    queryFull,
    embed,
    context,
    setToken(token) {
      pageToken = token || null;
    },
  };
  reportHeight();
  liveReload();
})();
