// Staff accounts on two servers (docs/decisions/0033): every request reads the account's row, and
// disabling it deletes its sessions in the same transaction, so an account disabled through one
// server is refused by the other at its very next request: no cache, no wait.
import { describe, expect, it } from "vitest";
import { adminClient, Client, eventually, mailsTo, PASSWORD, uniqueEmail } from "../support/cluster/client";
import { ADMIN_PASSWORD, clusterForFile, query as sql } from "../support/cluster/setup";

const cluster = clusterForFile();
const A = () => cluster().servers[0]!.url;
const B = () => cluster().servers[1]!.url;

describe("staff accounts on two servers", () => {
  it("an account invited on A, accepted on B and signed in on A is refused on B the moment the owner disables it on A", async () => {
    const owner = await adminClient(A(), ADMIN_PASSWORD);
    const email = uniqueEmail("staff");
    const invited = await owner.send(A(), "POST", "/admin/staff", {
      form: { intent: "invite", name: "Cluster Fulfilment", email, role: "fulfilment" },
    });
    expect([200, 302, 303], invited.text.slice(0, 200)).toContain(invited.status);

    // The invitation's link, mailed by whichever server's worker sent it; accepted through B.
    const link = await eventually(
      async () => {
        const mails = await mailsTo(email, cluster().mailDir);
        return /https?:\/\/\S+\/admin\/invite\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text ?? "")?.[1] ?? "";
      },
      (token) => token.length > 0,
      "the invitation mail",
    );
    const person = new Client();
    const accepted = await person.send(B(), "POST", "/admin/invite", {
      form: { token: link, password: PASSWORD, confirmPassword: PASSWORD },
    });
    expect([302, 303], accepted.text.slice(0, 200)).toContain(accepted.status);

    // Signed in on A (fulfilment needs no code), served on B.
    const signedIn = await person.send(A(), "POST", "/admin/login", { form: { email, password: PASSWORD } });
    expect(signedIn.status, signedIn.text.slice(0, 200)).toBe(303);
    expect(signedIn.location).toBe("/admin");
    const before = await person.send(B(), "GET", "/admin/orders");
    expect(before.status).toBe(200);
    expect(before.text).toContain("Cluster Fulfilment");

    // Disabled through A: B refuses the very next request (a page view goes to /; the API no longer
    // sees staff, and without a customer's sign-in asks to log in).
    const [row] = await sql<{ id: number }>(cluster(), "select id from staff where email = $1", [email]);
    const disabled = await owner.send(A(), "POST", "/admin/staff", { form: { intent: "disable", id: String(row!.id) } });
    expect([200, 302, 303], disabled.text.slice(0, 200)).toContain(disabled.status);
    const [state] = await sql<{ active: number }>(cluster(), "select active from staff where id = $1", [row!.id]);
    expect(state!.active).toBe(0);
    const after = await person.send(B(), "GET", "/admin/orders");
    expect(after.status).toBe(302);
    expect(after.location).toBe("/");
    const write = await person.send(B(), "PUT", "/api/orders/changeStatus", { json: { orderId: 1, status: "shipped" } });
    expect(write.status).toBe(401);
    // Its sessions are gone from the shared database, not merely refused.
    expect(await sql(cluster(), "select id from sessions where staff_id = $1", [row!.id])).toEqual([]);
    // And the owner's audit trail names who did it.
    const [audit] = await sql<{ actor: string; summary: string }>(
      cluster(),
      "select actor, summary from audit_log where entity = 'staff' and entity_id = $1 order by id desc limit 1",
      [String(row!.id)],
    );
    expect(audit!.actor).toBe("Built-in owner");
  });
});
