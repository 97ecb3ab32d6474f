// The spec's second auth store reads the same login (section 7).
export { action, loader } from "./api.user.auth.login";
