import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { env } from "~/lib/env.server";
import { AppError } from "~/lib/errors.server";
import { imageFromForm, MAX_UPLOAD_BYTES, readUpload, uploadsDir } from "~/lib/uploads.server";
import { action, loader } from "~/routes/uploads.$";

// Small real images: a 1×1 PNG, a 1×1 lossless WebP, and a JPEG's header segments (SOI, JFIF APP0, EOI).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
const WEBP = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);

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

const routeArgs = (name: string, method = "GET", headers: Record<string, string> = {}) => ({
  request: new Request(`http://localhost:3000/uploads/${name}`, { method, headers: { Host: "localhost:3000", ...headers } }),
  params: { "*": name },
  context: {},
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

describe("imageFromForm: real images are stored", () => {
  it.each([
    ["PNG", PNG, "chair.png", "image/png", "png", "image/png"],
    ["JPEG", JPEG, "chair.jpg", "image/jpeg", "jpg", "image/jpeg"],
    ["WebP", WEBP, "chair.webp", "image/webp", "webp", "image/webp"],
  ])("a %s is stored under DATA_DIR/uploads and read back byte for byte", async (_label, bytes, name, claimed, ext, type) => {
    const publicPath = await imageFromForm(formWith(file(bytes, name, claimed)));
    const stored = storedName(publicPath);
    expect(stored.endsWith(`.${ext}`)).toBe(true);
    expect(uploadsDir()).toBe(path.join(env.DATA_DIR, "uploads"));
    expect(fs.readFileSync(path.join(uploadsDir(), stored)).equals(bytes)).toBe(true);
    const upload = await readUpload(stored);
    expect(upload?.type).toBe(type);
    expect(upload?.body.equals(bytes)).toBe(true);
  });

  it("names the file by its bytes, not by the name or type the browser sent", async () => {
    const stored = storedName(await imageFromForm(formWith(file(PNG, "holiday.jpg", "image/jpeg"))));
    expect(stored.endsWith(".png")).toBe(true);
    expect((await readUpload(stored))?.type).toBe("image/png");
  });

  it("gives every upload a new random name, even for the same bytes", async () => {
    const a = storedName(await imageFromForm(formWith(file(PNG, "same.png", "image/png"))));
    const b = storedName(await imageFromForm(formWith(file(PNG, "same.png", "image/png"))));
    expect(a).not.toBe(b);
  });

  it("reads the field it is told to", async () => {
    expect(storedName(await imageFromForm(formWith(file(WEBP, "x.webp"), "categoryImage"), "categoryImage"))).toMatch(/\.webp$/);
  });

  it("accepts a file of exactly MAX_UPLOAD_BYTES", async () => {
    const big = Buffer.alloc(MAX_UPLOAD_BYTES);
    PNG.copy(big);
    const stored = storedName(await imageFromForm(formWith(file(big, "big.png", "image/png"))));
    expect((await readUpload(stored))?.body.byteLength).toBe(MAX_UPLOAD_BYTES);
  });
});

describe("imageFromForm: everything else is refused", () => {
  const filesBefore = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).length : 0);

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
    const before = filesBefore();
    const error = await refusal(imageFromForm(formWith(value)));
    expect(error.status).toBe(415);
    expect(error.fieldErrors).toEqual({ imageFile: "Please choose a JPEG, PNG or WebP image" });
    expect(filesBefore()).toBe(before);
  });

  it("a file one byte over MAX_UPLOAD_BYTES → 413 with a field message on the field asked for", async () => {
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    PNG.copy(big);
    const before = filesBefore();
    const error = await refusal(imageFromForm(formWith(file(big, "big.png", "image/png"), "photo"), "photo"));
    expect(error.status).toBe(413);
    expect(error.message).toBe("The image must be 2 MB or smaller");
    expect(error.fieldErrors).toEqual({ photo: "The image must be 2 MB or smaller" });
    expect(filesBefore()).toBe(before);
  });
});

describe("readUpload", () => {
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
    expect(await readUpload(name)).toBeNull();
  });

  it("is null for a well-formed name that was never stored", async () => {
    expect(await readUpload(`${crypto.randomBytes(16).toString("hex")}.png`)).toBeNull();
  });

  it("is null for a file in the folder whose bytes are not what its name says", async () => {
    fs.mkdirSync(uploadsDir(), { recursive: true });
    const name = `${crypto.randomBytes(16).toString("hex")}.png`;
    fs.writeFileSync(path.join(uploadsDir(), name), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    expect(await readUpload(name)).toBeNull();
  });
});

describe("the /uploads/* route", () => {
  it("serves a stored image with its type, a long cache and a locked-down CSP", async () => {
    const stored = storedName(await imageFromForm(formWith(file(JPEG, "desk.jpg", "image/jpeg"))));
    const response = await loader(routeArgs(stored));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await response.arrayBuffer()).equals(JPEG)).toBe(true);
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
