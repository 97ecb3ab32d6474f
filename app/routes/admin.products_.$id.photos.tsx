// /admin/products/:id/photos: a product's photos. Upload one or several (each resized once, on
// upload: app/lib/photos.server.ts), give each its alt text and, for a product sold in variants,
// the variant it shows (the product page shows the chosen variant's photos first), move it up or
// down, delete it. Every form is a plain post that works without JavaScript; each change writes
// its audit row.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { z } from "zod";
import { FormBanner } from "~/components/FormBanner";
import { fieldA11y } from "~/components/FormField";
import { useIsPending } from "~/hooks/useIsPending";
import { notFoundPage } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { MAX_PHOTO_BYTES, MAX_PHOTOS_BODY_BYTES, MAX_PHOTOS_PER_POST } from "~/lib/request-rules";
import { preparePhotos } from "~/lib/photos.server";
import { redirectWithToast } from "~/lib/toast.server";
import {
  addPhotos,
  deletePhoto,
  listPhotos,
  movePhoto,
  photoProduct,
  PRODUCT_NOT_FOUND,
  setPhotoAlt,
  setPhotoVariant,
} from "~/models/catalogue/photos.server";
import { variantsOf } from "~/models/catalogue/variants.server";
import { db } from "~/lib/db.server";
import { IdSchema } from "~/utils/schemas";
import { MAX_ALT_CHARS, renditionPath } from "~/utils/photos";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { adminForm, formActor } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";

