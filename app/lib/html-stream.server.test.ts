import { describe, expect, it } from "vitest";
import { CoalescingStream } from "./html-stream.server";

/** Everything the stream passes on, chunk by chunk, as text. */
function collect(stream: CoalescingStream): string[] {
  const chunks: string[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  return chunks;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("the stream React's HTML goes through", () => {
  it("passes on what was written before a flush as one chunk", async () => {
    const stream = new CoalescingStream();
    const chunks = collect(stream);
    stream.write(Buffer.from("<html>"));
    stream.write(Buffer.from("<body>"));
    stream.write(Buffer.from("₹1,23,456"));
    await tick();
    expect(chunks).toEqual([]);
    stream.flush();
    await tick();
    expect(chunks).toEqual(["<html><body>₹1,23,456"]);
  });

  it("passes each flush's pieces on in order, and what is left at the end", async () => {
    const stream = new CoalescingStream();
    const chunks = collect(stream);
    const ended = new Promise((resolve) => stream.on("end", resolve));
    stream.write(Buffer.from("shell"));
    stream.flush();
    stream.flush();
    stream.write(Buffer.from("boundary "));
    stream.write(Buffer.from("one"));
    stream.flush();
    stream.end(Buffer.from("</html>"));
    await ended;
    expect(chunks).toEqual(["shell", "boundary one", "</html>"]);
  });
});
