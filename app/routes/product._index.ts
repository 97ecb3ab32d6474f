import { redirect } from "@remix-run/node";

// The path above a piece's (or a room's) own page, as someone trims the address: the catalogue.
export const loader = () => redirect("/categories", 301);
