import type { MetaFunction } from "@remix-run/node";
import { PolicyPage } from "~/components/PolicyPage";
import { seoMeta, siteUrlFrom } from "~/utils/seo";

export const meta: MetaFunction = ({ matches }) =>
  seoMeta(siteUrlFrom(matches), {
    title: "Terms and Conditions | Sagwan Living",
    description:
      "The terms that apply when you use the Sagwan Living website and buy furniture from us: orders, payment, cancellations, returns " +
      "and disputes.",
    path: "/t&c",
  });

export default function TermsAndConditionsRoute() {
  return <PolicyPage id="terms" />;
}
