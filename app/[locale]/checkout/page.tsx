import { Checkout } from '@/components/payment/checkout';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/checkout?order=CODE`: the checkout page of an order (the sandbox's card form, or Stripe's embedded checkout). */
export default clientPage(Checkout, ['Checkout']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('checkout');
