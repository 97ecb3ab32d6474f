import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { db } from "./db.server";
import { beginShutdown, isShuttingDown, onShutdown, readiness, shutdown } from "./lifecycle.server";

describe("the shutdown hooks", () => {
  it("run once, newest first, a failing one logged without stopping the others; then the database closes", async () => {
    await sql`select 1`.execute(db);
    const ran: string[] = [];
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    onShutdown(() => void ran.push("first"));
    const remove = onShutdown(() => void ran.push("removed"));
    onShutdown(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      ran.push("second, slow");
    });
    onShutdown(() => {
      ran.push("third, failing");
      throw new Error("the worker would not stop");
    });
    remove();
    expect(isShuttingDown()).toBe(false);
    beginShutdown();
    expect(isShuttingDown()).toBe(true);
    expect(ran).toEqual([]);
    const first = shutdown();
    expect(shutdown()).toBe(first);
    await first;
    expect(ran).toEqual(["third, failing", "second, slow", "first"]);
    expect(errors.mock.calls.map((call) => String(call.join(" ")))).toEqual([
      expect.stringMatching(/a shutdown hook failed.*the worker would not stop/),
    ]);
    errors.mockRestore();
    await shutdown();
    expect(ran).toHaveLength(3);
    // The database is closed: a query fails, and readiness says the server is stopping.
    await expect(sql`select 1`.execute(db)).rejects.toThrow();
    expect(await readiness()).toBe("shutting-down");
  });
});
