/* croupier web: the administrator's page: every account (role, status, a dealer's tables, a
 * player's id, demo or not) with disable and enable, and the sign-in locks with their release.
 * Accounts are created, given passwords, roles and tables with `croupier accounts` or the API
 * (POST /api/accounts...): a password never passes through a shared page.
 */
"use strict";

class AccountsPage {
  constructor(section) { this.section = section; }
  async enter() {
    this.section.replaceChildren(h("h1", { id: "accounts-title" }, "Accounts"), h("p.muted", {}, "Loading…"));
    try { await this.draw(); } catch (err) { Announce.error(err); }
  }
  async draw() {
    const [accounts, locks] = await Promise.all([Api.get("/api/accounts"), Api.get("/api/sign-in/locks")]);
    const act2 = (verb, name) => (e) => act(e.currentTarget, async () => {
      await Api.post(`/api/accounts/${encodeURIComponent(name)}/${verb}`);
      Announce.say(`${name}: ${verb}d.`);
      await this.draw();
    });
    const rows = accounts.map((a) => h("tr", { dataset: { account: a.username } },
      h("td", {}, a.username), h("td", {}, a.role), h("td", {}, a.status),
      h("td", {}, a.role === "dealer" ? (a.tables.join(", ") || "none") : (a.player_id || "")),
      h("td", {}, a.demo ? "demo" : ""),
      h("td", {}, h("button.btn", { type: "button", onclick: act2(a.status === "active" ? "disable" : "enable", a.username) },
        a.status === "active" ? "Disable" : "Enable"))));
    const release = (lock) => (e) => act(e.currentTarget, async () => {
      await Api.post("/api/sign-in/unlock", lock.account ? { username: lock.account } : { address: lock.address });
      Announce.say("Lock released.");
      await this.draw();
    });
    const lockRows = locks.map((l) => h("tr", {},
      h("td", {}, l.account ? `account ${l.account}` : `address ${l.address}`), h("td", {}, String(l.failures)),
      h("td", {}, l.locked_until || "not locked"), h("td", {}, String(l.refused)),
      h("td", {}, h("button.btn", { type: "button", onclick: release(l) }, "Release"))));
    this.section.replaceChildren(h("h1", { id: "accounts-title" }, "Accounts"),
      h("p.muted", {}, "Create accounts, set passwords, roles and dealers' tables with croupier accounts or the API."),
      h("div.panel.scroll", {}, h("table.grid", { "aria-label": "accounts" },
        h("thead", {}, h("tr", {}, ["User", "Role", "Status", "Tables / player", "", ""].map((x) => h("th", {}, x)))),
        h("tbody", {}, rows))),
      h("div.panel.scroll", {}, h("h2", {}, "Sign-in locks"), lockRows.length ? h("table.grid", { "aria-label": "sign-in locks" },
        h("thead", {}, h("tr", {}, ["Who", "Failures", "Locked until", "Refused", ""].map((x) => h("th", {}, x)))),
        h("tbody", {}, lockRows)) : h("p.muted", {}, "No failed sign-in is counted.")));
  }
}

App.register("accounts", new AccountsPage(document.getElementById("page-accounts")));
