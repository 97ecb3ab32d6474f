// Domain errors: what went wrong in words a customer can read, with the HTTP status it maps to.
export class AppError extends Error {
  constructor(
    public status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429,
    message: string,
    public fieldErrors?: Record<string, string>,
    public headers?: HeadersInit,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (message = "Not found") => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const badRequest = (message: string, fieldErrors?: Record<string, string>) =>
  new AppError(400, message, fieldErrors);
