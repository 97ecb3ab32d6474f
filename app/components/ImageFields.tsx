// The image of a product or category: a URL (docs/product.md) or a file uploaded from the computer.
import { FormField, fieldA11y, fieldProps } from "~/components/FormField";
import { CATEGORY_FIELDS, isImageUrl } from "~/utils/admin-fields";

export function ImageFields({
  idPrefix,
  value,
  urlError,
  fileError,
}: {
  idPrefix: string;
  value: string;
  urlError?: string;
  fileError?: string;
}) {
  const urlId = `${idPrefix}-image-url`;
  const fileId = `${idPrefix}-image-file`;
  return (
    <fieldset className="space-y-3 rounded-lg border border-sand-200 p-3">
      <legend className="px-1 text-sm font-medium">Image</legend>
      <FormField id={urlId} label="Image URL" required error={urlError}>
        <input
          id={urlId}
          name="imgPath"
          {...fieldProps(CATEGORY_FIELDS.imgPath)}
          type="url"
          defaultValue={value}
          placeholder="https://… or /images/…"
          className="field-input"
          {...fieldA11y(urlId, urlError)}
        />
      </FormField>
      <FormField id={fileId} label="Or upload an image" optional error={fileError}>
        <input
          id={fileId}
          name="imageFile"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-sand-100 file:px-3 file:py-2"
          {...fieldA11y(fileId, fileError)}
        />
      </FormField>
      <p className="text-xs text-stone-600">JPEG, PNG or WebP, up to 2 MB. An uploaded file replaces the URL.</p>
      {/* A preview only of an address the shop accepts (a refused one is never loaded). */}
      {value && !urlError && isImageUrl(value) ? (
        <img src={value} alt="" width={64} height={64} className="h-16 w-16 rounded-md bg-sand-100 object-cover" />
      ) : null}
    </fieldset>
  );
}
