import type { MetaFunction } from "@remix-run/node";
import { PolicyPage } from "~/components/PolicyPage";

export const meta: MetaFunction = () => [
  { title: "Shipping Policy | Sagwan Living" },
  {
    name: "description",
    content:
      "Where Sagwan Living delivers, shipping charges, delivery times across India and how to report damage within 48 hours of delivery.",
  },
];

export default function ShippingPolicyRoute() {
  return <PolicyPage id="shipping" />;
}
