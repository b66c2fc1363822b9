import { SandboxCheckout } from '@/components/payment/sandbox-checkout';
import { clientPage } from '@/components/ui/client-page';

/** `/checkout?order=CODE`: the sandbox checkout page of an order. */
export default clientPage(SandboxCheckout, ['Checkout']);
