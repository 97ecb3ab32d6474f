// Uploaded images, in both image stores (app/lib/image-store.server.ts) whichever database the
// tests run on: the byte checks, the put/get round trip, and the /uploads/* answers (caching,
// ETag and 304, 404 for unknown and malformed names, HEAD, a failing store).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { AppError } from "~/lib/errors.server";
import type { ImageStore } from "~/lib/image-store.server";
import { DatabaseImageStore, DiskImageStore, imageEtag, imageStore, uploadsDir } from "~/lib/image-store.server";
import { etagMatches, imageFromForm, MAX_UPLOAD_BYTES, readUpload, removeUpload, uploadResponse } from "~/lib/uploads.server";
import { action, loader } from "~/routes/uploads.$";

// Small real images: a 1×1 PNG, a 1×1 lossless WebP, and a JPEG's header segments (SOI, JFIF APP0, EOI).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
const WEBP = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);

beforeAll(async () => {
  await ready;
});

function formWith(value: File | string | null, field = "imageFile"): FormData {
  const form = new FormData();
  form.set("name", "Teak sofa");
  if (value !== null) form.set(field, value);
  return form;
}

const file = (bytes: BlobPart, name: string, type = "") => new File([bytes], name, { type });

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const storedName = (publicPath: string | null) => {
  expect(publicPath).toMatch(/^\/uploads\/[a-f0-9]{32}\.(jpg|png|webp)$/);
  return publicPath!.slice("/uploads/".length);
};

const randomName = (ext = "png") => `${crypto.randomBytes(16).toString("hex")}.${ext}`;

const request = (name: string, method = "GET", headers: Record<string, string> = {}) =>
  new Request(`http://localhost:3000/uploads/${name}`, { method, headers: { Host: "localhost:3000", ...headers } });

const routeArgs = (name: string, method = "GET", headers: Record<string, string> = {}) => ({
  request: request(name, method, headers),
  params: { "*": name },
  context: {},
});

