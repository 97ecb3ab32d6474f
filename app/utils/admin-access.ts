// The Admin Access answers the dialog and the login page show (shared by the model and the page).

/** A wrong (or missing) password: 401. */
export const INVALID_PASSWORD = "Invalid password";

/** No admin password on this server (production without a good ADMIN_PASSWORD): 403. */
export const NOT_CONFIGURED_MESSAGE = "Admin access is not configured";

/** POST /admin/login with the password alone while ADMIN_PASSWORD_LOGIN=off: 403. */
export const ADMIN_PASSWORD_LOGIN_OFF =
  "Signing in with the shop's admin password is turned off (ADMIN_PASSWORD_LOGIN=off). Sign in with your staff email and password.";

/** The code step of a staff sign-in that was never begun, or took longer than five minutes. */
export const STAFF_STEP_EXPIRED = "Your sign-in took too long or was not started. Please enter your email and password again.";

/** Where a staff member sets up two-step sign-in (and is sent while it is required of them and not set up). */
export const TWO_STEP_SETUP_PATH = "/admin/login/two-step";
