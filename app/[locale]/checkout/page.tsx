import { SandboxCheckout } from '@/components/payment/sandbox-checkout';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/checkout?order=CODE`: the sandbox checkout page of an order. */
export default clientPage(SandboxCheckout, ['Checkout']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