/** How many images a store holds (files in its folder, or rows). */
async function countIn(store: ImageStore): Promise<number> {
  if (store instanceof DiskImageStore) return fs.existsSync(store.dir) ? fs.readdirSync(store.dir).length : 0;
  const { n } = await db
    .selectFrom("uploads")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** A store that fails every call: proves a malformed name is never looked up, and a failure is a plain 500. */
const failingStore: ImageStore = {
  kind: "database",
  put: () => Promise.reject(new Error("connection refused (put)")),
  get: () => Promise.reject(new Error("connection refused (get)")),
  info: () => Promise.reject(new Error("connection refused (info)")),
  hold: () => Promise.reject(new Error("connection refused (hold)")),
  delete: () => Promise.reject(new Error("connection refused (delete)")),
};

const stores: [string, () => ImageStore][] = [
  ["disk", () => new DiskImageStore(uploadsDir())],
  ["database", () => new DatabaseImageStore(db)],
];

describe("the store the app uses", () => {
  it("is the disk store on SQLite and the database store on PostgreSQL (IMAGE_STORE unset)", () => {
    expect(imageStore.kind).toBe(/^postgres/.test(env.DATABASE_URL) ? "database" : "disk");
  });
});

describe("imageFromForm: no file chosen", () => {
  it("is null when the field is missing, a string, or an empty file without a name", async () => {
    expect(await imageFromForm(formWith(null))).toBeNull();
    expect(await imageFromForm(formWith(""))).toBeNull();
    expect(await imageFromForm(formWith("/uploads/whatever.png"))).toBeNull();
    expect(await imageFromForm(formWith(file(new Uint8Array(0), ""), "imageFile"))).toBeNull();
    expect(await imageFromForm(formWith(file(PNG, "a.png", "image/png"), "other"))).toBeNull();
  });
});

describe.each(stores)("the %s store", (kind, makeStore) => {
  const store = makeStore();

  describe("imageFromForm: real images are stored", () => {
    it.each([
      ["PNG", PNG, "chair.png", "image/png", "png", "image/png"],
      ["JPEG", JPEG, "chair.jpg", "image/jpeg", "jpg", "image/jpeg"],
      ["WebP", WEBP, "chair.webp", "image/webp", "webp", "image/webp"],
    ])("a %s is stored and read back byte for byte", async (_label, bytes, name, claimed, ext, type) => {
      const stored = storedName(await imageFromForm(formWith(file(bytes, name, claimed)), "imageFile", store));
      expect(stored.endsWith(`.${ext}`)).toBe(true);
      const image = await store.get(stored);
      expect(image).toEqual({ bytes, type, etag: imageEtag(bytes), size: bytes.byteLength });
      expect(await store.info(stored)).toEqual({ type, etag: imageEtag(bytes), size: bytes.byteLength });
      const upload = await readUpload(stored, store);
      expect(upload?.type).toBe(type);
      expect(upload?.body.equals(bytes)).toBe(true);
      if (kind === "disk") {
        expect(uploadsDir()).toBe(path.join(env.DATA_DIR, "uploads"));
        expect(fs.readFileSync(path.join(uploadsDir(), stored)).equals(bytes)).toBe(true);
      } else {
        const row = await db.selectFrom("uploads").selectAll().where("name", "=", stored).executeTakeFirstOrThrow();
        expect({ ...row, bytes: Buffer.from(row.bytes).equals(bytes) }).toEqual({
          name: stored,
          contentType: type,
          bytes: true,
          size: bytes.byteLength,
          etag: imageEtag(bytes),
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string,
        });
        expect(fs.existsSync(path.join(uploadsDir(), stored))).toBe(false);
      }
    });

    it("names the image by its bytes, not by the name or type the browser sent", async () => {
      const stored = storedName(await imageFromForm(formWith(file(PNG, "holiday.jpg", "image/jpeg")), "imageFile", store));
      expect(stored.endsWith(".png")).toBe(true);
      expect((await readUpload(stored, store))?.type).toBe("image/png");
    });

    it("gives every upload a new random name, even for the same bytes", async () => {
      const a = storedName(await imageFromForm(formWith(file(PNG, "same.png", "image/png")), "imageFile", store));
      const b = storedName(await imageFromForm(formWith(file(PNG, "same.png", "image/png")), "imageFile", store));
      expect(a).not.toBe(b);
    });

    it("reads the field it is told to", async () => {
      const publicPath = await imageFromForm(formWith(file(WEBP, "x.webp"), "categoryImage"), "categoryImage", store);
      expect(storedName(publicPath)).toMatch(/\.webp$/);
    });

    it("accepts a file of exactly MAX_UPLOAD_BYTES", async () => {
      const big = Buffer.alloc(MAX_UPLOAD_BYTES);
      PNG.copy(big);
      const stored = storedName(await imageFromForm(formWith(file(big, "big.png", "image/png")), "imageFile", store));
      expect((await readUpload(stored, store))?.body.equals(big)).toBe(true);
    });
  });

  describe("imageFromForm: everything else is refused, and nothing is stored", () => {
    it.each([
      ["an SVG renamed .png", file('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "logo.png", "image/png")],
      ["an HTML page renamed .png", file("<!doctype html><html><body><script>alert(1)</script></body></html>", "page.png", "image/png")],
      ["text claiming to be image/png", file("just some text, honestly a PNG", "notes.txt", "image/png")],
      ["a GIF", file(Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64"), "a.gif", "image/gif")],
      ["an SVG named .svg", file('<svg xmlns="http://www.w3.org/2000/svg"/>', "a.svg", "image/svg+xml")],
      [
        "a RIFF file that is not WebP",
        file(Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt ")]), "a.webp", "image/webp"),
      ],
      ["a truncated PNG signature", file(PNG.subarray(0, 6), "a.png", "image/png")],
      ["an empty file with a name", file(new Uint8Array(0), "empty.png", "image/png")],
      ["HTML after a JPEG-looking name and type", file("<html>", "photo.jpeg", "image/jpeg")],
    ])("%s → 415 with a field message", async (_label, value) => {
      const before = await countIn(store);
      const error = await refusal(imageFromForm(formWith(value), "imageFile", store));
      expect(error.status).toBe(415);
      expect(error.fieldErrors).toEqual({ imageFile: "Please choose a JPEG, PNG or WebP image" });
      expect(await countIn(store)).toBe(before);
    });

    it("a file one byte over MAX_UPLOAD_BYTES → 413 with a field message on the field asked for", async () => {
      const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
      PNG.copy(big);
      const before = await countIn(store);
      const error = await refusal(imageFromForm(formWith(file(big, "big.png", "image/png"), "photo"), "photo", store));
      expect(error.status).toBe(413);
      expect(error.message).toBe("The image must be 2 MB or smaller");
      expect(error.fieldErrors).toEqual({ photo: "The image must be 2 MB or smaller" });
      expect(await countIn(store)).toBe(before);
    });

    it("put itself refuses a malformed name, bytes that are not what the name says, and a name already taken", async () => {
      const name = randomName();
      await expect(store.put("../x.png", "image/png", PNG)).rejects.toThrow(/not an upload name/);
      await expect(store.put(name, "image/png", Buffer.from("<svg/>"))).rejects.toThrow(/not a image\/png image/);
      await expect(store.put(name.replace(".png", ".jpg"), "image/jpeg", PNG)).rejects.toThrow(/not a image\/jpeg image/);
      await expect(store.put(name, "image/jpeg", PNG)).rejects.toThrow(/not a image\/jpeg image/);
      await store.put(name, "image/png", PNG);
      const otherPng = Buffer.concat([PNG, Buffer.from([0])]);
      await expect(store.put(name, "image/png", otherPng)).rejects.toThrow();
      expect((await store.get(name))?.bytes.equals(PNG)).toBe(true);
    });
  });

  describe("get, info and delete", () => {
    it.each([
      "../x",
      "../uploads/0123456789abcdef0123456789abcdef.png",
      "abc.svg",
      "0123456789abcdef0123456789abcdef.svg",
      "0123456789ABCDEF0123456789ABCDEF.png",
      "0123456789abcdef0123456789abcde.png",
      "0123456789abcdef0123456789abcdef0.png",
      "0123456789abcdef0123456789abcdef.png/",
      "0123456789abcdef0123456789abcdef.jpeg",
      "0123456789abcdef0123456789abcdef.png.html",
      "0123456789abcdef0123456789abcdef.png\n",
      "sub/0123456789abcdef0123456789abcdef.png",
      "..%2f0123456789abcdef0123456789abcdef.png",
      "",
    ])("refuses the name %j", async (name) => {
      expect(await store.get(name)).toBeNull();
      expect(await store.info(name)).toBeNull();
      expect(await store.delete(name)).toBe(false);
      expect(await readUpload(name, store)).toBeNull();
    });

    it("is null for a well-formed name that was never stored", async () => {
      expect(await store.get(randomName())).toBeNull();
      expect(await store.info(randomName("webp"))).toBeNull();
    });

    it("delete removes the image once (removeUpload by its public path; other paths are left alone)", async () => {
      const publicPath = await imageFromForm(formWith(file(PNG, "gone.png", "image/png")), "imageFile", store);
      expect(await removeUpload("/images/products/sofa.svg", store)).toBe(false);
      expect(await removeUpload(publicPath!, store)).toBe(true);
      expect(await store.get(storedName(publicPath))).toBeNull();
      expect(await removeUpload(publicPath!, store)).toBe(false);
    });
  });

  describe("the answer to /uploads/{name}", () => {
    it("serves a stored image with its type, a year's caching, a strong ETag and a locked-down CSP", async () => {
      const stored = storedName(await imageFromForm(formWith(file(JPEG, "desk.jpg", "image/jpeg")), "imageFile", store));
      const response = await uploadResponse(request(stored), stored, store);
      expect(response.status).toBe(200);
      expect(Object.fromEntries(response.headers)).toEqual({
        "content-type": "image/jpeg",
        "content-length": String(JPEG.byteLength),
        "cache-control": "public, max-age=31536000, immutable",
        etag: imageEtag(JPEG),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
      });
      expect(response.headers.get("ETag")).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(Buffer.from(await response.arrayBuffer()).equals(JPEG)).toBe(true);
    });

    it("answers 304 without a body when If-None-Match names its ETag (alone, in a list, weak, or *); 200 for another", async () => {
      const stored = storedName(await imageFromForm(formWith(file(PNG, "etag.png", "image/png")), "imageFile", store));
      const etag = imageEtag(PNG);
      for (const ifNoneMatch of [etag, `"nope", ${etag}`, `W/${etag}`, "*"]) {
        const response = await uploadResponse(request(stored, "GET", { "If-None-Match": ifNoneMatch }), stored, store);
        expect({ ifNoneMatch, status: response.status }).toEqual({ ifNoneMatch, status: 304 });
        expect(response.headers.get("ETag")).toBe(etag);
        expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
        expect(await response.text()).toBe("");
      }
      const other = await uploadResponse(request(stored, "GET", { "If-None-Match": imageEtag(JPEG) }), stored, store);
      expect(other.status).toBe(200);
      expect(Buffer.from(await other.arrayBuffer()).equals(PNG)).toBe(true);
    });

    it("answers HEAD with the headers and no body", async () => {
      const stored = storedName(await imageFromForm(formWith(file(WEBP, "head.webp", "image/webp")), "imageFile", store));
      const response = await uploadResponse(request(stored, "HEAD"), stored, store);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/webp");
      expect(response.headers.get("Content-Length")).toBe(String(WEBP.byteLength));
      expect(response.headers.get("ETag")).toBe(imageEtag(WEBP));
      expect(await response.text()).toBe("");
    });

    it("answers 404 for a name never stored, and for one deleted", async () => {
      const never = randomName();
      for (const method of ["GET", "HEAD"]) {
        const response = await uploadResponse(request(never, method), never, store);
        expect(response.status).toBe(404);
        expect(response.headers.get("Cache-Control")).toBe("no-store");
      }
      const publicPath = await imageFromForm(formWith(file(PNG, "bye.png", "image/png")), "imageFile", store);
      await removeUpload(publicPath!, store);
      expect((await uploadResponse(request(storedName(publicPath)), storedName(publicPath), store)).status).toBe(404);
    });
  });
});

describe("the disk store's folder", () => {
  it("serves a file put there by other means only when its bytes are what its name says", async () => {
    const store = new DiskImageStore(uploadsDir());
    fs.mkdirSync(uploadsDir(), { recursive: true });
    const svg = randomName();
    fs.writeFileSync(path.join(uploadsDir(), svg), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    expect(await store.get(svg)).toBeNull();
    expect((await uploadResponse(request(svg), svg, store)).status).toBe(404);
    // An image already in the folder (uploaded before the stores existed) is served as it was.
    const old = randomName();
    fs.writeFileSync(path.join(uploadsDir(), old), PNG);
    const response = await uploadResponse(request(old), old, store);
    expect(response.status).toBe(200);
    expect(response.headers.get("ETag")).toBe(imageEtag(PNG));
  });
});

describe("a malformed name or a failing store", () => {
  it.each(["../shop.db", "abc.svg", "0123456789ABCDEF0123456789ABCDEF.png", "x.png", "%2e%2e/uploads"])(
    "%j answers 404 without asking the store",
    async (name) => {
      const response = await uploadResponse(request(name), name, failingStore);
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toBe("text/plain");
      expect(await response.text()).toBe("Not found");
    },
  );

  it("a store that fails answers a plain 500 that names no internals", async () => {
    const name = randomName();
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      for (const headers of [{}, { "If-None-Match": imageEtag(PNG) }] as Record<string, string>[]) {
        const response = await uploadResponse(request(name, "GET", headers), name, failingStore);
        expect(response.status).toBe(500);
        expect(response.headers.get("Content-Type")).toBe("text/plain");
        expect(response.headers.get("Cache-Control")).toBe("no-store");
        expect(await response.text()).toBe("The image could not be read. Try again.");
      }
    } finally {
      console.error = original;
    }
    expect(logged.map((args) => args.join(" "))).toEqual([
      `/uploads/${name} could not be read: Error: connection refused (get)`,
      `/uploads/${name} could not be read: Error: connection refused (info)`,
    ]);
  });

  it("matches If-None-Match by the rules of the header", () => {
    expect(etagMatches(null, '"a"')).toBe(false);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches('"b" , W/"a"', '"a"')).toBe(true);
    expect(etagMatches("a", '"a"')).toBe(false);
  });
});

describe("the /uploads/* route (the app's own store)", () => {
  it("serves an image stored through the app's store, with a 304 for its ETag", async () => {
    const stored = storedName(await imageFromForm(formWith(file(PNG, "route.png", "image/png"))));
    const response = await loader(routeArgs(stored));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
    const again = await loader(routeArgs(stored, "GET", { "If-None-Match": response.headers.get("ETag")! }));
    expect(again.status).toBe(304);
  });

  it.each(["../shop.db", "abc.svg", `${"0".repeat(32)}.png`, "0123456789ABCDEF0123456789ABCDEF.png"])(
    "answers 404 for %j",
    async (name) => {
      const response = await loader(routeArgs(name));
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toBe("text/plain");
      expect(await response.text()).toBe("Not found");
    },
  );

  it("answers 404 without a name", async () => {
    const response = await loader({ ...routeArgs(""), params: {} });
    expect(response.status).toBe(404);
  });

  // As tests/integration/security.test.ts walks every action: each state-changing method, each way
  // of naming another site → 403 "Cross-site request refused" before the method check.
  it.each(["POST", "PUT", "PATCH", "DELETE"])("%s from another site → 403 cross-site, whatever the header", async (method) => {
    const variants: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Referer: "https://evil.example/x" },
      { Origin: "null" },
      { Origin: "http://localhost:3000.evil.example" },
    ];
    for (const headers of variants) {
      const response = await action(routeArgs("x.png", method, headers));
      expect({ headers, status: response.status }).toEqual({ headers, status: 403 });
      expect(((await response.json()) as { message: string }).message).toMatch(/cross-site/i);
    }
  });

  it("refuses other methods: 403 from another site, 405 from this one", async () => {
    const crossSite = await action(routeArgs("x.png", "POST", { Origin: "https://evil.example" }));
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { message: string }).message).toMatch(/cross-site/i);
    const sameSite = await action(routeArgs("x.png", "DELETE", { Origin: "http://localhost:3000" }));
    expect(sameSite.status).toBe(405);
    expect(sameSite.headers.get("Allow")).toBe("GET");
  });
});
