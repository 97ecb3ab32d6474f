// Contact details (docs/product.md, Contact). Two readings are kept on purpose: the showroom
// note says Monday to Saturday 9AM to 8PM, while the business hours say Mon-Sat 10:00 AM-8:00 PM
// and Sun 11:00 AM-6:00 PM. The hours are written once (BUSINESS_HOURS) and spelled three ways:
// the Call Us card, the Opening Hours list and the footer.

export interface Showroom {
  city: string;
  address: string;
  phone: string;
}

export interface OpeningHoursRow {
  days: string;
  hours: string;
}

export interface SocialMedia {
  facebook: string;
  instagram: string;
  twitter: string;
}

/** The business hours, once. */
const BUSINESS_HOURS = [
  { short: "Mon-Sat", days: "Monday - Saturday", opens: "10:00 AM", closes: "8:00 PM" },
  { short: "Sun", days: "Sunday", opens: "11:00 AM", closes: "6:00 PM" },
];

export interface ContactInfo {
  heading: string;
  description: string;
  email: string;
  phone: string;
  /** Shown on the "Call Us" card. */
  hours: string;
  /** The head showroom. */
  address: string;
  showroomName: string;
  showrooms: Showroom[];
  socialMedia: SocialMedia;
  openingHours: OpeningHoursRow[];
  /** The footer's lines, "Mon-Sat: 10:00 AM-8:00 PM". */
  businessHours: string[];
  showroomNote: string;
}

export const contact: ContactInfo = {
  heading: "Contact Us",
  description:
    "Questions about a piece, an order or a delivery? We'd love to hear from you. " +
    "Write to us, give us a call or visit one of our showrooms.",
  email: "support@sagwanliving.in",
  phone: "+91 79 4000 1234",
  hours: BUSINESS_HOURS.map((h) => `${h.short} ${h.opens}-${h.closes}`).join(", "),
  address: "14 Sindhu Bhavan Road, Bodakdev, Ahmedabad, Gujarat 380054",
  showroomName: "Sagwan Living Ahmedabad",
  showrooms: [
    {
      city: "Ahmedabad",
      address: "14 Sindhu Bhavan Road, Bodakdev, Ahmedabad, Gujarat 380054",
      phone: "+91 79 4000 1234",
    },
    {
      city: "Mumbai",
      address: "22 Linking Road, Bandra West, Mumbai, Maharashtra 400050",
      phone: "+91 22 4000 5678",
    },
    {
      city: "Bengaluru",
      address: "480 100 Feet Road, Indiranagar, Bengaluru, Karnataka 560038",
      phone: "+91 80 4000 9012",
    },
  ],
  socialMedia: {
    facebook: "https://www.facebook.com/sagwanliving",
    instagram: "https://www.instagram.com/sagwanliving",
    twitter: "https://twitter.com/sagwanliving",
  },
  openingHours: BUSINESS_HOURS.map((h) => ({ days: h.days, hours: `${h.opens} - ${h.closes}` })),
  businessHours: BUSINESS_HOURS.map((h) => `${h.short}: ${h.opens}-${h.closes}`),
  showroomNote: "Our showroom is open Monday through Saturday, 9AM to 8PM",
};

/** A Google Maps search link for an address (a plain link: nothing is embedded). */
export function mapsSearchUrl(query: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/** "+91 79 4000 1234" -> "tel:+917940001234" */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
