import type { MetaFunction } from "@remix-run/node";
import { PolicyPage } from "~/components/PolicyPage";

export const meta: MetaFunction = () => [
  { title: "Privacy Policy | Sagwan Living" },
  {
    name: "description",
    content:
      "How Sagwan Living collects, uses and protects your personal data under the DPDP Act 2023, and how to reach our Grievance Officer.",
  },
];

export default function PrivacyPolicyRoute() {
  return <PolicyPage id="privacy" />;
}
