// The three policy pages. Facts follow spec section 9 ("Policy facts"). The shipping policy
// says free shipping above ₹5,000 while the cart says above ₹25,000: both readings are kept
// on purpose (docs/product.md, "Screens").

export interface PolicySection {
  heading: string;
  paragraphs: string[];
}

export interface Policy {
  title: string;
  effectiveDate: string;
  intro: string;
  sections: PolicySection[];
}

export type PolicyId = "privacy" | "terms" | "shipping";

export const POLICY_LINKS: { id: PolicyId; href: string; label: string }[] = [
  { id: "privacy", href: "/privacy-policy", label: "Privacy Policy" },
  { id: "terms", href: "/t&c", label: "Terms and Conditions" },
  { id: "shipping", href: "/shipping-policy", label: "Shipping Policy" },
];

const EFFECTIVE_DATE = "July 2025";
const SUPPORT_EMAIL = "support@sagwanliving.in";
const SUPPORT_PHONE = "+91 79 4000 1234";
const HEAD_OFFICE = "14 Sindhu Bhavan Road, Bodakdev, Ahmedabad, Gujarat 380054";

const privacy: Policy = {
  title: "Privacy Policy",
  effectiveDate: EFFECTIVE_DATE,
  intro:
    'This Privacy Policy explains how Sagwan Living ("we", "us" or "our"), of Ahmedabad, Gujarat, collects, uses, shares and ' +
    "protects your personal data when you visit our website, create an account, place an order or write to us. We process personal " +
    "data in accordance with the Digital Personal Data Protection Act, 2023 (DPDP Act 2023) and other applicable Indian laws. By " +
    "using our website you agree to the practices described here.",
  sections: [
    {
      heading: "Information We Collect",
      paragraphs: [
        "Account information: when you register we collect your name, email address, password and, if you choose to give it, your " +
          "mobile number. Your password is stored only in a securely hashed form and is never visible to our staff.",
        "Order information: when you place an order we collect your shipping name, address, city, state, pincode, phone number and " +
          "email address, the items you buy and the payment method you choose. Online payments are processed by our payment partner; " +
          "we receive a confirmation of the payment but never see or store your full card number, CVV, UPI PIN or net banking password.",
        "Messages: when you use our contact form or subscribe to our newsletter we keep your name, email address, phone number (if " +
          "given) and what you wrote to us, so that we can reply.",
      ],
    },
    {
      heading: "How We Use Your Information",
      paragraphs: [
        "We use your personal data only for clear, limited purposes: to create and manage your account, to verify your email address " +
          "with a one-time code, to process, deliver and support your orders, to answer your questions and complaints, to send you our " +
          "newsletter if you have subscribed to it, and to meet our legal obligations such as tax invoicing and record keeping.",
        "We do not use your data for automated decision-making or profiling, and we do not sell, rent or trade your personal data to " +
          "anyone.",
      ],
    },
    {
      heading: "Cookies",
      paragraphs: [
        "We use only the cookies needed to run the shop: a session cookie that keeps you signed in and remembers your cart, a " +
          "short-lived cookie that carries one-time on-screen confirmations (for example, that your message was sent), and, when you " +
          "check delivery to a pincode, a cookie that remembers that pincode until you close your browser. These cookies are " +
          "essential for the website to work and are not used for advertising.",
        "We do not use advertising cookies, analytics cookies or any third-party trackers, and we do not load scripts, fonts or " +
          "images from other websites.",
      ],
    },
    {
      heading: "Sharing Your Information",
      paragraphs: [
        "We share personal data only with service providers who help us fulfil your order, and only what they need: our delivery and " +
          "installation partners (name, address and phone number), our payment partner (order amount and reference) and our email " +
          "provider (to send order and account emails). These providers must keep your data confidential and use it only on our " +
          "instructions.",
        "We may also disclose personal data when required by Indian law, by a court order or by a government authority acting " +
          "lawfully, or where necessary to protect our customers, our staff or our business against fraud.",
      ],
    },
    {
      heading: "Data Security and Retention",
      paragraphs: [
        "We protect your data with reasonable security safeguards, including encrypted connections (HTTPS), hashed passwords, " +
          "server-side sessions and access limited to the staff who need it. No system is perfectly secure, but if a personal data " +
          "breach occurs we will inform affected users and the Data Protection Board of India as the DPDP Act 2023 requires.",
        "We keep account data for as long as your account is active. Order and invoice records are kept for as long as Indian tax " +
          "and accounting laws require. Contact messages are kept only as long as needed to resolve your request. When data is no " +
          "longer needed, we delete it or make it anonymous.",
      ],
    },
    {
      heading: "Your Rights",
      paragraphs: [
        "Under the DPDP Act 2023 you have the right to obtain a summary of the personal data we hold about you and how it is used, " +
          "to have inaccurate or incomplete data corrected and updated, to have your data erased when it is no longer needed, to " +
          "withdraw your consent at any time (for example, by unsubscribing from our newsletter), to nominate another person to " +
          "exercise your rights in the event of your death or incapacity, and to have your grievances redressed.",
        "You can update your name, email address and mobile number at any time from your profile. For any other request, contact our " +
          "Grievance Officer using the details below. Withdrawing consent does not affect processing that took place before you " +
          "withdrew it, and we may need to keep some records where the law requires us to.",
      ],
    },
    {
      heading: "Children",
      paragraphs: [
        "Our website and services are intended only for users who are 18 years of age or older. We do not knowingly collect personal " +
          "data from children. If you believe that a child has given us personal data, please contact us and we will delete it.",
      ],
    },
    {
      heading: "Grievance Officer and Contact",
      paragraphs: [
        `If you have any question, request or complaint about your personal data, please contact our Grievance Officer at ` +
          `${SUPPORT_EMAIL} or ${SUPPORT_PHONE}, or write to Grievance Officer, Sagwan Living, ${HEAD_OFFICE}.`,
        "We will acknowledge your grievance within 48 hours and aim to resolve it within one month of receiving it. If you are not " +
          "satisfied with our response, you may complain to the Data Protection Board of India.",
      ],
    },
    {
      heading: "Changes to This Policy",
      paragraphs: [
        "We may update this Privacy Policy from time to time, for example when the law changes or when we change how we work. The " +
          "effective date at the top of this page shows when it was last updated. If we make significant changes, we will let " +
          "registered customers know by email before they take effect.",
      ],
    },
  ],
};

