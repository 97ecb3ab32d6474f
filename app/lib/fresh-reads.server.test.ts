import { describe, expect, it } from "vitest";
import { FRESH_READS_COOKIE, freshReadsCookie, readsFreshFrom } from "./fresh-reads.server";
import { noteRequestWroteShown, runWithRequest } from "./request-context.server";
import { sharedWrites } from "./write-watch.server";

const request = new Request("http://shop.test/product/a-sofa", { method: "POST" });

/** Runs `fn` as if the process heard of other servers' writes by notification (PostgreSQL). */
function onSeveralServers<T>(fn: () => T): T {
  const listen = sharedWrites.listen;
  sharedWrites.listen = () => ({ ready: Promise.resolve() }) as unknown as ReturnType<NonNullable<typeof listen>>;
  try {
    return fn();
  } finally {
    sharedWrites.listen = listen;
  }
}

describe("reading one's own writes", () => {
  it("reads fresh exactly when the request carries the cookie with its value", () => {
    expect(readsFreshFrom(`${FRESH_READS_COOKIE}=1`)).toBe(true);
    expect(readsFreshFrom(`__session=abc; ${FRESH_READS_COOKIE}=1; theme=x`)).toBe(true);
    expect(readsFreshFrom(`__session=abc;${FRESH_READS_COOKIE}=1`)).toBe(true);
    expect(readsFreshFrom(undefined)).toBe(false);
    expect(readsFreshFrom("__session=abc")).toBe(false);
    expect(readsFreshFrom(`${FRESH_READS_COOKIE}=0`)).toBe(false);
    expect(readsFreshFrom(`x${FRESH_READS_COOKIE}=1`)).toBe(false);
    expect(readsFreshFrom(`${FRESH_READS_COOKIE}=11`)).toBe(false);
  });

  it("sets the cookie, for as long as an answer is kept, on the answer to a request that wrote, when other servers hear of it late", () => {
    const cookie = onSeveralServers(() =>
      runWithRequest("wrote", () => {
        noteRequestWroteShown();
        return freshReadsCookie(request);
      }),
    );
    expect(cookie).toBe(`${FRESH_READS_COOKIE}=1; Max-Age=10; Path=/; HttpOnly; SameSite=Lax`);
    const https = onSeveralServers(() =>
      runWithRequest("wrote-https", () => {
        noteRequestWroteShown();
        return freshReadsCookie(new Request("https://shop.test/cart", { method: "POST" }));
      }),
    );
    expect(https).toMatch(/; Secure$/);
  });

  it("sets none for a request that wrote nothing a page shows, outside a request, or on one server", () => {
    expect(onSeveralServers(() => runWithRequest("read-only", () => freshReadsCookie(request)))).toBeNull();
    expect(onSeveralServers(() => freshReadsCookie(request))).toBeNull();
    const onOne = runWithRequest("one-server", () => {
      noteRequestWroteShown();
      return freshReadsCookie(request);
    });
    expect(sharedWrites.listen).toBeUndefined();
    expect(onOne).toBeNull();
  });
});
