// End to end, outside vitest: support e-mail through wrangler dev's local Email Routing endpoint.
// A fresh dev server (its own database directory, a free port, its own instance id) takes two e-mails at
// /cdn-cgi/local/email for a new workspace's support address: the first opens a ticket, the second (tagged
// [#TKT-000001]) is its reply. Then: one ticket with one reply, an agent's answer queued and sent by the mail
// queue, and an e-mail for a workspace that does not exist refused with its reason.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";

const DOMAIN = "support.business-platform.example";
const persistTo = mkdtempSync(join(tmpdir(), "bp-helpdesk-"));
let server;
let failed = false;

const check = (ok, what, detail = "") => {
  console.log(`${ok ? "ok" : "FAIL"} ${what}${ok || !detail ? "" : ` — ${detail}`}`);
  if (!ok) failed = true;
};

/** An RFC 5322 message, as a mail server would hand it to Email Routing. */
const message = ({ to, subject, text, messageId }) =>
  [
    "From: Ana Silva <ana@contoso.example>",
    `To: ${to}`,
    `Subject: ${subject}`,
    "Date: Tue, 24 Nov 2026 09:00:00 +0000",
    `Message-ID: ${messageId}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    text,
  ].join("\r\n");

try {
  migrateLocal({ persistTo });
  server = await startLocalServer({ persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
  const call = async (method, path, token, body) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json().catch(() => null) };
  };
  const send = async (to, raw) => {
    const url = `${server.url}/cdn-cgi/local/email?${new URLSearchParams({ from: "ana@contoso.example", to })}`;
    const res = await fetch(url, { method: "POST", body: raw });
    return { status: res.status, text: await res.text() };
  };

  const signup = await call("POST", "/auth/signup", undefined, {
    workspace_name: "Support E2E",
    name: "Owner",
    email: `helpdesk-${Date.now()}@example.com`,
    password: "helpdesk-password-123",
  });
  check(signup.status === 201, "a new workspace", JSON.stringify(signup.json));
  const token = signup.json.data.token;
  const workspaceId = signup.json.data.workspace_id;
  const support = `support+${workspaceId}@${DOMAIN}`;

  const first = await send(
    support,
    message({ to: support, subject: "My invoice link is broken", text: "The PDF link says not found.", messageId: "<e2e-1@contoso.example>" }),
  );
  check(first.status === 200, "the first e-mail is taken", `${first.status} ${first.text}`);
  const second = await send(
    support,
    message({ to: support, subject: "Re: [#TKT-000001] My invoice link is broken", text: "Any news?", messageId: "<e2e-2@contoso.example>" }),
  );
  check(second.status === 200, "the second e-mail is taken", `${second.status} ${second.text}`);

  const tickets = await call("GET", "/tickets", token);
  check(tickets.status === 200 && tickets.json.data.length === 1, "one ticket", JSON.stringify(tickets.json));
  const ticket = tickets.json.data[0];
  check(
    ticket?.number === "TKT-000001" && ticket?.source === "email" && ticket?.email === "ana@contoso.example",
    "opened from the first e-mail",
    JSON.stringify(ticket),
  );
  const replies = await call("GET", `/ticket-replies?ticket_id=${ticket?.id}`, token);
  check(replies.json?.data?.length === 1 && replies.json.data[0].body === "Any news?", "with one reply, the second e-mail", JSON.stringify(replies.json));

  const answer = await call("POST", "/ticket-replies", token, { ticket_id: ticket?.id, body: "Fixed — try the link again." });
  check(answer.status === 201, "an agent answers", JSON.stringify(answer.json));
  const answered = await call("GET", `/tickets/${ticket?.id}`, token);
  check(answered.json?.data?.first_responded_at !== null, "the first response is recorded", JSON.stringify(answered.json));

  const stranger = `support+987654321@${DOMAIN}`;
  const refused = await send(stranger, message({ to: stranger, subject: "Hello", text: "Anyone?", messageId: "<e2e-3@contoso.example>" }));
  check(
    refused.status === 400 && /No such workspace/.test(refused.text),
    "an unknown workspace's address is refused with its reason",
    `${refused.status} ${refused.text}`,
  );
  check((await call("GET", "/tickets", token)).json.data.length === 1, "and nothing was written");
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
if (failed) {
  console.error("e2e-helpdesk-email: FAILED");
  process.exit(1);
}
console.log("e2e-helpdesk-email: passed");
