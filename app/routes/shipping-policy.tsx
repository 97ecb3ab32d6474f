import type { MetaFunction } from "@remix-run/node";
import { PolicyPage } from "~/components/PolicyPage";
import { seoMeta, siteUrlFrom } from "~/utils/seo";

export const meta: MetaFunction = ({ matches }) =>
  seoMeta(siteUrlFrom(matches), {
    title: "Shipping Policy | Sagwan Living",
    description:
      "Where Sagwan Living delivers, shipping charges, delivery times across India and how to report damage within 48 hours of delivery.",
    path: "/shipping-policy",
  });

export default function ShippingPolicyRoute() {
  return <PolicyPage id="shipping" />;
}