const terms: Policy = {
  title: "Terms and Conditions",
  effectiveDate: EFFECTIVE_DATE,
  intro:
    "These Terms and Conditions govern your use of the Sagwan Living website and every purchase you make from Sagwan Living, " +
    'Ahmedabad, Gujarat ("we", "us" or "our"). By using our website, creating an account or placing an order, you agree to ' +
    "these terms. Please read them carefully together with our Privacy Policy and Shipping Policy.",
  sections: [
    {
      heading: "Eligibility and Your Account",
      paragraphs: [
        "You must be 18 years of age or older to create an account or place an order on our website. By using our services you " +
          "confirm that you are at least 18 and legally able to enter into a binding contract under Indian law.",
        "You agree to give accurate and complete information when you register and when you order, and to keep it up to date. You " +
          "are responsible for keeping your password confidential and for all activity under your account. Tell us at once if you " +
          "think someone else has used your account.",
      ],
    },
    {
      heading: "Products and Prices",
      paragraphs: [
        "All prices are shown in Indian rupees (₹) and include all applicable taxes, including GST. Any delivery charge is shown " +
          "separately at checkout before you pay.",
        "Our furniture is made from natural wood and other natural materials, so grain, knots and shade vary from piece to piece and " +
          "from the photographs on our website; these variations are part of the character of the material and are not defects. " +
          "Colours may also look slightly different on different screens, and dimensions may vary by up to 2 cm.",
        "We try hard to keep product information and prices accurate. If we find an error in the price or description of an item you " +
          "have ordered, we will contact you before dispatch and you may either confirm the order at the correct price or cancel it " +
          "for a full refund.",
      ],
    },
    {
      heading: "Orders and Payment",
      paragraphs: [
        "Placing an order is an offer to buy. A contract is formed when we confirm your order by email. We may decline or cancel an " +
          "order, for example if an item is unavailable, the delivery address cannot be served or we suspect fraud; if you have " +
          "already paid, we will refund you in full.",
        "Payment must be made in full before an order is shipped. You can pay online by credit or debit card, UPI or net banking " +
          "through our secure payment partner. Where Cash on Delivery is offered at checkout, we confirm the order with you before " +
          "dispatch and the full amount is collected when the order is delivered.",
      ],
    },
    {
      heading: "Shipping and Delivery",
      paragraphs: [
        "We ship within India only. Delivery times, charges and the delivery process are described in our Shipping Policy. Delivery " +
          "dates are estimates; we will keep you informed of any delay, but we are not liable for delays caused by events outside our " +
          "reasonable control.",
        "Risk in the goods passes to you on delivery. Ownership passes to you once we have received full payment.",
      ],
    },
    {
      heading: "Cancellations",
      paragraphs: [
        "You may cancel an order while it is still processing, from your Order History or by contacting us, and you will receive a " +
          "full refund of any amount paid. Once an order has been shipped it can no longer be cancelled.",
        "Made-to-order and custom-made items, including pieces built to your chosen size, fabric or finish, cannot be cancelled once " +
          "the order has been confirmed, because work on them starts straight away.",
      ],
    },
    {
      heading: "Returns, Refunds and Warranty",
      paragraphs: [
        "We accept returns only for items that arrive damaged or are defective. Any damage must be reported within 48 hours of " +
          "delivery, with photographs, as described in our Shipping Policy. We will repair or replace the item or, if neither is " +
          "possible, refund you in full. Made-to-order items cannot be returned or cancelled; if one arrives damaged or defective, we " +
          "will repair or replace it.",
        "Approved refunds are made to the original payment method (or by bank transfer for Cash on Delivery orders) within 7-10 " +
          "business days of approval.",
        "Our furniture carries a 5-year warranty against manufacturing defects in its frame and joinery. The warranty does not cover " +
          "normal wear and tear, misuse, damage from moisture, direct sunlight or heat, or any repair or alteration not made by us.",
      ],
    },
    {
      heading: "Use of the Website",
      paragraphs: [
        "All content on this website, including text, designs, illustrations and our logo, belongs to Sagwan Living and may not be " +
          "copied or reused without our written permission.",
        "You agree not to misuse the website: you must not attempt to gain unauthorised access to it, interfere with its operation, " +
          "collect data from it by automated means or use it for any unlawful purpose.",
      ],
    },
    {
      heading: "Limitation of Liability",
      paragraphs: [
        "To the extent permitted by law, our total liability for any order is limited to the amount you paid for that order, and we " +
          "are not liable for indirect or consequential losses. Nothing in these terms limits your rights as a consumer under the " +
          "Consumer Protection Act, 2019 or any liability that cannot be excluded by law.",
      ],
    },
    {
      heading: "Governing Law and Disputes",
      paragraphs: [
        "These terms are governed by the laws of India. Any dispute arising out of or in connection with these terms or your use of " +
          "our website is subject to the exclusive jurisdiction of the courts of Gujarat, India.",
        `Before going to court, please contact us at ${SUPPORT_EMAIL} or ${SUPPORT_PHONE} ` +
          `so that we can try to resolve the matter with you. ` +
          `We may update these terms from time to time; the version in force when you place an order applies to that order.`,
      ],
    },
  ],
};

