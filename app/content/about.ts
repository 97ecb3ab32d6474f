// About page content. Two readings are kept on purpose (docs/product.md, "Screens"): the brand was
// founded in 2025 (description, story) while the tagline says it has crafted furniture since 2005.

export interface TeamMember {
  name: string;
  position: string;
  /** /images/avatars/{kebab-name}.svg */
  imgPath: string;
}

export interface AboutContent {
  title: string;
  description: string;
  tagline: string;
  /** Three paragraphs separated by blank lines ("\n\n"). */
  story: string;
  vision: string;
  values: string[];
  teamMembers: TeamMember[];
}

export const about: AboutContent = {
  title: "About Sagwan Living",
  description:
    "Sagwan Living was founded in 2025 in Ahmedabad, Gujarat, to bring honest, solid-wood furniture to Indian homes: pieces made by " +
    "skilled craftspeople, built for the way families really live, and priced fairly.",
  tagline: "Crafting furniture since 2005",
  story: [
    "Sagwan Living was founded in 2025 in Ahmedabad, Gujarat. Our name comes from sagwan, the Hindi word for teak, the wood that has " +
      "furnished Indian homes for generations because it is strong, beautiful and lasts. We started with a simple belief: a sofa, a " +
      "bed or a dining table should be something you choose once and keep for years, not something you replace every few seasons.",
    "Every piece in our collection is designed in Ahmedabad and made by carpenters, upholsterers and polishers who have spent their " +
      "lives working with wood. We use seasoned timber, traditional joinery where it matters and finishes that are safe for children " +
      "and pets. Before anything leaves our workshop it is checked by hand, and it is delivered and set up in your home by our own " +
      "team.",
    "Today we serve customers across India from our showrooms in Ahmedabad, Mumbai and Bengaluru and through our online shop. We " +
      "still work the way we began: we listen to how you live, we build furniture that suits Indian homes and climates, and we stand " +
      "behind everything we make long after it reaches your door.",
  ].join("\n\n"),
  vision:
    "We want every Indian home to have furniture it is proud of: well made, comfortable and built to be passed on. These values " +
    "guide every piece we design, make and deliver.",
  values: [
    "Honest materials: seasoned solid wood and quality fabrics, with nothing hidden under the surface.",
    "Craftsmanship that lasts: traditional joinery and careful finishing, checked by hand before every delivery.",
    "Fair prices: clear pricing with taxes included, and no surprises at checkout.",
    "Responsible making: responsibly sourced timber, low-waste workshops and finishes that are safe for your family.",
    "Care after the sale: friendly support, careful delivery and help whenever a piece needs attention.",
  ],
  teamMembers: [
    { name: "Arjun Mehta", position: "Founder & CEO", imgPath: "/images/avatars/arjun-mehta.svg" },
    { name: "Priya Shah", position: "Head of Design", imgPath: "/images/avatars/priya-shah.svg" },
    { name: "Rohan Desai", position: "Master Craftsman", imgPath: "/images/avatars/rohan-desai.svg" },
    { name: "Kavya Iyer", position: "Customer Experience Lead", imgPath: "/images/avatars/kavya-iyer.svg" },
  ],
};
