/* croupier web: the shared part of every page.
 *
 * Money (integer cents in, dollars shown), the DOM helper h(), the API client (Bearer token,
 * Idempotency-Key on every mutating command, problem+json errors), the WebSocket stream with
 * reconnect from the last sequence number, the announcer (aria-live) and the sign-in flow.
 */
"use strict";

const Money = {
  /** cents -> "$1,234.50" (integers only: money is never a float here). */
  fmt(cents) {
    const n = Number(cents) || 0;
    const sign = n < 0 ? "-" : "";
    const abs = Math.abs(Math.trunc(n));
    const dollars = Math.floor(abs / 100).toLocaleString("en-US");
    const rest = abs % 100;
    return `${sign}$${dollars}${rest ? "." + String(rest).padStart(2, "0") : ""}`;
  },
  /** "12.50" / "$12" -> 1250 cents, or null when it is not an amount. */
  parse(text) {
    const m = /^\s*\$?\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(String(text));
    if (!m) return null;
    return Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0"));
  },
};

/** h("div.class#id", {attr: v, onclick: f}, ...children) -> an element. */
function h(tag, attrs, ...children) {
  const [, name, rest] = /^([a-z0-9]+)(.*)$/i.exec(tag);
  const el = document.createElement(name);
  for (const part of rest.match(/[.#][^.#]+/g) || []) {
    if (part[0] === ".") el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** ``el``'s children replaced by ``children``, those that are nothing (null, undefined, false)
 * left out (``replaceChildren`` would print them as text: "null"). */
function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

/** " (§ 641a.13(c))" after a call, or nothing where no section is named. */
function cite(section) {
  return section ? ` (${section})` : "";
}

/** Amounts the server words in cents ("991400 cents") as dollars ("$9,914"): what a page shows. */
function dollars(text) {
  return String(text || "").replace(/(-?\d+) cents?\b/g, (_, n) => Money.fmt(Number(n)));
}

function words(slug) {
  return String(slug || "").replace(/[_-]+/g, " ");
}

/** The names of the game at hand's wagers and hands as people say them ("bet1": "Bet 1"), from
 * the table's detail (the game's own ``spoken_names``: the one source); a key it does not
 * name, in words. */
const Spoken = {
  names: {},
  use(names) { this.names = names || {}; },
};
function said(key) {
  return Spoken.names[key] || words(key);
}

/** Each position's light per progressive wager where a position has several devices (Let It
 * Ride's Three- and Five-Card Progressives, § 643a.2(c)(1)): "seat 1: three card progressive
 * lit, five card progressive dark", each light a span named by its seat and wager. */
function wagerLights(bySeat) {
  const parts = Object.entries(bySeat).map(([seat, lights], i) => [
    i ? " · " : "", `seat ${seat}: `,
    Object.entries(lights).map(([wager, light], j) => [j ? ", " : "",
      h("span.wager-light", { dataset: { seat, wager, light } }, `${said(wager)} ${light}`)])]);
  return h("span.wager-lights", {}, "lights by wager ", parts.flat(Infinity));
}

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

const Api = {
  token: sessionStorage.getItem("croupier.token") || "",
  session: JSON.parse(sessionStorage.getItem("croupier.session") || "null"),

  async call(method, path, body) {
    const headers = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (method !== "GET") headers["Idempotency-Key"] = uuid();
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text }; }
    if (!res.ok) {
      if (res.status === 401 && path !== "/api/login") Auth.expired();
      throw new ApiError(res.status, data || {});
    }
    return data;
  },
  get(path) { return this.call("GET", path); },
  post(path, body) { return this.call("POST", path, body === undefined ? {} : body); },
};

/** A WebSocket event stream that reconnects and resumes from the last sequence number.
 * The token goes in the first message (never in the address, where logs keep it); a stream
 * closed because the session ended (1008) or its token was refused (4401) is not reopened.
 * ``opts.since``: the sequence number the page's state stands at (the stream starts after it);
 * ``opts.onReopen``: called each time the stream is open again after a break. */
class Stream {
  constructor(path, onEvent, onStatus, opts = {}) {
    this.path = path;
    this.onEvent = onEvent;
    this.onStatus = onStatus || (() => {});
    this.onReopen = opts.onReopen || (() => {});
    this.seq = opts.since || 0;
    this.delay = 500;
    this.closed = false;
    this.opened = 0;
    this.open();
  }
  url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    return `${proto}://${location.host}${this.path}${this.path.includes("?") ? "&" : "?"}since=${this.seq}`;
  }
  open() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ token: Api.token }));
      this.delay = 500;
      this.onStatus("live");
      if (this.opened++ > 0) this.onReopen();
    };
    ws.onmessage = (msg) => {
      let ev;
      try { ev = JSON.parse(msg.data); } catch { return; }
      if (typeof ev.seq === "number") {
        if (ev.seq <= this.seq) return; // already seen (a resend after reconnect)
        this.seq = ev.seq;
      }
      this.onEvent(ev);
    };
    ws.onclose = (ev) => {
      if (this.closed) return;
      if (ev.code === 1008 || ev.code === 4401) { this.closed = true; Auth.expired(); return; }
      this.onStatus("reconnecting");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }
  close() { this.closed = true; if (this.ws) this.ws.close(); }
}

const Announce = {
  /** Say ``text`` to screen readers and show it in the page's call line. */
  say(text, tone) {
    const live = document.getElementById("announcer");
    if (live) live.textContent = text;
    const bar = document.getElementById("callout");
    if (bar) {
      bar.textContent = text;
      bar.className = "callout" + (tone ? ` callout-${tone}` : "");
    }
  },
  /** The words of a refusal, amounts in dollars, with the section that forbids it. */
  refusal(err) {
    const p = err && err.problem ? err.problem : {};
    const where = p.section ? ` (${p.section})` : "";
    return `${dollars(err && err.message ? err.message : err)}${where}`;
  },
  error(err) { this.say(this.refusal(err), "error"); },
  /** The bar emptied: what it said is no longer true. */
  clear() { this.say(""); },
};

