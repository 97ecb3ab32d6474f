// Uploaded product and category images: /uploads/{32 hex}.{jpg|png|webp}, from DATA_DIR/uploads
// (app/lib/uploads.server.ts). Names are random and never reused, so they cache for a year.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { otherMethods } from "~/lib/api-params.server";
import { readUpload } from "~/lib/uploads.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const upload = await readUpload(params["*"] ?? "");
  if (!upload) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(new Uint8Array(upload.body), {
    headers: {
      "Content-Type": upload.type,
      "Content-Length": String(upload.body.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}

/** Uploads are read-only here (they are made by the admin forms): 403 cross-site, else 405. */
export const action = otherMethods(["GET"]);
