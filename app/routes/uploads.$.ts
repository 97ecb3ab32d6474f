// Uploaded product and category images: /uploads/{32 hex}.{jpg|png|webp}, from the image store
// (app/lib/image-store.server.ts: DATA_DIR/uploads or the database). Names are random and never
// reused, so they cache for a year, with a strong ETag for a conditional GET (304).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { otherMethods } from "~/lib/api-params.server";
import { uploadResponse } from "~/lib/uploads.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => uploadResponse(request, params["*"] ?? "");

/** Uploads are read-only here (they are made by the admin forms): 403 cross-site, else 405. */
export const action = otherMethods(["GET"]);