/** A refusal shown beside the control that caused it (after the control's row), in place of
 * any earlier one; the control points at it (aria-describedby). */
function refuseBeside(control, err) {
  for (const old of document.querySelectorAll(".field-error")) old.remove();
  if (!control || !control.isConnected) return;
  const row = control.closest(".btn-row, .wager-row, .field") || control;
  const id = `err-${uuid().slice(0, 8)}`;
  row.after(h("p.field-error", { id, dataset: { for: focusKey(control) || "" } }, Announce.refusal(err)));
  control.setAttribute("aria-describedby", id);
}

/** Run an async action from a button: disable it meanwhile; a refusal is shown beside the
 * button and in the page's bar. */
async function act(button, work) {
  if (button) button.disabled = true;
  for (const old of document.querySelectorAll(".field-error")) old.remove();
  try { return await work(); } catch (err) { Announce.error(err); refuseBeside(button, err); return undefined; } finally {
    // a page drawn again meanwhile has its own buttons; the old one stays disabled
    if (button && button.isConnected) button.disabled = false;
  }
}

function debounce(fn, ms) {
  let t = null;
  return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), ms); };
}

const Auth = {
  save(session) {
    Api.token = session.token;
    Api.session = session;
    sessionStorage.setItem("croupier.token", session.token);
    sessionStorage.setItem("croupier.session", JSON.stringify(session));
  },
  clear() {
    Api.token = "";
    Api.session = null;
    sessionStorage.removeItem("croupier.token");
    sessionStorage.removeItem("croupier.session");
  },
  expired() { this.clear(); App.show("signin"); Announce.say("Your session has ended; sign in again.", "error"); },
};

const ROLE_PAGES = { player: "player", dealer: "dealer", supervisor: "pit", observer: "pit", auditor: "pit", admin: "accounts", trainee: "drills" };

const App = {
  pages: {},
  current: null,
  register(name, page) { this.pages[name] = page; },
  /** Show page ``name``; ``how`` "push": a new entry in the browser's history (Back comes
   * back here), otherwise the address is replaced. */
  show(name, arg, how) {
    if (this.current && this.pages[this.current].leave) this.pages[this.current].leave();
    for (const sec of document.querySelectorAll("main > section")) sec.hidden = sec.id !== `page-${name}`;
    this.current = name;
    const who = document.getElementById("who");
    const s = Api.session;
    who.textContent = s ? `${s.username || ""} · ${s.role}` : "";
    // a demo account says so on every page (its password is published: demo floors only)
    document.getElementById("demo-badge").hidden = !(s && s.demo);
    document.getElementById("signout").hidden = !s;
    document.getElementById("nav-par").hidden = name === "par";
    // dealer training: every staff role (not a player), from any page but its own
    document.getElementById("nav-drills").hidden = !s || s.role === "player" || name === "drills";
    // a trainee's own page is the training page: "Training" takes them home
    document.getElementById("nav-home").hidden = !s || (name !== "par" && name !== "drills") || ROLE_PAGES[s.role] === "drills";
    const path = { signin: "/", par: "/par-sheets" }[name] || `/${name}`;
    if (location.pathname !== path) history[how === "push" ? "pushState" : "replaceState"](null, "", path);
    if (this.pages[name].enter) this.pages[name].enter(arg);
    const section = document.getElementById(`page-${name}`);
    const heading = section.querySelector("h1, h2");
    // the page's heading takes the focus, unless the page put it on a control of its own
    if (heading && !section.contains(document.activeElement)) { heading.tabIndex = -1; heading.focus({ preventScroll: true }); }
  },
  home(how) {
    const s = Api.session;
    this.show(s ? ROLE_PAGES[s.role] || "pit" : "signin", undefined, how);
  },
  /** The page the address names (a reload, Back and Forward): the par sheets, or the
   * account's own page (which reads the rest of the address: the dealer's table). */
  route() {
    const s = Api.session;
    if (location.pathname === "/par-sheets") this.show("par");
    else if (location.pathname === "/drills" && s && s.role !== "player") this.show("drills");
    else this.home();
  },
};

App.register("signin", {
  enter() {
    const form = document.getElementById("signin-form");
    form.reset();
    document.getElementById("signin-user").focus();
  },
});

function setupSignin() {
  const form = document.getElementById("signin-form");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const username = form.username.value.trim();
    const password = form.password.value;
    const btn = form.querySelector("button[type=submit]");
    await act(btn, async () => {
      const session = await Api.post("/api/login", { username, password });
      Auth.save(session); // its username as the server normalised it
      Announce.say("");
      App.home();
    });
  });
  document.getElementById("signout").addEventListener("click", async () => {
    // the server ends the session (the token is refused from now on), then the page forgets it
    if (Api.token) await Api.post("/api/logout").catch(() => {});
    Auth.clear();
    App.show("signin");
  });
  document.getElementById("nav-par").addEventListener("click", () => App.show("par", undefined, "push"));
  document.getElementById("nav-drills").addEventListener("click", () => App.show("drills", undefined, "push"));
  document.getElementById("nav-home").addEventListener("click", () => App.home("push"));
  // Back and Forward move between the app's pages (and the dealer's tables), never out of it
  window.addEventListener("popstate", () => App.route());
}

window.addEventListener("DOMContentLoaded", () => {
  setupSignin();
  App.route();
});
