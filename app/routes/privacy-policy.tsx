import type { MetaFunction } from "@remix-run/node";
import { PolicyPage } from "~/components/PolicyPage";
import { seoMeta, siteUrlFrom } from "~/utils/seo";

export const meta: MetaFunction = ({ matches }) =>
  seoMeta(siteUrlFrom(matches), {
    title: "Privacy Policy | Sagwan Living",
    description:
      "How Sagwan Living collects, uses and protects your personal data under the DPDP Act 2023, and how to reach our Grievance Officer.",
    path: "/privacy-policy",
  });

export default function PrivacyPolicyRoute() {
  return <PolicyPage id="privacy" />;
}
