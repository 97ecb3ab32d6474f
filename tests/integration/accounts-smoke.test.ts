import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import * as register from "~/routes/api.user.auth.register";
import * as verify from "~/routes/api.user.auth.verifyOtp";
import * as login from "~/routes/api.user.auth.login";
import * as profile from "~/routes/api.auth.profile";
import * as logout from "~/routes/api.auth.logout";
import { latestCode } from "../support/outbox";
import { getRequest, jsonRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";

beforeAll(async () => {
  await ready;
});

describe("account API smoke", () => {
  it("register → code → verify → token → profile → logout", async () => {
    const email = "Smoke.User@Example.com";
    const r = await call(
      register.action,
      jsonRequest("POST", "/api/user/auth/register", { name: "Smoke User", email, password: "secret12" }),
    );
    expect(r.status).toBe(201);
    const code = await latestCode("smoke.user@example.com");
    const v = await call(verify.action, jsonRequest("POST", "/api/user/auth/verifyOtp", { email, otp: code }));
    expect(v.status).toBe(200);
    const token = asRecord(v.body).token as string;
    const me = await call(profile.loader, getRequest("/api/auth/profile", { Authorization: `Bearer ${token}` }));
    expect(asRecord(me.body).user).toMatchObject({ email: "smoke.user@example.com", name: "Smoke User" });
    const l = await call(login.action, jsonRequest("POST", "/api/user/auth/login", { email, password: "secret12" }));
    expect(l.status).toBe(200);
    const out = await call(logout.action, jsonRequest("POST", "/api/auth/logout", undefined, { Authorization: `Bearer ${token}` }));
    expect(out.status).toBe(200);
    const after = await call(profile.loader, getRequest("/api/auth/profile", { Authorization: `Bearer ${token}` }));
    expect(after.status).toBe(401);
  });
});
