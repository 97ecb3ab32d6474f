import type { MetaFunction } from "@remix-run/node";
import { PolicyPage } from "~/components/PolicyPage";

export const meta: MetaFunction = () => [
  { title: "Terms and Conditions | Sagwan Living" },
  {
    name: "description",
    content:
      "The terms that apply when you use the Sagwan Living website and buy furniture from us: orders, payment, cancellations, returns " +
      "and disputes.",
  },
];

export default function TermsAndConditionsRoute() {
  return <PolicyPage id="terms" />;
}
