// What the fuzz test (fuzz.test.ts) sends: requests a careless or hostile client could send to
// a route module, generated with fast-check as plain data that prints in full (a failure shows
// the route and the request), and the Request built from that data.
//
// Wrong methods, content types and charsets, broken JSON and multipart bodies, huge and odd
// headers, unicode (emoji, RTL, combining marks, lone surrogates, NUL), numbers out of range,
// arrays and objects where strings belong, odd route params and query strings. Most requests
// come from this site and many carry a customer's or the admin's credentials, so they get past
// the door into the code behind it; valid ids, slugs and emails are mixed in for the same reason.
import fc from "fast-check";
import { ORIGIN } from "./requests";

// ---- routes -------------------------------------------------------------------------------------

/** One piece of a route's URL: literal text, a named param (`$slug`), or the splat (`$`). */
export type Segment = { text: string } | { param: string };

/**
 * A route file's URL pattern (Remix flat routes): dots separate segments, `[.]` escapes,
 * `_index` and a leading-underscore segment add nothing, a trailing `_` opts out of nesting.
 */
export function routePattern(file: string): Segment[] {
  if (file === "root.tsx") return [];
  const name = file.replace(/\.(ts|tsx)$/, "");
  const raw: string[] = [];
  let current = "";
  let escaped = false;
  for (const ch of name) {
    if (ch === "[") escaped = true;
    else if (ch === "]") escaped = false;
    else if (ch === "." && !escaped) {
      raw.push(current);
      current = "";
    } else current += ch;
  }
  raw.push(current);
  const segments: Segment[] = [];
  for (const piece of raw) {
    if (piece === "_index" || piece.startsWith("_")) continue;
    const text = piece.endsWith("_") ? piece.slice(0, -1) : piece;
    if (text === "$") segments.push({ param: "*" });
    else if (text.startsWith("$")) segments.push({ param: text.slice(1) });
    else segments.push({ text });
  }
  return segments;
}

export function paramNames(file: string): string[] {
  return routePattern(file).flatMap((s) => ("param" in s ? [s.param] : []));
}

// ---- what the generators know about the shop ----------------------------------------------------

/** Real ids and values from the test's database, so that some requests reach the deeper code. */
export interface Known {
  itemIds: number[];
  orderIds: number[];
  categoryIds: number[];
  userIds: number[];
  paymentOrderIds: string[];
  /** a payment of the first payment order, and its valid signature (what the test gateway hands out) */
  paymentIds: string[];
  paymentSignatures: string[];
  productSlugs: string[];
  categorySlugs: string[];
  emails: string[];
  passwords: string[];
}

// ---- the request, as data -------------------------------------------------------------------------

/** A JSON token written as is (numbers JSON.stringify cannot write: 1e309, 2^53 + 1). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A JSON object as its entries, so keys may repeat and `__proto__` stays an ordinary key. */
export class JsonEntries {
  constructor(readonly entries: [string, JsonLike][]) {}
}

export type JsonLike = null | boolean | number | string | RawJson | JsonEntries | JsonLike[];

export interface FilePart {
  filename: string;
  type: string;
  content: string;
}

export type Payload =
  | { kind: "none" }
  | { kind: "json"; value: JsonLike }
  | { kind: "json text"; text: string }
  | { kind: "form"; fields: [string, string][] }
  | { kind: "multipart"; parts: [string, string | FilePart][]; mangle: Mangle }
  | { kind: "encoded text"; text: string; encoding: "utf16le" | "latin1" | "utf8" }
  | { kind: "bytes"; bytes: number[] };

export type Mangle = "none" | "no boundary" | "wrong boundary" | "truncated" | "no closing line";

export type Who =
  | "guest"
  | "customer cookie"
  | "customer token"
  | "admin"
  | "admin signed in"
  | "admin and customer token"
  | "stale cookie"
  | "garbage token";
export type OriginMode = "same" | "same referer" | "none" | "foreign" | "null";

export interface RequestSpec {
  method: string;
  /** the route's path with its params, encoded */
  path: string;
  /** the query string as sent ("" or "?…"), possibly malformed */
  query: string;
  /** the params Remix would hand the route (decoded) */
  params: Record<string, string>;
  who: Who;
  origin: OriginMode;
  /** extra headers, after the credentials (a Cookie here is added to the credentials' cookie) */
  headers: [string, string][];
  /** the Content-Type header: "match" for the payload's own type, null for none */
  contentType: string | null;
  contentLength: "right" | "missing" | "huge";
  payload: Payload;
  /** keep the rate-limit counters of earlier requests (else they start from zero) */
  keepLimits: boolean;
}

// ---- printing -------------------------------------------------------------------------------------

