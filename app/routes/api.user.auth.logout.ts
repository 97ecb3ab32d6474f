export { action, loader } from "./api.auth.logout";
