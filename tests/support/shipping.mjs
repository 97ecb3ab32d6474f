// The shipping address the tests' orders carry (integration tests, the crash test, the cluster's
// tests). Plain JavaScript: scripts/crash-test.mjs runs under node without a TypeScript loader.
// The email differs from the customers' own on purpose.
export const SHIPPING = {
  name: "Asha Verma",
  address: "12 MG Road, Indiranagar",
  city: "Bengaluru",
  state: "Karnataka",
  pincode: "560038",
  phone: "9876543210",
  email: "asha.ship@example.com",
};
