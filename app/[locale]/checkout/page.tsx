import { SandboxCheckout } from '@/components/payment/sandbox-checkout';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/checkout?order=CODE`: the sandbox checkout page of an order. */
export default clientPage(SandboxCheckout, ['Checkout']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('checkout');
