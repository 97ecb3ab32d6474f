// Uploaded product and category images (being implemented: see the helper's task).
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

/**
 * The image file chosen in `field` of an admin form, checked and stored under the data folder:
 * its public path (/uploads/…), or null when no file was chosen. A file that is not a JPEG, PNG
 * or WebP image, or is larger than MAX_UPLOAD_BYTES, is refused (AppError 400/413 with a
 * field message on `field`).
 */
export async function imageFromForm(form: FormData, field = "imageFile"): Promise<string | null> {
  const file = form.get(field);
  if (!file || typeof file === "string" || file.size === 0) return null;
  throw new Error("not implemented yet");
}