export const handle = { section: "Products" };
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Photos of ${data?.product.title ?? "a product"} | Admin | Sagwan Living` },
  { name: "robots", content: "noindex" },
];

export const permissions = { loader: "catalogue.write", action: "catalogue.write" } satisfies RoutePermissions;

const AltSchema = z
  .string()
  .trim()
  .max(MAX_ALT_CHARS, `Alt text must be at most ${MAX_ALT_CHARS} characters`)
  .transform((s) => s.replace(/\s+/g, " "));
/** The variant a photo shows: a variant's id, or "" for the product as a whole. */
const ShowsSchema = z.union([z.literal("").transform(() => null), IdSchema]).default(null);
const UploadSchema = z.object({ alt: AltSchema.default(""), variantId: ShowsSchema });
const PhotoSchema = z.object({ photoId: IdSchema });
const ShowsFormSchema = PhotoSchema.extend({ variantId: ShowsSchema });
const AltFormSchema = PhotoSchema.extend({ alt: AltSchema.pipe(z.string().min(1, "Describe what the photo shows")) });

/** The product of the URL: 404 for an id that is not a number or not a product. */
async function productOf(param: string | undefined) {
  const id = IdSchema.safeParse(param);
  const product = id.success ? await photoProduct(id.data) : null;
  if (!product) throw notFoundPage(PRODUCT_NOT_FOUND);
  return product;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  const product = await productOf(params.id);
  const [photos, sold] = await Promise.all([listPhotos(product.id), variantsOf(db, product.id)]);
  // A product sold in variants: each can have photos of its own.
  const variants = sold?.options.length ? sold.variants.map((v) => ({ id: v.id, label: v.label })) : [];
  return { product, photos, variants };
}

const FIELDS = ["intent", "photos", "alt", "photoId", "variantId"];

export async function action({ request, params }: ActionFunctionArgs) {
  const here = () => new URL(request.url).pathname;
  const done = (title: string) => redirectWithToast(request, here(), { type: "success", title });
  const itemId = () => productOf(params.id).then((p) => p.id);
  return pageAction(
    request,
    {
      intents: {
        upload: async (form) => {
          const id = await itemId();
          const { alt, variantId } = parseWith(UploadSchema, {
            alt: form.get("alt") ?? undefined,
            variantId: form.get("variantId") ?? undefined,
          });
          // Every file checked and resized before anything is written: one refused file stores none.
          const photos = await preparePhotos(form);
          await addPhotos(id, photos, alt, formActor(request), undefined, undefined, variantId);
          return done(photos.length === 1 ? "Photo added" : `${photos.length} photos added`);
        },
        variant: async (form) => {
          const input = parseWith(ShowsFormSchema, { photoId: form.get("photoId"), variantId: form.get("variantId") ?? undefined });
          await setPhotoVariant(await itemId(), input.photoId, input.variantId, formActor(request));
          return done("Photo's variant saved");
        },
        alt: async (form) => {
          const input = parseWith(AltFormSchema, { photoId: form.get("photoId"), alt: form.get("alt") });
          await setPhotoAlt(await itemId(), input.photoId, input.alt, formActor(request));
          return done("Alt text saved");
        },
        up: async (form) => {
          const { photoId } = parseWith(PhotoSchema, { photoId: form.get("photoId") });
          await movePhoto(await itemId(), photoId, "up", formActor(request));
          return done("Photo moved up");
        },
        down: async (form) => {
          const { photoId } = parseWith(PhotoSchema, { photoId: form.get("photoId") });
          await movePhoto(await itemId(), photoId, "down", formActor(request));
          return done("Photo moved down");
        },
        delete: async (form) => {
          const { photoId } = parseWith(PhotoSchema, { photoId: form.get("photoId") });
          await deletePhoto(await itemId(), photoId, formActor(request));
          return done("Photo deleted");
        },
      },
    },
    { read: adminForm(FIELDS, permissions.action), limit: MAX_PHOTOS_BODY_BYTES, echo: ["alt", "photoId"] },
  );
}

const MB = MAX_PHOTO_BYTES / 1024 / 1024;

/** The upload form's columns: the files, the alt text, the variant when there are any, the button. */
const WITH_VARIANT = "lg:grid-cols-[1fr_1fr_1fr_auto]";
const WITHOUT_VARIANT = "sm:grid-cols-[1fr_1fr_auto]";

type VariantChoice = { id: number; label: string };

/** The select of the variant a photo shows ("" for the product as a whole). */
function ShowsSelect({ id, variants, value }: { id: string; variants: VariantChoice[]; value: number | null }) {
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={id} className="field-label">
        Shows
      </label>
      <select id={id} name="variantId" defaultValue={value ?? ""} className="field-input">
        <option value="">Every variant</option>
        {variants.map((v) => (
          <option key={v.id} value={v.id}>
            {v.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function UploadForm({ error, formError, variants }: { error?: string; formError?: string; variants: VariantChoice[] }) {
  const busy = useIsPending({ state: "submitting", intent: "upload" });
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className={`card mt-6 grid gap-4 p-5 sm:items-end ${variants.length ? WITH_VARIANT : WITHOUT_VARIANT}`}
    >
      <input type="hidden" name="intent" value="upload" />
      <div>
        <label htmlFor="photos" className="field-label label-required">
          Photos
        </label>
        <input
          id="photos"
          name="photos"
          type="file"
          multiple
          required
          accept="image/jpeg,image/png,image/webp"
          className="field-input"
          aria-describedby="photos-hint"
          {...fieldA11y("photos", error)}
        />
        <p id="photos-hint" className="mt-1 text-xs text-stone-500">
          JPEG, PNG or WebP, up to {MAX_PHOTOS_PER_POST} at a time, {MB} MB each.
        </p>
        {error ? (
          <p id="photos-error" className="field-error">
            {error}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor="upload-alt" className="field-label label-optional">
          Alt text
        </label>
        <input id="upload-alt" name="alt" maxLength={MAX_ALT_CHARS} className="field-input" placeholder="Teak sofa, side view" />
      </div>
      {variants.length ? <ShowsSelect id="upload-variant" variants={variants} value={null} /> : null}
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Uploading..." : "Upload"}
      </button>
      {formError && !error ? <FormBanner message={formError} className="col-span-full" /> : null}
    </Form>
  );
}

export default function ProductPhotos() {
  const { product, photos, variants } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failedPhoto = result?.values?.photoId ? Number(result.values.photoId) : null;
  return (
    <div>
      <Link to="/admin/products" className="text-sm font-medium text-wood-700 hover:underline">
        ← Products
      </Link>
      <h2 className="mt-2 text-xl font-semibold">Photos of {product.title}</h2>
      <p className="mt-1 text-sm text-stone-600">
        The first photo is the one the{" "}
        <Link to={`/product/${product.slug}`} className="underline">
          product page
        </Link>{" "}
        opens on. Without photos the page shows the product&apos;s drawing. A photo can show one of the product&apos;s{" "}
        <Link to={`/admin/products/${product.id}/variants`} className="underline">
          variants
        </Link>
        : the page then opens on it when that variant is chosen.
      </p>
      <UploadForm
        error={failedPhoto === null ? result?.fieldErrors?.photos : undefined}
        formError={failedPhoto === null ? result?.formError : undefined}
        variants={variants}
      />
      {photos.length === 0 ? (
        <p className="mt-6 text-stone-600">No photos yet.</p>
      ) : (
        <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Photos">
          {photos.map((photo, index) => {
            const altError = failedPhoto === photo.id ? result?.fieldErrors?.alt : undefined;
            const altId = `alt-${photo.id}`;
            return (
              <li key={photo.id} className="card p-4" data-testid="admin-photo">
                <img
                  src={renditionPath(photo.base, photo.widths[Math.min(1, photo.widths.length - 1)]!, "webp")}
                  alt={photo.alt}
                  width={photo.width}
                  height={photo.height}
                  loading="lazy"
                  className="aspect-[4/3] w-full rounded-md bg-sand-100 object-contain"
                />
                <p className="mt-2 text-sm font-semibold">
                  Photo {index + 1} of {photos.length}
                </p>
                {failedPhoto === photo.id && result?.formError && !altError ? (
                  <FormBanner message={result.formError} className="mt-2" />
                ) : null}
                <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                  <input type="hidden" name="photoId" value={photo.id} />
                  <div className="min-w-0 flex-1">
                    <label htmlFor={altId} className="field-label">
                      Alt text
                    </label>
                    <input
                      id={altId}
                      name="alt"
                      required
                      maxLength={MAX_ALT_CHARS}
                      defaultValue={altError ? (result?.values?.alt ?? photo.alt) : photo.alt}
                      className="field-input"
                      {...fieldA11y(altId, altError)}
                    />
                    {altError ? (
                      <p id={`${altId}-error`} className="field-error">
                        {altError}
                      </p>
                    ) : null}
                  </div>
                  <button type="submit" name="intent" value="alt" className="btn-secondary">
                    Save alt text
                  </button>
                </Form>
                {variants.length ? (
                  <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                    <input type="hidden" name="photoId" value={photo.id} />
                    <ShowsSelect id={`variant-${photo.id}`} variants={variants} value={photo.variantId} />
                    <button type="submit" name="intent" value="variant" className="btn-secondary">
                      Save variant
                    </button>
                  </Form>
                ) : null}
                <Form method="post" className="mt-3 flex flex-wrap gap-2">
                  <input type="hidden" name="photoId" value={photo.id} />
                  <button type="submit" name="intent" value="up" className="btn-ghost px-3" disabled={index === 0}>
                    Move up<span className="sr-only"> photo {index + 1}</span>
                  </button>
                  <button type="submit" name="intent" value="down" className="btn-ghost px-3" disabled={index === photos.length - 1}>
                    Move down<span className="sr-only"> photo {index + 1}</span>
                  </button>
                  <button type="submit" name="intent" value="delete" className="btn-ghost px-3 text-red-700">
                    Delete<span className="sr-only"> photo {index + 1}</span>
                  </button>
                </Form>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
