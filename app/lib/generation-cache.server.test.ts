import { describe, expect, it } from "vitest";
import { whileCurrent } from "./generation-cache.server";
import { runWithRequest } from "./request-context.server";

function setup(ttlMs = 10_000) {
  const state = { generation: 1 as number | null, now: 0, reads: 0 };
  const read = whileCurrent(
    async (id: number) => {
      state.reads++;
      return { id, read: state.reads, nested: { list: [id] } };
    },
    { ttlMs, maxEntries: 2, generation: () => state.generation, now: () => state.now },
  );
  return { state, read };
}

describe("whileCurrent", () => {
  it("answers again from what it kept while the generation stays and the time is short", async () => {
    const { state, read } = setup();
    expect((await read(1)).read).toBe(1);
    state.now = 9_999;
    expect((await read(1)).read).toBe(1);
    expect((await read(2)).read).toBe(2);
    expect(state.reads).toBe(2);
  });

  it("reads again once the generation moved (a write) or the time ran out", async () => {
    const { state, read } = setup();
    await read(1);
    state.generation = 2;
    expect((await read(1)).read).toBe(2);
    state.now = 10_000;
    expect((await read(1)).read).toBe(3);
  });

  it("keeps nothing while the generation is unknown, nor what a write overlapped", async () => {
    const { state, read } = setup();
    state.generation = null;
    await read(1);
    await read(1);
    expect(state.reads).toBe(2);
    state.generation = 5;
    const racing = whileCurrent(
      async () => {
        state.generation = 6; // a write began while this was read
        return ++state.reads;
      },
      { generation: () => state.generation },
    );
    await racing();
    expect(await racing()).toBe(state.reads);
    expect(state.reads).toBe(4);
  });

  it("drops the least recently used beyond its size, and hands out frozen answers", async () => {
    const { state, read } = setup();
    await read(1);
    await read(2);
    await read(1);
    await read(3); // drops 2
    await read(1);
    expect(state.reads).toBe(3);
    await read(2);
    expect(state.reads).toBe(4);
    const answer = await read(1);
    expect(Object.isFrozen(answer.nested.list)).toBe(true);
  });

  it("shares a read under way with whoever asks the same meanwhile, but not across a write nor after a failure", async () => {
    const state = { generation: 1, reads: 0, fail: false };
    const waiting: (() => void)[] = [];
    const release = () => waiting.splice(0).forEach((resolve) => resolve());
    const read = whileCurrent(
      async (id: number) => {
        state.reads++;
        await new Promise<void>((resolve) => waiting.push(resolve));
        if (state.fail) throw new Error("the database went away");
        return { id, read: state.reads };
      },
      { generation: () => state.generation },
    );
    const [a, b] = [read(1), read(1)];
    await Promise.resolve();
    release();
    expect(await a).toEqual({ id: 1, read: 1 });
    expect(await b).toBe(await a);
    expect(Object.isFrozen(await b)).toBe(true);
    expect(state.reads).toBe(1);

    state.generation = 2; // a write: the next asker reads afresh, and one asking after the write does not join an older read
    const c = read(1);
    await Promise.resolve();
    state.generation = 3;
    const d = read(1);
    await Promise.resolve();
    expect(state.reads).toBe(3);
    release();
    await Promise.all([c, d].map((p) => p.catch(() => undefined)));

    state.fail = true; // a failed read is shared by those waiting on it, kept by none
    const [e, f] = [read(2), read(2)];
    await Promise.resolve();
    release();
    await expect(e).rejects.toThrow("the database went away");
    await expect(f).rejects.toThrow("the database went away");
    state.fail = false;
    const g = read(2);
    await Promise.resolve();
    release();
    expect((await g).read).toBe(5);
  });

  it("neither answers nor fills from what it keeps for a request that reads fresh (its visitor just wrote)", async () => {
    const { state, read } = setup();
    expect((await read(1)).read).toBe(1);
    // The database changed without this process hearing of it yet: the kept answer is stale.
    const fresh = await runWithRequest("fresh-1", () => read(1), { readsFresh: true });
    expect(fresh.read).toBe(2);
    expect((await runWithRequest("plain-1", () => read(1))).read).toBe(1);
    // What a fresh request read was not kept for the others, nor shared with them while under way.
    await runWithRequest("fresh-2", () => read(2), { readsFresh: true });
    expect((await read(2)).read).toBe(4);
    expect(state.reads).toBe(4);
  });
});
