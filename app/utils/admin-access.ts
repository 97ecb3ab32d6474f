// The Admin Access answers the dialog and the login page show (shared by the model and the page).

/** A wrong (or missing) password: 401. */
export const INVALID_PASSWORD = "Invalid password";

/** No admin password on this server (production without a good ADMIN_PASSWORD): 403. */
export const NOT_CONFIGURED_MESSAGE = "Admin access is not configured";