/** A run of one short unit repeated at `start`: its unit and count, when it is long enough to abbreviate. */
function runAt(value: string, start: number): { unit: string; count: number } | null {
  let best: { unit: string; count: number } | null = null;
  for (let period = 1; period <= 8 && start + period <= value.length; period++) {
    const unit = value.slice(start, start + period);
    let end = start + period;
    while (value.startsWith(unit, end)) end += period;
    const count = (end - start) / period;
    if (count >= 4 && end - start >= 32 && (!best || unit.length * count > best.unit.length * best.count)) best = { unit, count };
  }
  return best;
}

/** A string as JavaScript that makes it again, in full: long runs as `"ab".repeat(n)`, joined with +. */
export function showString(value: string): string {
  const parts: string[] = [];
  let literal = "";
  for (let i = 0; i < value.length;) {
    const run = runAt(value, i);
    if (run) {
      if (literal) parts.push(JSON.stringify(literal));
      literal = "";
      parts.push(`${JSON.stringify(run.unit)}.repeat(${run.count})`);
      i += run.unit.length * run.count;
    } else literal += value[i++];
  }
  if (literal || parts.length === 0) parts.push(JSON.stringify(literal));
  return parts.join(" + ");
}

/** The JSON text a payload value is sent as. */
export function jsonText(value: JsonLike): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonEntries) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(",")}}`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  return JSON.stringify(value) ?? "null";
}

function showPayload(payload: Payload): string {
  switch (payload.kind) {
    case "none":
      return "no body";
    case "json":
      return `JSON ${showString(jsonText(payload.value))}`;
    case "json text":
      return `text ${showString(payload.text)}`;
    case "form":
      return `form ${payload.fields.map(([k, v]) => `${showString(k)}=${showString(v)}`).join(" & ")}`;
    case "multipart": {
      const parts = payload.parts.map(([k, v]) =>
        typeof v === "string"
          ? `${showString(k)}=${showString(v)}`
          : `${showString(k)}=file(${showString(v.filename)}, ${showString(v.type)}, ${showString(v.content)})`,
      );
      return `multipart (${payload.mangle}) ${parts.join(" & ")}`;
    }
    case "encoded text":
      return `${payload.encoding} bytes of ${showString(payload.text)}`;
    case "bytes":
      return `bytes [${payload.bytes.join(",")}]`;
  }
}

export function describeRequest(spec: RequestSpec): string {
  const lines = [
    `${spec.method} ${showString(spec.path + spec.query)} params ${JSON.stringify(spec.params)}`,
    `  as ${spec.who}, origin ${spec.origin}${spec.keepLimits ? ", rate limits kept" : ""}`,
    ...spec.headers.map(([k, v]) => `  ${k}: ${showString(v)}`),
    `  Content-Type: ${spec.contentType === null ? "(none)" : showString(spec.contentType)}, Content-Length ${spec.contentLength}`,
    `  body: ${showPayload(spec.payload)}`,
  ];
  return lines.join("\n");
}

/** The spec with a printer fast-check uses in its failure report. */
function printable(spec: RequestSpec): RequestSpec {
  return Object.defineProperty(spec, fc.toStringMethod, { value: () => `\n${describeRequest(spec)}\n`, enumerable: false });
}

// ---- building the Request ---------------------------------------------------------------------------

export interface Credentials {
  cookie?: string;
  authorization?: string;
}

/** A value standing for the signed-in customer's cart line as it is when the request is sent (its id changes as the cart does). */
export const CART_LINE = "{cart line}";

/** A header value standing for the webhook signature of the body as sent (made when the request is built). */
export const BODY_SIGNATURE = "(the webhook signature of this body)";

async function encodePayload(payload: Payload): Promise<{ body: Uint8Array | null; type: string | null }> {
  switch (payload.kind) {
    case "none":
      return { body: null, type: null };
    case "json":
      return { body: Buffer.from(jsonText(payload.value), "utf8"), type: "application/json" };
    case "json text":
      return { body: Buffer.from(payload.text, "utf8"), type: "application/json" };
    case "form":
      return { body: Buffer.from(new URLSearchParams(payload.fields).toString(), "utf8"), type: "application/x-www-form-urlencoded" };
    case "encoded text": {
      const charset = payload.encoding === "utf16le" ? "utf-16" : payload.encoding === "latin1" ? "iso-8859-1" : "utf-8";
      return { body: Buffer.from(payload.text, payload.encoding), type: `application/json; charset=${charset}` };
    }
    case "bytes":
      return { body: Uint8Array.from(payload.bytes), type: "application/octet-stream" };
    case "multipart": {
      const form = new FormData();
      for (const [k, v] of payload.parts) {
        form.append(k, typeof v === "string" ? v : new File([v.content], v.filename, { type: v.type }));
      }
      const encoded = new Request(ORIGIN, { method: "POST", body: form });
      const type = encoded.headers.get("Content-Type")!;
      let body = new Uint8Array(await encoded.arrayBuffer());
      const boundary = type.slice(type.indexOf("boundary=") + "boundary=".length);
      switch (payload.mangle) {
        case "none":
          return { body, type };
        case "no boundary":
          return { body, type: "multipart/form-data" };
        case "wrong boundary":
          return { body, type: "multipart/form-data; boundary=not-the-boundary" };
        case "truncated":
          return { body: body.slice(0, Math.floor(body.length / 2)), type };
        case "no closing line": {
          const closing = Buffer.byteLength(`--${boundary}--\r\n`);
          body = body.slice(0, Math.max(0, body.length - closing));
          return { body, type };
        }
      }
    }
  }
}

/** The payload with CART_LINE values replaced by the line's id. */
function withCartLine(payload: Payload, lineId: string): Payload {
  const swap = (v: string) => (v === CART_LINE ? lineId : v);
  switch (payload.kind) {
    case "json": {
      const walk = (v: JsonLike): JsonLike =>
        typeof v === "string"
          ? swap(v)
          : v instanceof JsonEntries
            ? new JsonEntries(v.entries.map(([k, x]) => [k, walk(x)]))
            : Array.isArray(v)
              ? v.map(walk)
              : v;
      return { ...payload, value: walk(payload.value) };
    }
    case "form":
      return { ...payload, fields: payload.fields.map(([k, v]) => [k, swap(v)]) };
    case "multipart":
      return { ...payload, parts: payload.parts.map(([k, v]) => [k, typeof v === "string" ? swap(v) : v]) };
    default:
      return payload;
  }
}

/** The Request a spec describes, as Remix would hand it to the route (Host and URL of this site). */
export interface BuildContext {
  /** the webhook signature of a raw body */
  signBody: (raw: string) => string;
  /** the id of the customer's cart line now (CART_LINE) */
  cartLineId: string;
}

export async function buildRequest(
  spec: RequestSpec,
  credentials: Credentials,
  context: BuildContext,
): Promise<{ request: Request; params: Record<string, string> }> {
  const headers = new Headers({ Host: "localhost:3000" });
  if (spec.origin === "same") headers.set("Origin", ORIGIN);
  if (spec.origin === "same referer") headers.set("Referer", `${ORIGIN}/somewhere?x=1`);
  if (spec.origin === "foreign") headers.set("Origin", "https://evil.example");
  if (spec.origin === "null") headers.set("Origin", "null");
  if (credentials.cookie) headers.set("Cookie", credentials.cookie);
  if (credentials.authorization) headers.set("Authorization", credentials.authorization);
  for (const [name, value] of spec.headers) {
    if (name === "Cookie" && headers.has("Cookie")) headers.set("Cookie", `${headers.get("Cookie")}; ${value}`);
    else headers.set(name, value);
  }
  const bodyAllowed = !["GET", "HEAD"].includes(spec.method.toUpperCase());
  const { body, type } = bodyAllowed ? await encodePayload(withCartLine(spec.payload, context.cartLineId)) : { body: null, type: null };
  for (const [name, value] of spec.headers) {
    if (value === BODY_SIGNATURE) headers.set(name, context.signBody(body ? Buffer.from(body).toString("utf8") : ""));
  }
  const contentType = spec.contentType === "match" ? type : spec.contentType;
  if (contentType !== null && bodyAllowed) headers.set("Content-Type", contentType);
  if (body && spec.contentLength === "right") headers.set("Content-Length", String(body.byteLength));
  if (bodyAllowed && spec.contentLength === "huge") headers.set("Content-Length", "104857600");
  const params = Object.fromEntries(Object.entries(spec.params).map(([k, v]) => [k, v === CART_LINE ? context.cartLineId : v]));
  const path = spec.path.replaceAll(encodeURIComponent(CART_LINE), context.cartLineId);
  const request = new Request(`${ORIGIN}${path}${spec.query}`, { method: spec.method, headers, body: body ? new Uint8Array(body) : null });
  return { request, params };
}

// ---- generators -------------------------------------------------------------------------------------

/** Lone surrogates cannot travel in a URL (it carries UTF-8): they become U+FFFD there. */
export function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

const ODD_STRINGS = [
  "",
  " ",
  "\t",
  "\r\n",
  "null",
  "undefined",
  "true",
  "false",
  "NaN",
  "Infinity",
  "-Infinity",
  "0",
  "-0",
  "-1",
  "1",
  "1.5",
  "1e3",
  "1e309",
  "-1e309",
  "0x10",
  "010",
  " 12 ",
  "12abc",
  "9007199254740992",
  "9007199254740993",
  "2147483648",
  "99999999999",
  "１２",
  "١٢",
  "🛋️",
  "👨‍👩‍👧‍👦",
  "مرحبا بالعالم",
  "שלום",
  "\u202Egpj.exe",
  "e\u0301\u0301\u0301\u0301",
  "Z\u0334\u0321\u031Ba\u0336l\u0337g\u0338o",
  "\uD800",
  "\uDFFF",
  "a\uD83Db",
  "\u0000",
  "a\u0000b",
  "\uFEFF",
  "\u200B",
  "\u00A0",
  "<script>alert(1)</script>",
  "' OR '1'='1",
  "1; DROP TABLE users; --",
  "%00",
  "%",
  "%zz",
  "%E0%A4%A",
  "../../../etc/passwd",
  "..\\..\\windows",
  "${7*7}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "a@b",
  "@",
  "USER@EXAMPLE.COM ",
  "x@y.z\u0000",
  "//evil.example",
  "/\\evil.example",
  "javascript:alert(1)",
  "http://evil.example/",
];

/** Long strings: 1 KB to 70 KB (the body limit is 64 KB), as repeats so that they print short. */
const hugeString = fc
  .tuple(fc.constantFrom("a", "é", "🛋", "%", "0", " ", "ab", "\u0000"), fc.constantFrom(1024, 8192, 10240, 70000))
  .map(([unit, n]) => unit.repeat(n));

export const oddString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...ODD_STRINGS), weight: 5 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 24 }), weight: 2 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 16 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 16 }), weight: 2 },
  { arbitrary: hugeString, weight: 1 },
);

/** A Latin-1 header value (what Node hands over for any bytes), without NUL, CR or LF. */
const latin1 = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength }).map((s) => s.trim());

const FIELD_NAMES = [
  "intent",
  "itemId",
  "quantity",
  "id",
  "orderId",
  "status",
  "email",
  "password",
  "confirmPassword",
  "currentPassword",
  "newPassword",
  "name",
  "mobile",
  "phone",
  "subject",
  "message",
  "otp",
  "attemptId",
  "token",
  "remember",
  "redirectTo",
  "terms",
  "address",
  "city",
  "state",
  "pincode",
  "paymentMethod",
  "idempotencyKey",
  "expectedTotal",
  "razorpay_order_id",
  "razorpay_payment_id",
  "razorpay_signature",
  "amount",
  "title",
  "description",
  "imgPath",
  "imageFile",
  "categoryId",
  "price",
  "featured",
  "inStock",
  "stock",
  "stockDelta",
  "specKey",
  "specValue",
  "respond",
  "file",
  "previous",
  "outcome",
  "page",
  "event",
  "payload",
];

const ODD_FIELD_NAMES = ["__proto__", "constructor", "toString", "", "itemId[]", "a[b]", "🛋️", "\u0000", "x".repeat(1024)];

const INTENTS = ["add", "update", "remove", "clear", "cancel", "create", "delete", "status", "pay", "fail", "complete", "place"];
const MORE_INTENTS = ["verify", "resend", "profile", "password", "explode"];

/** Values a field would accept (or nearly), so that requests reach the code behind the checks. */
function validValues(field: string, known: Known): JsonLike[] {
  const ids = (list: number[]) => [...list, ...list.map(String)];
  switch (field) {
    case "intent":
      return [...INTENTS, ...MORE_INTENTS];
    case "itemId":
      return ids(known.itemIds);
    case "id":
      return [CART_LINE, CART_LINE, ...ids([...known.itemIds, ...known.categoryIds, ...known.userIds])];
    case "orderId":
      return ids(known.orderIds);
    case "categoryId":
      return ids(known.categoryIds);
    case "quantity":
    case "stock":
    case "stockDelta":
    case "price":
    case "expectedTotal":
    case "amount":
      return [1, 2, 99, 100, "1", "5", "-1", 0, 12000];
    case "status":
      return ["processing", "shipped", "delivered", "cancelled"];
    case "email":
      return [...known.emails, "new-fuzz@example.com"];
    case "password":
    case "confirmPassword":
    case "currentPassword":
    case "newPassword":
      return [...known.passwords, "a-new-password-1"];
    case "name":
    case "title":
      return ["Asha Verma", "Teak Sofa"];
    case "mobile":
    case "phone":
      return ["9876543210", "+91 98765 43210"];
    case "subject":
      return ["Other", "Feedback"];
    case "message":
    case "description":
    case "address":
      return ["12 MG Road, Indiranagar"];
    case "city":
      return ["Bengaluru"];
    case "state":
      return ["Karnataka", "karnataka"];
    case "pincode":
      return ["560038"];
    case "paymentMethod":
      return ["cod", "online", ""];
    case "idempotencyKey":
      return ["fuzz-key-0000000001", "fuzz-key-0000000002"];
    case "otp":
      return ["1234", "0000"];
    case "razorpay_order_id":
      return known.paymentOrderIds;
    case "razorpay_payment_id":
      return [...known.paymentIds, "pay_TEST0000000001"];
    case "razorpay_signature":
      return [...known.paymentSignatures, "0".repeat(64)];
    case "featured":
    case "inStock":
    case "remember":
    case "terms":
      return ["on", "off", "true"];
    case "respond":
      return ["inline"];
    case "redirectTo":
      return ["/", "/cart", "//evil.example", "https://evil.example/"];
    case "specKey":
      return ["Material"];
    case "specValue":
      return ["Teak"];
    case "imgPath":
      return ["/images/products/guard.svg"];
    case "outcome":
      return ["failed", "paid"];
    default:
      return ["1"];
  }
}

const rawNumbers = fc.constantFrom(
  new RawJson("1e309"),
  new RawJson("-1e309"),
  new RawJson("9007199254740993"),
  new RawJson("1E2"),
  new RawJson("-0.0"),
  new RawJson("123456789012345678901234567890"),
);

const numbers = fc.oneof(
  fc.constantFrom(0, -1, 1, -0, 1.5, 99, 100, 2 ** 31, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER, 1e308, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  rawNumbers,
);

function fieldName(): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: fc.constantFrom(...FIELD_NAMES), weight: 8 }, { arbitrary: fc.constantFrom(...ODD_FIELD_NAMES), weight: 1 });
}

/** Any JSON value: odd scalars, and arrays and objects where a string belongs. */
function jsonValue(known: Known): fc.Arbitrary<JsonLike> {
  const scalar: fc.Arbitrary<JsonLike> = fc.oneof(
    { arbitrary: oddString, weight: 4 },
    { arbitrary: fc.constantFrom(...FIELD_NAMES.flatMap((f) => validValues(f, known))), weight: 3 },
    { arbitrary: numbers, weight: 3 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
  );
  const { value } = fc.letrec<{ value: JsonLike }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 3 },
      { arbitrary: scalar, weight: 6 },
      { arbitrary: fc.array(tie("value"), { maxLength: 3 }), weight: 1 },
      {
        arbitrary: fc.array(fc.tuple(fieldName(), tie("value")), { maxLength: 3 }).map((entries) => new JsonEntries(entries)),
        weight: 1,
      },
    ),
  }));
  return value;
}

/** A field and a value for it: valid, odd, or anything (for JSON bodies). */
function jsonField(known: Known): fc.Arbitrary<[string, JsonLike]> {
  const valid = fc.constantFrom(...FIELD_NAMES).chain((name) => fc.tuple(fc.constant(name), fc.constantFrom(...validValues(name, known))));
  return fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: fc.tuple(fieldName(), jsonValue(known)), weight: 3 });
}

/** A form field: values are strings, sometimes a JSON value's text. */
function formField(known: Known): fc.Arbitrary<[string, string]> {
  return jsonField(known).map(([k, v]) => [k, typeof v === "string" ? v : jsonText(v)]);
}

/** A deeply nested value (recursion depth), under the size limit. */
const deepJson = fc.constantFrom(1000, 20000, 30000).map((depth) => `{"itemId":${"[".repeat(depth)}${"]".repeat(depth)}}`);

const BROKEN_JSON = [
  "{",
  '{"itemId":',
  '{"itemId":1,}',
  "{'itemId':1}",
  '{"itemId":1}}',
  "[",
  "nul",
  "tru",
  '"unterminated',
  '{"email":"\\uD800"}',
  '{"email":"\\x00"}',
  '{"email":"\\u0000"}',
  '\uFEFF{"itemId":1}',
  '{"itemId":1}\u0000',
  '{"__proto__":{"isAdmin":true},"itemId":1}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"itemId":1,"itemId":"x"}',
  "[]",
  "[1,2]",
  '"a string"',
  "42",
  "null",
  "true",
  " ",
  "{}".repeat(1000),
];

/**
 * A body that would pass: every field any route reads, each with a value it accepts (routes
 * ignore the fields they do not read), then a few fields dropped, made odd or added.
 */
function nearlyValidFields(known: Known): fc.Arbitrary<[string, JsonLike][]> {
  const base = fc.tuple(
    ...FIELD_NAMES.map((name) => fc.constantFrom(...validValues(name, known)).map((v): [string, JsonLike] => [name, v])),
  );
  const change = fc.oneof(
    fc.record({ drop: fc.constantFrom(...FIELD_NAMES) }),
    fc.record({ set: fc.constantFrom(...FIELD_NAMES), value: jsonValue(known) }),
    fc.record({ add: fieldName(), value: jsonValue(known) }),
  );
  return fc.tuple(base, fc.array(change, { maxLength: 3 })).map(([fields, changes]) => {
    let out = fields;
    for (const c of changes) {
      if ("drop" in c) out = out.filter(([k]) => k !== c.drop);
      else if ("set" in c) out = out.map(([k, v]): [string, JsonLike] => [k, k === c.set ? c.value : v]);
      else out = [...out, [c.add, c.value]];
    }
    return out;
  });
}

function payloadArb(known: Known, api: boolean): fc.Arbitrary<Payload> {
  const filePart: fc.Arbitrary<FilePart> = fc.record({
    filename: fc.oneof(fc.constantFrom("products.csv", "a.png", "../../x.png", "", "🛋️.webp", "a\u0000.png"), oddString),
    type: fc.constantFrom("text/csv", "image/png", "image/svg+xml", "application/octet-stream", ""),
    content: fc.oneof(
      oddString,
      fc.constantFrom("slug,title,category,price,stock\n,Fuzz,office,10,1", "\x89PNG\r\n\x1a\n", "<svg onload=alert(1)>"),
    ),
  });
  const part: fc.Arbitrary<[string, string | FilePart]> = fc.oneof(
    { arbitrary: formField(known), weight: 4 },
    { arbitrary: fc.tuple(fieldName(), filePart), weight: 1 },
  );
  const fields = fc.oneof(nearlyValidFields(known), fc.array(jsonField(known), { maxLength: 10 }));
  const asForm = (entries: [string, JsonLike][]): [string, string][] =>
    entries.map(([k, v]) => [k, typeof v === "string" ? v : jsonText(v)]);
  return fc.oneof(
    { arbitrary: fc.constant<Payload>({ kind: "none" }), weight: 1 },
    {
      arbitrary: fields.map((entries): Payload => ({ kind: "json", value: new JsonEntries(entries) })),
      weight: api ? 8 : 1,
    },
    { arbitrary: jsonValue(known).map((value): Payload => ({ kind: "json", value })), weight: 1 },
    {
      arbitrary: fc.oneof(fc.constantFrom(...BROKEN_JSON), deepJson).map((text): Payload => ({ kind: "json text", text })),
      weight: 2,
    },
    { arbitrary: fields.map((entries): Payload => ({ kind: "form", fields: asForm(entries) })), weight: api ? 3 : 8 },
    {
      arbitrary: fc
        .record({
          parts: fc.oneof(fc.array(part, { maxLength: 6 }), fields.map(asForm)),
          mangle: fc.constantFrom<Mangle>("none", "none", "none", "no boundary", "wrong boundary", "truncated", "no closing line"),
        })
        .map((m): Payload => ({ kind: "multipart", ...m })),
      weight: 3,
    },
    {
      arbitrary: fc
        .record({
          text: fc.array(jsonField(known), { maxLength: 6 }).map((entries) => jsonText(new JsonEntries(entries))),
          encoding: fc.constantFrom<"utf16le" | "latin1" | "utf8">("utf16le", "latin1", "utf8"),
        })
        .map((t): Payload => ({ kind: "encoded text", ...t })),
      weight: 1,
    },
    {
      arbitrary: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }).map((bytes): Payload => ({ kind: "bytes", bytes })),
      weight: 1,
    },
  );
}

/** Razorpay's webhook events, right and wrong (the test signs them when asked to). */
function webhookPayload(known: Known): fc.Arbitrary<Payload> {
  const entity = fc.record({
    id: fc.oneof(fc.constantFrom(...known.paymentIds, "pay_TESTother0001"), jsonValue(known)),
    order_id: fc.oneof(fc.constantFrom(...known.paymentOrderIds), jsonValue(known)),
    amount: fc.oneof(fc.constantFrom(0, 100, 1180000), numbers, jsonValue(known)),
  });
  const event = fc.oneof(fc.constantFrom("payment.captured", "order.paid", "payment.failed"), jsonValue(known));
  const shaped = fc.tuple(event, entity).map(
    ([e, { id, order_id, amount }]) =>
      new JsonEntries([
        ["event", e],
        [
          "payload",
          new JsonEntries([
            [
              "payment",
              new JsonEntries([
                [
                  "entity",
                  new JsonEntries([
                    ["id", id],
                    ["order_id", order_id],
                    ["amount", amount],
                  ]),
                ],
              ]),
            ],
          ]),
        ],
      ]),
  );
  return fc.oneof(
    { arbitrary: shaped.map((value): Payload => ({ kind: "json", value })), weight: 4 },
    { arbitrary: jsonValue(known).map((value): Payload => ({ kind: "json", value })), weight: 1 },
    { arbitrary: fc.constantFrom(...BROKEN_JSON).map((text): Payload => ({ kind: "json text", text })), weight: 1 },
  );
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "APPLICATION/JSON",
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=utf-16",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=----x",
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/xml",
  "application/octet-stream",
  "",
  "garbage",
  ";;;",
  "application/json, text/plain",
  "multipart/mixed; boundary=x",
  "application/vnd.api+json",
  "application/jsonx",
  "text/html; charset=utf-7",
  "application/x-www-form-urlencoded\u00ff",
];

const contentTypeArb: fc.Arbitrary<string | null> = fc.oneof(
  { arbitrary: fc.constant("match"), weight: 8 },
  { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 3 },
  { arbitrary: fc.constant(null), weight: 1 },
);

const COOKIES = [
  "__session=garbage",
  "__session=",
  "__session=%E0%A4%A",
  '__session="quoted"',
  "__session=a; __session=b",
  ";;;",
  "=;",
  "a=b; __toast=garbage",
  "__toast=%7B%22x%22%3A1%7D",
  `__session=${"A".repeat(4096)}`,
  "__session=eyJ4IjoxfQ%3D%3D.c2lnbmF0dXJl",
];

function headerArb(): fc.Arbitrary<[string, string]> {
  const token = fc.string({
    unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
    minLength: 43,
    maxLength: 43,
  });
  return fc.oneof(
    fc.constantFrom<[string, string]>(
      ["Authorization", `Bearer ${"A".repeat(8192)}`],
      ["Authorization", "Bearer"],
      ["Authorization", "Bearer  "],
      ["Authorization", "Basic Zm9vOmJhcg=="],
      ["Authorization", "Bearer slt_"],
      ["Accept", "text/vnd.turbo-stream.html"],
      ["Accept", "*/*;q=abc"],
      ["Accept-Language", "*;q=0.5, xx-ÿÿ"],
      ["User-Agent", "x".repeat(8192)],
      ["X-Forwarded-For", "not-an-ip, ::1, 999.999.1.1"],
      ["X-Forwarded-Host", "evil.example"],
      ["X-Forwarded-Proto", "https"],
      ["If-None-Match", '"garbage", W/""'],
      ["Range", "bytes=-1"],
      ["Content-Encoding", "gzip"],
      ["Referer", "not a url"],
      ["X-Requested-With", "XMLHttpRequest"],
    ),
    token.map((t): [string, string] => ["Authorization", `Bearer slt_${t}`]),
    latin1(8192).map((v): [string, string] => ["Authorization", v]),
    latin1(64).map((v): [string, string] => ["Authorization", `Bearer ${v}`]),
    fc.constantFrom(...COOKIES).map((c): [string, string] => ["Cookie", c]),
    latin1(256).map((v): [string, string] => ["Cookie", v]),
    fc
      .tuple(fc.constantFrom("Accept", "Accept-Language", "User-Agent", "X-Custom", "If-None-Match", "Referer"), latin1(256))
      .map(([k, v]): [string, string] => [k, v]),
  );
}

const QUERY_NAMES = [
  "slug",
  "q",
  "page",
  "pageSize",
  "email",
  "token",
  "redirectTo",
  "category",
  "status",
  "sort",
  "new",
  "edit",
  "delete",
  "index",
  "_data",
  "sent",
  "cancel",
  "outcome",
  "attemptId",
  "intent",
  "tab",
  "id",
  "admin-access",
];

const RAW_QUERY_PARTS = [
  "%",
  "%zz",
  "%E0%A4%A",
  "a=%ZZ",
  "=",
  "&&&",
  "a",
  "a=b=c",
  "+++",
  "%00",
  "slug[]=a",
  "slug[a]=b",
  "__proto__[x]=1",
];

/** A query string: often a valid slug and page first (so the code behind them runs), then anything. */
function queryArb(known: Known): fc.Arbitrary<string> {
  const base = fc.oneof(
    fc.constant<[string, string][]>([]),
    fc.constantFrom(...known.productSlugs, ...known.categorySlugs).map((slug): [string, string][] => [["slug", slug]]),
    fc.constantFrom(...known.productSlugs, ...known.categorySlugs).map((slug): [string, string][] => [
      ["slug", slug],
      ["page", "1"],
    ]),
  );
  const value = fc.oneof(
    { arbitrary: fc.constantFrom(...known.productSlugs, ...known.categorySlugs, "1", "2", "48", "200", "201", ...known.emails), weight: 3 },
    { arbitrary: oddString, weight: 3 },
  );
  const part = fc.oneof(
    { arbitrary: fc.tuple(fc.constantFrom(...QUERY_NAMES), value), weight: 6 },
    { arbitrary: fc.tuple(oddString, oddString), weight: 1 },
    { arbitrary: fc.constantFrom(...RAW_QUERY_PARTS), weight: 1 },
  );
  return fc
    .tuple(base, fc.array(part, { maxLength: 6 }))
    .map(([first, rest]) => [...first, ...rest])
    .map((parts) =>
      parts.length === 0
        ? ""
        : `?${parts
            .map((p) => (typeof p === "string" ? p : `${encodeURIComponent(wellFormed(p[0]))}=${encodeURIComponent(wellFormed(p[1]))}`))
            .join("&")}`,
    );
}

/** A route param: a real one, or anything a URL can carry. */
function paramArb(name: string, file: string, known: Known): fc.Arbitrary<string> {
  let valid: string[];
  if (name === "slug") valid = file.startsWith("category") ? known.categorySlugs : known.productSlugs;
  else if (name === "paymentOrderId") valid = known.paymentOrderIds;
  else if (name === "*") {
    if (file.startsWith("images"))
      valid = [`products/${known.productSlugs[0]}.svg`, `categories/${known.categorySlugs[0]}.svg`, "hero/1.svg"];
    else if (file.startsWith("uploads")) valid = [`${"0".repeat(32)}.png`, `${"a".repeat(32)}.webp`];
    else valid = ["cart/nope", "some/deep/page", "index"];
  } else valid = [...known.orderIds.map(String), CART_LINE];
  const odd = fc.oneof(
    oddString,
    fc.constantFrom("0", "-1", "1e309", "9007199254740993", "00001", " 1", "1.0", "a/b/../../c", "..", ".", "%2e%2e", "x.svg/"),
  );
  return fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 3 }, { arbitrary: odd, weight: 2 }).map(wellFormed);
}

/** A route module as the fuzz test sees it. */
export interface FuzzRoute {
  file: string;
  hasLoader: boolean;
  hasAction: boolean;
  /**
   * The method the module is for: its loader's 405 names the action's method in `Allow`
   * ("POST", "PUT", "DELETE"); "GET" when the loader answers. Most requests use it.
   */
  mainMethod: string;
}

export const isApiFile = (file: string) => file.startsWith("api.") || file.startsWith("rzp.");
const isAdminFile = (file: string) => file.startsWith("admin") || file === "api.user.list.ts";

const WRITE_METHODS = ["POST", "PUT", "DELETE", "PATCH", "patch"];

/** Mostly the module's own method; every other method it can be sent too (the Request keeps "patch" lower case). */
function methodArb(route: FuzzRoute): fc.Arbitrary<string> {
  const choices: { arbitrary: fc.Arbitrary<string>; weight: number }[] = [];
  const add = (method: string, weight: number) => choices.push({ arbitrary: fc.constant(method), weight });
  const reads = route.hasLoader;
  const writes = route.hasAction;
  if (reads) {
    add("GET", route.mainMethod === "GET" ? 20 : 1);
    add("HEAD", 1);
  }
  if (writes) {
    for (const method of WRITE_METHODS) add(method, method === route.mainMethod ? 20 : 1);
    // A page with a form is posted to: its action is half of it.
    if (!isApiFile(route.file) && route.mainMethod === "GET") add("POST", 16);
  }
  return fc.oneof(...choices);
}

/** Every request the fuzz test may send to this route module. */
export function requestArb(route: FuzzRoute, known: Known): fc.Arbitrary<RequestSpec> {
  const pattern = routePattern(route.file);
  const names = paramNames(route.file);
  const paramsArb = fc.tuple(...names.map((n) => paramArb(n, route.file, known)));
  return fc
    .record({
      method: methodArb(route),
      paramValues: names.length ? paramsArb : fc.constant([] as string[]),
      query: queryArb(known),
      who: fc.oneof(
        { arbitrary: fc.constant<Who>("guest"), weight: 3 },
        { arbitrary: fc.constant<Who>("customer cookie"), weight: 3 },
        { arbitrary: fc.constant<Who>("customer token"), weight: 3 },
        { arbitrary: fc.constant<Who>("admin"), weight: isAdminFile(route.file) ? 8 : 2 },
        { arbitrary: fc.constant<Who>("admin signed in"), weight: isAdminFile(route.file) ? 4 : 1 },
        { arbitrary: fc.constant<Who>("admin and customer token"), weight: 1 },
        { arbitrary: fc.constant<Who>("stale cookie"), weight: 1 },
        { arbitrary: fc.constant<Who>("garbage token"), weight: 1 },
      ),
      origin: fc.oneof(
        { arbitrary: fc.constant<OriginMode>("same"), weight: 16 },
        { arbitrary: fc.constant<OriginMode>("none"), weight: 2 },
        { arbitrary: fc.constant<OriginMode>("same referer"), weight: 1 },
        { arbitrary: fc.constant<OriginMode>("foreign"), weight: 1 },
        { arbitrary: fc.constant<OriginMode>("null"), weight: 1 },
      ),
      headers: fc.oneof(
        { arbitrary: fc.constant<[string, string][]>([]), weight: 3 },
        { arbitrary: fc.array(headerArb(), { minLength: 1, maxLength: 3 }), weight: 2 },
        ...(route.file === "rzp.webhook.ts"
          ? [{ arbitrary: fc.constant<[string, string][]>([["X-Razorpay-Signature", BODY_SIGNATURE]]), weight: 10 }]
          : []),
      ),
      contentType: contentTypeArb,
      contentLength: fc.oneof(
        { arbitrary: fc.constant<RequestSpec["contentLength"]>("right"), weight: 8 },
        { arbitrary: fc.constant<RequestSpec["contentLength"]>("missing"), weight: 2 },
        { arbitrary: fc.constant<RequestSpec["contentLength"]>("huge"), weight: 1 },
      ),
      payload:
        route.file === "rzp.webhook.ts"
          ? fc.oneof({ arbitrary: webhookPayload(known), weight: 3 }, { arbitrary: payloadArb(known, true), weight: 1 })
          : payloadArb(known, isApiFile(route.file)),
      keepLimits: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }),
    })
    .map(({ method, paramValues, ...rest }) => {
      const params: Record<string, string> = {};
      names.forEach((n, i) => (params[n] = paramValues[i]));
      const path = pattern
        .map((s) => {
          if ("text" in s) return encodeURI(s.text);
          const value = params[s.param];
          return s.param === "*" ? value.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(value);
        })
        .join("/");
      const readsOnly = ["GET", "HEAD"].includes(method);
      return printable({
        method,
        path: `/${path}`,
        params,
        ...rest,
        payload: readsOnly ? { kind: "none" } : rest.payload,
      });
    });
}
