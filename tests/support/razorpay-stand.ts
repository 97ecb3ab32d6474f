// The real Razorpay SDK, pointed at a local stand-in server: the SDK has no base-URL option, so each
// client it makes has its axios instance's baseURL set to `stand.url` (read when the client is made,
// so a test may point it elsewhere, or at nothing, between calls). For vi.mock("razorpay", …).
type RazorpayClass = new (options: unknown) => { api: { rq: { defaults: { baseURL: string } } } };

export function pointedAt(original: unknown, stand: { url: string }): { default: RazorpayClass } {
  const Real = (original as { default: RazorpayClass }).default;
  class PointedRazorpay extends Real {
    constructor(options: unknown) {
      super(options);
      this.api.rq.defaults.baseURL = stand.url;
    }
  }
  return { default: PointedRazorpay };
}