const shipping: Policy = {
  title: "Shipping Policy",
  effectiveDate: EFFECTIVE_DATE,
  intro:
    "Sagwan Living delivers furniture to homes and offices across India. This policy explains where we ship, what delivery costs, " +
    "how long it takes and what to do if something arrives damaged. It forms part of our Terms and Conditions.",
  sections: [
    {
      heading: "Where We Ship",
      paragraphs: [
        "We ship within India only. We do not currently ship to addresses outside India.",
        "We deliver to most pincodes in India. A few remote locations may need extra time or may not be serviceable; if we cannot " +
          "deliver to your pincode, we will tell you before you pay or, if you have already paid, refund you in full.",
      ],
    },
    {
      heading: "Shipping Charges",
      paragraphs: [
        "Shipping is free on most orders above ₹5,000. Orders below ₹5,000, and some oversized items or hard-to-reach locations, may " +
          "carry a flat delivery fee.",
        "Any delivery fee is always shown at checkout before you pay. All product prices include applicable taxes.",
      ],
    },
    {
      heading: "Delivery Timelines",
      paragraphs: [
        "Metro cities: 5-7 business days from dispatch.",
        "Tier 2 and tier 3 cities: 7-10 business days from dispatch.",
        "Custom-made furniture: 14-21 business days, as each piece is made to order.",
        "Business days are Monday to Saturday, excluding public holidays. These timelines are estimates; deliveries can occasionally " +
          "take longer during festivals, heavy rain or other events outside our control, and we will keep you informed of any delay.",
      ],
    },
    {
      heading: "Order Processing and Payment",
      paragraphs: [
        "Payment must be made in full before an order is shipped (Cash on Delivery orders, where offered, are confirmed with you " +
          "before dispatch and paid in full on delivery). Once your order is confirmed, we check and pack each piece by hand before it " +
          "leaves our workshop.",
        "You can follow the status of your order in your Order History. Our delivery team will call or email you before delivery to " +
          "agree a convenient date and time slot.",
      ],
    },
    {
      heading: "Delivery and Installation",
      paragraphs: [
        "Our delivery team brings your furniture into your home, to the room of your choice where access allows, and assembles it if " +
          "needed. Packaging is removed and taken away on request.",
        "Please make sure that the item can pass through doors, stairways and lifts, and let us know in advance about any access " +
          "restrictions in your building. Someone aged 18 or over must be present to receive the delivery.",
      ],
    },
    {
      heading: "Damaged or Defective Items",
      paragraphs: [
        "Please inspect your furniture when it arrives. Any damage must be reported within 48 hours of delivery by writing to " +
          "support@sagwanliving.in or calling +91 79 4000 1234, with your order number and clear photographs of the damage and the " +
          "packaging.",
        "Once we have verified the report, we will repair the item, replace it or, if neither is possible, give you a full refund, " +
          "at no extra cost to you. Damage reported more than 48 hours after delivery may not be covered.",
      ],
    },
    {
      heading: "Returns and Cancellations",
      paragraphs: [
        "Returns are accepted only for damaged or defective items. We cannot accept returns for a change of mind, or because of the " +
          "natural variations in wood grain and shade described in our Terms and Conditions.",
        "Made-to-order items cannot be returned or cancelled once the order has been confirmed. If a made-to-order item arrives " +
          "damaged or defective, we will repair or replace it as described above.",
      ],
    },
    {
      heading: "Failed or Rescheduled Deliveries",
      paragraphs: [
        "If nobody is available to receive the order at the agreed time, or the item cannot be delivered because of access " +
          "restrictions we were not told about, we will contact you to arrange a new date. A redelivery fee may apply after a second " +
          "failed attempt.",
        "If you need to change your delivery date, please let us know at least 48 hours before the scheduled delivery.",
      ],
    },
    {
      heading: "Contact Us",
      paragraphs: [
        `For any question about shipping or delivery, email ${SUPPORT_EMAIL} or call ${SUPPORT_PHONE}, ` +
          `Monday to Saturday from 10:00 AM to 8:00 PM and Sunday from 11:00 AM to 6:00 PM.`,
      ],
    },
  ],
};

export const policies: Record<PolicyId, Policy> = { privacy, terms, shipping };
